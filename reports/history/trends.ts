/**
 * `rgate history`, `rgate diff` and `rgate baseline` renderings: terminal (fitted to a width), JSON, Markdown, and an HTML
 * page with one trend chart per gate metric. Renderers return strings; the CLI prints or writes.
 */
import type {
  PairedTest as HistoryTest,
  BaselineInfo as BaselineInfoModel,
  HistoryView as HistoryViewModel,
  QueryChange as QueryChangeView,
  RunDiff as RunDiffModel,
} from '../../src/documents/index.js';
import {
  DEFAULT_WIDTH,
  finish,
  jsonDoc,
  lineChart,
  PALETTE,
  n4,
  painter,
  pValue,
  renderPage,
  safe,
  signed,
  testP,
  type ChartSpec,
} from './shared.js';
import { ALARM_WINDOW } from '../../src/core/defaults.js';
import { fittedTable } from '../fitted-table.js';
import { mdCode, mdEscape } from '../escape.js';
import { wrap } from '../wrap.js';
import { hiddenText } from '../run/view.js';
import { measureSummary, num } from '../../gates/format.js';

export interface TerminalOpts {
  color?: boolean;
  /** the terminal's columns: no line is longer (default 80) */
  width?: number;
}

function verdictPaint(p: ReturnType<typeof painter>, v: string | null): string {
  if (!v) return '-';
  if (v === 'NONE') return v;
  return p(v === 'PASS' ? 'green' : v === 'WATCH' ? 'yellow' : 'red', v);
}

export function pointText(v: number | null, kind: string): string {
  if (v === null) return 'n/a';
  return kind === 'quantiles' ? `${Math.round(v)} ms` : n4(v);
}

export function renderHistoryTerminal(h: HistoryViewModel, opts: TerminalOpts = {}): string {
  const p = painter(opts.color ?? false);
  const width = opts.width ?? DEFAULT_WIDTH;
  const single = h.trends.length === 1 ? h.trends[0] : undefined;
  const out = [
    ...historyRunsTerminal(h, p, width),
    ...(single ? singleTrendTerminal(single, p, width) : trendsTerminal(h, p, width)),
    ...historyAlarmsTerminal(h, p, width),
  ];
  return finish(out);
}

type Paint = ReturnType<typeof painter>;

/** The heading, the runs left out of the trend, and the runs with their verdicts and input changes. */
function historyRunsTerminal(h: HistoryViewModel, p: Paint, width: number): string[] {
  const out = wrap(
    `History of suite ${safe(h.suite)}: ${h.runs.length} complete run(s), oldest -> newest`,
    width,
    '  ',
  ).map((l) => p('bold', l));
  if (h.skipped.length)
    out.push(
      ...wrap(
        `not in the trend: ${h.skipped.map((r) => `${safe(r.run_id)} (${r.status})`).join(', ')}`,
        width,
        '    ',
        '  ',
      ).map((l) => p('dim', l)),
    );
  out.push('');
  out.push(
    ...fittedTable(
      [
        { head: '#' },
        { head: 'run' },
        { head: 'started (UTC)', kind: 'text' },
        { head: 'fixture' },
        { head: 'verdict' },
      ],
      h.runs.map((r, i) => [
        String(i + 1),
        safe(r.run_id),
        safe(r.started_at.slice(0, 16).replace('T', ' ')),
        safe(r.version ?? '-'),
        verdictPaint(p, r.verdict),
      ]),
      width,
    ),
  );
  h.runs.forEach((r, i) => {
    if (r.change)
      out.push(
        ...wrap(
          `#${i + 1} changed inputs: ${safe(r.change)}; not comparable with the run before`,
          width,
          '    ',
          '  ',
        ),
      );
  });
  out.push('');
  return out;
}

/** One metric: its value per run with the change from the run before, and its sparkline. */
function singleTrendTerminal(single: HistoryViewModel['trends'][number], p: Paint, width: number): string[] {
  const out = wrap(`${safe(single.metric)} per run (${single.better} is better)`, width, '  ').map((l) =>
    p('bold', l),
  );
  let prev: number | null = null;
  const rows = single.points.map((pt) => {
    const delta = pt.value !== null && prev !== null ? pt.value - prev : null;
    prev = pt.value;
    return [
      safe(pt.run_id),
      pointText(pt.value, single.kind),
      pt.numerator !== undefined ? `${pt.numerator}/${pt.denominator}` : '',
      pt.interval ? `[${n4(pt.interval[0])}, ${n4(pt.interval[1])}]` : '',
      pt.snapshot_changed ? 'new' : signed(delta),
      pt.snapshot_changed ? 'snap' : '',
    ];
  });
  out.push(
    ...fittedTable(
      [
        { head: 'run' },
        { head: 'value' },
        { head: 'num/den' },
        { head: '95% interval', kind: 'text' },
        { head: 'Δ prev' },
        { head: 'note' },
      ],
      rows,
      width,
    ),
    ...wrap(`trend ${single.sparkline}`, width, '    ', '  '),
    '',
  );
  return out;
}

/** Every measured metric's sparkline, latest value and change, gate metrics starred. */
function trendsTerminal(h: HistoryViewModel, p: Paint, width: number): string[] {
  const out = [p('bold', 'Trends (* gate metric)')];
  out.push(
    ...fittedTable(
      [{ head: 'metric' }, { head: 'trend' }, { head: 'latest' }, { head: 'Δ prev' }, { head: 'status' }],
      measuredTrends(h).map((m) => [
        safe(m.metric) + (m.gate_metric ? ' *' : ''),
        m.sparkline.slice(-20),
        pointText(m.latest, m.kind),
        signed(m.delta),
        statusCell(p, m),
      ]),
      width,
    ),
  );
  if (h.not_applicable.length)
    out.push(
      ...wrap(`not applicable: ${safe(hiddenText(h.not_applicable))}`, width, '    ', '  ').map((l) =>
        p('dim', l),
      ),
    );
  out.push('');
  return out;
}

/** The newest run's line, the regression alarms (or why there is none) and the paired tests. */
function historyAlarmsTerminal(h: HistoryViewModel, p: Paint, width: number): string[] {
  const out: string[] = [];
  const newest = newestRunLine(h);
  if (newest) out.push(...wrap(newest, width, '  ', '').map((l) => verdictPaintIn(p, l, h)));
  if (h.alarms.length) {
    out.push(p('red', p('bold', `Regression alarms (${h.alarms.length})`)));
    for (const a of h.alarms) out.push(...wrap(`- ${safe(a)}`, width, '    ', '  '));
  } else {
    out.push(...wrap(noAlarmLine(h), width, '  '));
  }
  const paired = pairedLine(h);
  if (paired) out.push(...wrap(paired, width, '  ').map((l) => p('dim', l)));
  return out;
}

/**
 * How the newest run compares with `compared_with` query by query, and how the alarm reads it:
 * "Paired with r1 (query by query, sign-flip test, Holm over the 1 gate metric that moved, alpha 0.05; an alarm when
 * significant the bad way): ndcg_cut.10 -0.028 on 52 queries, p=.0070, Holm p=.0070". Null without
 * paired tests (a report missing, or no gate metric valued per query).
 */
export function pairedLine(h: HistoryViewModel): string | null {
  const pr = h.paired;
  if (!pr || pr.tests.length === 0) return null;
  const family = pr.tests.filter((t) => t.p_value !== null && t.ties < t.n).length;
  const text = (t: HistoryTest): string => {
    // per-query values the gate counted but the stored report does not give (an older report)
    const gate = (t.gate_n ?? []).flatMap((g) => (g !== null && g !== t.n ? [g] : []));
    const counted = gate.length ? ` (the gate counted ${Math.max(...gate)})` : '';
    return t.ties === t.n
      ? `${t.metric} tied on all ${t.n} queries${counted}`
      : `${t.metric} ${signed(t.mean_delta)} on ${t.n} queries${counted}, p=${testP(t)}, Holm p=${pValue(t.p_holm)}`;
  };
  // one clause per run compared with, in the tests' order (the comparable run, then the baseline)
  const runs = [...new Set(pr.tests.map((t) => t.a))];
  const clauses = runs.map((a) => {
    const who = a === pr.baseline ? `the suite's baseline ${a}` : a;
    return `with ${safe(who)}: ${safe(
      pr.tests
        .filter((t) => t.a === a)
        .map(text)
        .join('; '),
    )}`;
  });
  if (family === 0)
    return `Paired query by query: no gate metric differs on any query; ${clauses.join('; ')}.`;
  const tests =
    runs.length === 1 ? `gate metric${family === 1 ? '' : 's'}` : `test${family === 1 ? '' : 's'}`;
  return (
    `Paired query by query (sign-flip test, Holm over the ${family} ${tests} that moved, alpha ` +
    `${num(pr.settings.alpha)}; an alarm when significant the bad way), ${clauses.join('; ')}.`
  );
}

/**
 * A gate metric's status column: how the newest run's gate judged it (`pass`, `WATCH`, `FAIL`),
 * then `ALARM` when it also regressed against the run before. A metric no rule names shows only an
 * alarm: "ok" would claim a judgement nobody made.
 */
function statusCell(p: ReturnType<typeof painter>, m: HistoryViewModel['trends'][number]): string {
  const parts: string[] = [];
  if (m.rule_status === 'fail') parts.push(p('red', 'FAIL'));
  else if (m.rule_status === 'watch') parts.push(p('yellow', 'WATCH'));
  else if (m.rule_status === 'pass' && !m.alarm) parts.push(p('green', 'pass'));
  if (m.alarm) parts.push(p('red', 'ALARM'));
  return parts.join(' ');
}

/** "Newest run <id>: FAIL (gate <id>)": the verdict an alarm line must never hide. */
function newestRunLine(h: HistoryViewModel): string | undefined {
  const r = h.runs[h.runs.length - 1];
  if (!r) return undefined;
  if (!r.verdict || r.verdict === 'NONE')
    return `Newest run ${safe(r.run_id)}: NONE (no gate: measures only, nothing enforced).`;
  return `Newest run ${safe(r.run_id)}: ${r.verdict}${r.gate_id ? ` (gate ${safe(r.gate_id)})` : ''}.`;
}

function verdictPaintIn(p: ReturnType<typeof painter>, line: string, h: HistoryViewModel): string {
  const v = h.runs[h.runs.length - 1]?.verdict ?? null;
  return v ? line.replace(`: ${v}`, `: ${verdictPaint(p, v)}`) : line;
}

/**
 * No alarm says what was compared, naming the runs: the gate metrics with `compared_with` (the
 * newest earlier run on the same snapshot and config, not always the run before) and the verdict
 * with the run before; or that no earlier run in the alarm window was comparable, or that there
 * was none. Next to a FAIL or WATCH verdict it must not read as "all is well".
 */
export function noAlarmLine(h: HistoryViewModel): string {
  const v = h.runs[h.runs.length - 1]?.verdict;
  const before = h.verdict_compared_with;
  const cw = h.compared_with;
  const verdict =
    before === undefined ? '' : `; the verdict is no worse than in ${safe(before)}, the run before`;
  // the runs the alarm was decided from: fewer than ALARM_WINDOW when `--limit` read fewer
  const window = h.alarm_window ?? ALARM_WINDOW;
  const among =
    window < ALARM_WINDOW
      ? `the newest ${window} read (a limit below ${ALARM_WINDOW})`
      : `the newest ${window}`;
  // without the paired test only the 95% interval was checked: say so, never "nothing got worse"
  const unpaired =
    h.paired_unavailable !== undefined
      ? ` (95% interval only: ${safe(h.paired_unavailable)}, so no paired test)`
      : '';
  const base =
    cw === undefined
      ? before === undefined
        ? `No regression alarm: no earlier complete run among ${among} to compare with`
        : `No regression alarm: no earlier run among ${among} has the same snapshot and config, so no metric was compared${verdict}`
      : cw === before
        ? `No regression alarm: neither a gate metric nor the verdict got worse than in ${safe(cw)}, the run before, on the same snapshot and config${unpaired}`
        : `No regression alarm: no gate metric got worse than in ${safe(cw)}, the newest earlier run on the same snapshot and config${unpaired}${verdict}`;
  return v === 'FAIL' || v === 'WATCH' ? `${base} (the gate verdict above still stands).` : `${base}.`;
}

export function renderHistoryJson(h: HistoryViewModel): string {
  return jsonDoc(h);
}

export function renderHistoryMarkdown(h: HistoryViewModel): string {
  const out: string[] = [`## History of suite ${mdCode(h.suite)}`, ''];
  out.push(`${h.runs.length} complete run(s), oldest to newest.`, '');
  for (const r of h.runs)
    if (r.change)
      out.push(
        `- ${mdCode(r.run_id)} changed inputs: ${mdEscape(r.change)}; not comparable with the run before`,
      );
  if (h.runs.some((r) => r.change)) out.push('');
  const newest = newestRunLine(h);
  if (newest) out.push(`**${mdEscape(newest)}**`, '');
  out.push('| metric | trend | latest | Δ prev | gate | alarm |', '| --- | --- | --- | --- | --- | --- |');
  for (const m of measuredTrends(h)) {
    out.push(
      `| ${mdCode(m.metric)}${m.gate_metric ? ' (gate)' : ''} | ${m.sparkline} | ${pointText(m.latest, m.kind)} | ${signed(m.delta)} | ${m.rule_status ?? ''} | ${m.alarm ? mdEscape(m.alarm) : ''} |`,
    );
  }
  out.push('');
  if (h.alarms.length) out.push('**Regression alarms**', '', ...h.alarms.map((a) => `- ${mdEscape(a)}`), '');
  else out.push(noAlarmLine(h), '');
  const paired = pairedLine(h);
  if (paired) out.push(mdEscape(paired), '');
  return out.join('\n') + '\n';
}

/**
 * Trends worth a row: a gate metric, or a metric measured in some run of the window. A measure with
 * nothing to count in any run (no probes, no selection step) stays in the JSON only.
 */
export function measuredTrends(h: HistoryViewModel): HistoryViewModel['trends'] {
  return h.trends.filter((t) => t.gate_metric || t.points.some((p) => p.value !== null));
}

/** One trend chart per gate metric (every metric when the gate named none). */
export function historyCharts(h: HistoryViewModel): ChartSpec[] {
  const gate = h.trends.filter((t) => t.gate_metric);
  const chosen = gate.length ? gate : measuredTrends(h);
  return chosen.map((t, i) => {
    const config = lineChart(
      `${t.metric} (${t.better} is better)`,
      t.points.map((pt) => pt.run_id),
      [{ label: t.metric, data: t.points.map((pt) => pt.value) }],
      t.kind === 'rate' ? 1 : undefined,
    ) as { data: { datasets: Record<string, unknown>[] } };
    // the first run after a snapshot or config change: a large hollow diamond (the Runs table says what changed)
    const changed = t.points.map((pt) => pt.snapshot_changed);
    Object.assign(config.data.datasets[0]!, {
      pointStyle: changed.map((c) => (c ? 'rectRot' : 'circle')),
      pointRadius: changed.map((c) => (c ? 8 : 3)),
      pointBackgroundColor: changed.map((c) => (c ? '#ffffff' : PALETTE[0])),
      pointBorderWidth: changed.map((c) => (c ? 2 : 1)),
    });
    return {
      id: `trend-${i}`,
      title: `${t.metric} over the history of ${h.suite}`,
      config,
      size: { wide: t.points.length > 8, height: 260 },
    };
  });
}

/** What history.hbs draws: every value already a display string. */
function historyHtmlView(h: HistoryViewModel) {
  return {
    suite: h.suite,
    run_count: h.runs.length,
    alarms: h.alarms,
    newest: newestRunLine(h) ?? '',
    newest_class: h.runs[h.runs.length - 1]?.verdict ?? 'INFO',
    no_alarm: noAlarmLine(h),
    paired: pairedLine(h) ?? '',
    trends: measuredTrends(h).map((t) => ({
      metric: t.metric,
      gate_metric: t.gate_metric,
      sparkline: t.sparkline,
      latest: pointText(t.latest, t.kind),
      delta: signed(t.delta),
      alarm: t.alarm ?? '',
      rule_status: t.rule_status ?? '',
    })),
    runs: h.runs.map((r) => ({
      run_id: r.run_id,
      started_at: r.started_at,
      version: r.version ?? '-',
      verdict_class: r.verdict ?? '',
      verdict: r.verdict ?? '-',
      change: r.change ?? '',
    })),
    has_changes: h.runs.some((r) => r.change),
  };
}

export function renderHistoryHtml(h: HistoryViewModel): string {
  return renderPage('history', `rgate history: ${h.suite}`, historyHtmlView(h), historyCharts(h));
}

// ---- diff ---------------------------------------------------------------------------------------

/** One line per pinned field that differs between the two runs, e.g. "config_sha256 1a2b3c4d5e6f vs 9f8e7d6c5b4a". */
export function snapshotDifferences(d: RunDiffModel): string[] {
  const fields = [
    'corpus_id',
    'query_set_id',
    'config_id',
    'corpus_sha256',
    'query_set_sha256',
    'config_sha256',
  ] as const;
  const short = (v: string) => (v.startsWith('sha256:') ? v.slice(7, 19) : v);
  return fields
    .filter((f) => d.a.artifacts[f] !== d.b.artifacts[f])
    .map((f) => `${f} ${short(d.a.artifacts[f])} vs ${short(d.b.artifacts[f])}`);
}

function changeLines(c: QueryChangeView): string {
  return c.changes.join('; ');
}

export function renderDiffTerminal(d: RunDiffModel, opts: TerminalOpts = {}): string {
  const p = painter(opts.color ?? false);
  const width = opts.width ?? DEFAULT_WIDTH;
  const out: string[] = [];
  out.push(...wrap(`Diff ${safe(d.a.run_id)} -> ${safe(d.b.run_id)}`, width, '  ').map((l) => p('bold', l)));
  out.push(`  verdict ${verdictPaint(p, d.a.verdict)} -> ${verdictPaint(p, d.b.verdict)}`);
  if (!d.same_snapshot) {
    out.push(
      ...wrap(
        'the runs used different snapshots or configs; per-query changes may come from that:',
        width,
        '    ',
        '  ',
      ).map((l) => p('yellow', l)),
    );
    for (const line of snapshotDifferences(d))
      out.push(...wrap(safe(line), width, '      ', '    ').map((l) => p('yellow', l)));
  }
  out.push('');
  const moved = d.metrics.filter((m) => m.delta !== 0 && !(m.a === null && m.b === null));
  const mt = fittedTable(
    [{ head: 'metric' }, { head: 'A' }, { head: 'B' }, { head: 'Δ' }],
    moved.map((m) => [
      safe(m.measure),
      n4(m.a),
      n4(m.b),
      m.delta !== null && m.delta < 0 ? p('red', signed(m.delta)) : signed(m.delta),
    ]),
    width,
  );
  out.push(p('bold', 'Metrics that moved'), ...(moved.length ? mt : ['  none']), '');
  const section = (title: string, list: QueryChangeView[], color: 'red' | 'green' | 'yellow') => {
    out.push(p('bold', p(color, `${title} (${list.length})`)));
    if (!list.length) out.push('  none');
    else
      out.push(
        ...fittedTable(
          [{ head: 'query' }, { head: 'change', kind: 'text' }],
          list.map((c) => [safe(c.query_id), safe(changeLines(c))]),
          width,
        ),
      );
    out.push('');
  };
  section('Regressions', d.regressions, 'red');
  section('Improvements', d.improvements, 'green');
  section('Changed top-1', d.changed_top1, 'yellow');
  section('Changed selection mode', d.changed_selection_mode, 'yellow');
  if (d.other_changes.length) section('Other changes', d.other_changes, 'yellow');
  if (d.only_in_a.length) out.push(...wrap(`only in A: ${d.only_in_a.map(safe).join(', ')}`, width, '  '));
  if (d.only_in_b.length) out.push(...wrap(`only in B: ${d.only_in_b.map(safe).join(', ')}`, width, '  '));
  out.push(`${d.unchanged} queries unchanged.`);
  return finish(out);
}

export function renderDiffJson(d: RunDiffModel): string {
  return jsonDoc(d);
}

export function renderDiffMarkdown(d: RunDiffModel): string {
  const out = [
    `## Diff ${mdCode(d.a.run_id)} → ${mdCode(d.b.run_id)}`,
    '',
    `Verdict ${d.a.verdict} → ${d.b.verdict}.`,
    '',
  ];
  if (!d.same_snapshot)
    out.push(`> Snapshots or configs differ: ${snapshotDifferences(d).map(mdEscape).join('; ')}.`, '');
  const list = (title: string, l: QueryChangeView[]) => {
    out.push(`### ${title} (${l.length})`, '');
    if (!l.length) out.push('none', '');
    else
      out.push(
        '| query | change |',
        '| --- | --- |',
        ...l.map((c) => `| ${mdCode(c.query_id)} | ${mdEscape(changeLines(c))} |`),
        '',
      );
  };
  list('Regressions', d.regressions);
  list('Improvements', d.improvements);
  list('Changed top-1', d.changed_top1);
  list('Changed selection mode', d.changed_selection_mode);
  return out.join('\n') + '\n';
}

// ---- baseline -------------------------------------------------------------------------------------

export function renderBaselineTerminal(b: BaselineInfoModel, opts: TerminalOpts = {}): string {
  const p = painter(opts.color ?? false);
  const width = opts.width ?? DEFAULT_WIDTH;
  const a = b.run.artifacts;
  const line = (t: string) => wrap(t, width, '      ', '  ');
  const out = [
    ...wrap(`Baseline of suite ${safe(b.suite)}: run ${safe(b.run.run_id)}`, width, '  ').map((l) =>
      p('bold', l),
    ),
    ...line(
      `started ${safe(b.run.started_at)} · ${safe(b.run.gate_id ?? 'no gate')} ${b.run.verdict ?? '-'}`,
    ).map((l) => (b.run.verdict ? l.replace(` ${b.run.verdict}`, ` ${verdictPaint(p, b.run.verdict)}`) : l)),
    ...line(`note: ${b.note ? safe(b.note) : '(none)'}`),
    ...line(`fixture ${safe(`${a.artifact_id}@${a.version}`)}`),
    ...line(`corpus_id ${safe(a.corpus_id)}`),
    ...line(`query_set_id ${safe(a.query_set_id)}`),
    ...line(`config_id ${safe(a.config_id)}`),
    '',
    ...fittedTable(
      [{ head: 'metric' }, { head: 'value', kind: 'text' }],
      b.metrics.map((m) => [safe(m.id), measureSummary(m.value)]),
      width,
    ),
  ];
  if (b.not_applicable.length)
    out.push(
      ...wrap(`not applicable: ${safe(hiddenText(b.not_applicable))}`, width, '    ', '  ').map((l) =>
        p('dim', l),
      ),
    );
  return finish(out);
}
