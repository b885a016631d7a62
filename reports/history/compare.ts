/**
 * Comparison session renderings (`rgate compare`): terminal, JSON, Markdown and a self-contained
 * HTML page (per-metric delta chart; for a sweep, each gate metric charted over the grid).
 * The terminal shows every variant against the reference; JSON, Markdown and HTML have every pair.
 */
import {
  RANKING_ONLY,
  SELECTION_MODES,
  type CompareSession as CompareSessionModel,
  type CompareVariant,
  type PairedTest as PairedTestView,
} from '../../src/documents/index.js';
import {
  barChart,
  barChartSize,
  DEFAULT_WIDTH,
  finish,
  interval,
  jsonDoc,
  lineChart,
  n4,
  painter,
  pValue,
  renderPage,
  testP,
  safe,
  signed,
  type ChartSpec,
} from './shared.js';
import { mdCode, mdEscape } from '../escape.js';
import { wrap } from '../wrap.js';
import { hiddenText, weightingText } from '../run/view.js';
import {
  holesMarkdown,
  holesTerminal,
  holesView,
  winnerHolesMarkdown,
  winnerHolesTerminal,
  winnerHolesView,
} from './compare-holes.js';
import { labelEffectTexts, noWinnerText } from './compare-labels.js';
import { fittedTable } from '../fitted-table.js';
import { detectableText } from '../run/detectable.js';
import type { PageFrame } from '../templates.js';

export interface SessionRenderOpts {
  color?: boolean;
  /** most flipped queries listed per pair in the terminal */
  maxFlips?: number;
  /** the terminal's columns: no line is longer (default 80) */
  width?: number;
}

function labelOf(s: CompareSessionModel, id: string): string {
  return s.variants.find((v) => v.id === id)?.label ?? id;
}

function aggregate(s: CompareSessionModel, variantId: string, metric: string): number | null {
  return (
    s.variants.find((v) => v.id === variantId)?.aggregates.find((a) => a.metric === metric)?.value ?? null
  );
}

/** The metrics a sweep charts: the gate's, else every metric compared per query. */
function chartedMetrics(s: CompareSessionModel): string[] {
  const gate = s.gate_metrics.filter((m) => s.variants.some((v) => v.aggregates.some((a) => a.metric === m)));
  return gate.length ? gate : s.metrics.map((m) => m.id);
}

/** The test's n against the gate's denominator, for a table cell: "n=18 (gate denominator 18)". */
function nText(t: PairedTestView): string {
  return t.n_basis ?? `n=${t.n} (not stated against the gate: session written before it was)`;
}

/**
 * Under the terminal's paired tests: one line when every n equals its gate denominator, else a
 * line per test that differs, saying why.
 */
function nNotes(tests: readonly PairedTestView[]): string[] {
  const differs = tests.filter(
    (t) => !t.gate_n || (t.unpaired?.length ?? 0) > 0 || t.gate_n[0] !== t.n || t.gate_n[1] !== t.n,
  );
  if (!differs.length) return tests.length ? ["n: equal to the gate's denominator in every test"] : [];
  return differs.map((t) => `n ${t.metric} ${t.a}->${t.b}: ${nText(t)}`);
}

/** A variant's gate metrics, each with what it counted: "top1_useful_rate 0.6667 (12/18)". */
function gateValues(s: CompareSessionModel, v: CompareVariant): string[] {
  return s.gate_metrics.flatMap((m) => {
    const a = v.aggregates.find((x) => x.metric === m);
    if (!a) return [];
    const counted =
      a.numerator !== undefined && a.denominator !== undefined ? ` (${a.numerator}/${a.denominator})` : '';
    return [`${m} ${n4(a.value)}${counted}`];
  });
}

/** A variant's benchmark queries by selection mode, fixed mode order: "semantic 12/18 (66.7%)". */
function modeRates(v: CompareVariant): string[] {
  const counts = v.selection_modes ?? {};
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const order = [...SELECTION_MODES, RANKING_ONLY, 'error'] as string[];
  const keys = Object.keys(counts).sort((a, b) => {
    const ia = order.indexOf(a);
    const ib = order.indexOf(b);
    return (ia < 0 ? order.length : ia) - (ib < 0 ? order.length : ib) || (a < b ? -1 : a > b ? 1 : 0);
  });
  return keys.map((k) => `${k} ${counts[k]}/${total} (${((100 * counts[k]!) / total).toFixed(1)}%)`);
}

/**
 * One variant's figure over a test's paired queries: a rate as what it counted, "53/86 (0.6163)", a
 * mean with its n, "0.4807 (n=90)"; `terminal` drops the brackets ("53/86 0.6163"), so the cell
 * wraps into two short lines and the table keeps to 80 columns. A measure is a rate where the
 * variant's report counts it as one (its per-query values are then 0 or 1: mean times n is the count).
 */
export function sideText(
  s: CompareSessionModel,
  t: PairedTestView,
  side: 'a' | 'b',
  terminal = false,
): string {
  const mean = side === 'a' ? t.mean_a : t.mean_b;
  if (mean === null) return 'n/a';
  const kind = s.variants.find((v) => v.id === t[side])?.aggregates.find((a) => a.metric === t.metric)?.kind;
  const count = mean * t.n;
  const [rate, n] =
    kind === 'rate' && Math.abs(count - Math.round(count)) < 1e-6
      ? [`${Math.round(count)}/${t.n}`, n4(mean)]
      : [n4(mean), `n=${t.n}`];
  return terminal ? `${rate} ${n}` : `${rate} (${n})`;
}

/**
 * "Not tested (not applicable, left out of Holm's family): top1_useful_rate, fallback_expectation_met
 * (no selection step)"; empty when nothing was left out (or the session predates leaving them out).
 */
function notTestedText(s: CompareSessionModel): string {
  const hidden = s.not_applicable ?? [];
  return hidden.length ? `Not tested (not applicable, left out of Holm's family): ${hiddenText(hidden)}` : '';
}

/** The size of Holm's family: stored since ties were left out of it; before, every test with a p. */
function holmTests(s: CompareSessionModel): number {
  return s.holm_tests ?? s.tests.filter((t) => t.p_value !== null).length;
}

function holmLeftOut(s: CompareSessionModel): string {
  const tied = s.tests.filter((t) => t.p_value !== null).length - holmTests(s);
  return tied > 0 ? `; ${tied} tied on every query, left out` : '';
}

/** How the figures were made, precisely enough to reproduce them (README "Tuning comparisons"). */
function methodText(s: CompareSessionModel): string {
  const estimated = s.tests.some((t) => t.p_exact === false);
  const ci =
    `. 95% CI: percentile bootstrap of the mean delta over queries (${s.settings.resamples} resamples), ` +
    `not adjusted for the ${holmTests(s)} tests; Holm p is.`;
  if (s.settings.test === 't')
    return (
      "p: paired Student's t-test, two-sided, t = mean / (sd / sqrt n) with the n-1 standard deviation, " +
      'df = n - 1 (as scipy.stats.ttest_rel and ranx compare compute it); all-tied tests p = 1' +
      ci
    );
  return (
    `p: paired sign-flip randomization test, two-sided, exact where every sign assignment was counted` +
    (estimated
      ? `; ~ marks an estimate from ${s.settings.permutations} permutations, (b+1)/(${s.settings.permutations}+1), ` +
        `standard error about sqrt(p(1-p)/${s.settings.permutations}) (0.005 at p = 0.5)`
      : '') +
    `. 95% CI: percentile bootstrap of the mean delta over queries (${s.settings.resamples} resamples), ` +
    `not adjusted for the ${holmTests(s)} tests; Holm p is.`
  );
}

/** Does any variant state its weighting (a weights column is then drawn; else it would be all dashes)? */
function weighted(s: CompareSessionModel): boolean {
  return s.variants.some((v) => v.weighting);
}

function vsReference(s: CompareSessionModel): PairedTestView[] {
  return s.tests.filter((t) => t.a === s.reference);
}

/** How the session's terminal sections draw: paint, the width, and text wrapped (never cut) to it. */
interface SessionTerm {
  p: ReturnType<typeof painter>;
  width: number;
  text: (t: string, indent?: string, first?: string) => string[];
}

export function renderSessionTerminal(s: CompareSessionModel, opts: SessionRenderOpts = {}): string {
  const p = painter(opts.color ?? false);
  const width = opts.width ?? DEFAULT_WIDTH;
  const t: SessionTerm = {
    p,
    width,
    text: (x, indent = '    ', first = '') => wrap(safe(x), width, indent, first),
  };
  return finish([
    ...sessionHeadTerminal(s, t),
    ...variantsTerminal(s, t),
    ...holesTerminal(s, p, width),
    ...winnerHolesTerminal(s, p, width),
    ...pairedTestsTerminal(s, t),
    ...labelEffectsTerminal(s, t),
    ...winnersTerminal(s, t),
    ...flipsTerminal(s, t, opts.maxFlips ?? 10),
  ]);
}

function sessionHeadTerminal(s: CompareSessionModel, { p, text }: SessionTerm): string[] {
  return [
    ...text(`Comparison ${s.environment.session_id} · suite ${s.suite}`).map((l) => p('bold', l)),
    ...text(
      `${s.variants.length} ${s.kind === 'sweep' ? `grid points of ${s.sweep?.key ?? '?'}` : 'variants'} · same snapshot, seed ${s.settings.seed}, ${s.settings.replays} replays`,
      '    ',
      '  ',
    ),
    ...text(`${s.artifacts.query_set_id} · ${s.artifacts.corpus_id}`, '    ', '  '),
    '',
  ];
}

/** One block per variant, wrapped (never cut) to the width: its label, every gate value, its modes. */
function variantsTerminal(s: CompareSessionModel, { p, text }: SessionTerm): string[] {
  const out = text('Variants (* reference): gate values and selection modes (benchmark, replay 1)', '  ').map(
    (l) => p('bold', l),
  );
  for (const v of s.variants) {
    const verdict = v.verdict === 'NONE' ? v.verdict : p(verdictColour(v), v.verdict);
    const id = v.id + (v.id === s.reference ? '*' : '');
    const [first = '', ...rest] = text(`${id} ${v.verdict} ${v.label}`, '      ');
    out.push(first.replace(` ${v.verdict}`, ` ${verdict}`), ...rest);
    const why = verdictWhy(v);
    if (why) out.push(...text(`${v.verdict}: ${why}`, '      ', '    ').map((l) => p(verdictColour(v), l)));
    const values = gateValues(s, v);
    if (values.length) out.push(...text(values.join(' · '), '      ', '    '));
    const modes = modeRates(v);
    if (modes.length) out.push(...text(`modes: ${modes.join(', ')}`, '      ', '    '));
    if (v.weighting) out.push(...text(weightingText(v.weighting), '      ', '    '));
  }
  out.push('');
  return out;
}

/** Every variant's paired per-query tests against the reference, with what the figures count and how. */
function pairedTestsTerminal(s: CompareSessionModel, { p, width, text }: SessionTerm): string[] {
  const tests = vsReference(s);
  return [
    ...text(
      `Paired per-query tests vs ${s.reference} (Δ = variant - ${s.reference}; Holm over ${holmTests(s)} tests${holmLeftOut(s)})`,
      '  ',
    ).map((l) => p('bold', l)),
    ...fittedTable(
      [
        { head: 'metric' },
        { head: 'vs' },
        // no n column: each variant's figure carries it (53/86, n=90)
        { head: s.reference, kind: 'text' },
        { head: 'variant', kind: 'text' },
        { head: 'Δ mean' },
        { head: '95% CI', kind: 'text' },
        { head: 'p' },
        { head: 'Holm p' },
        { head: 'W/T/L' },
      ],
      tests.map((t) => [
        safe(t.metric),
        t.b,
        sideText(s, t, 'a', true),
        sideText(s, t, 'b', true),
        signed(t.mean_delta),
        interval(t.ci95),
        testP(t),
        t.significant ? p('green', pValue(t.p_holm)) : pValue(t.p_holm),
        `${t.wins}/${t.ties}/${t.losses}`,
      ]),
      width,
    ),
    ...nNotes(tests).flatMap((l) => text(l, '      ', '  ')),
    ...(notTestedText(s) ? text(notTestedText(s), '      ', '  ') : []),
    ...text(methodText(s), '      ', '  '),
    ...detectableTerminal(tests, text),
    '',
  ];
}

/** The smallest delta each test's queries could detect: a tie there says little when it is large. */
export const COMPARE_DETECTABLE_HEADING = 'Smallest Δ these queries could detect';

function compareDetectableLines(tests: readonly PairedTestView[]): string[] {
  return tests.flatMap((t) =>
    t.detectable ? [`${t.metric} ${t.b} vs ${t.a}: ${detectableText(t.detectable, 'value')}`] : [],
  );
}

function detectableTerminal(
  tests: readonly PairedTestView[],
  text: (s: string, first: string, rest: string) => string[],
): string[] {
  const lines = compareDetectableLines(tests);
  if (!lines.length) return [];
  return [
    ...text(`${COMPARE_DETECTABLE_HEADING}:`, '      ', '  '),
    ...lines.flatMap((l) => text(`- ${l}`, '      ', '    ')),
  ];
}

function labelEffectsTerminal(s: CompareSessionModel, { p, text }: SessionTerm): string[] {
  const labels = labelEffectTexts(s);
  if (!labels.length) return [];
  const out = text('Label effects (a gate metric moved, the rankings did not)', '  ').map((l) =>
    p('bold', l),
  );
  for (const l of labels) out.push(...text(l, '    ', '  ').map((x) => p('yellow', x)));
  out.push('');
  return out;
}

function winnersTerminal(s: CompareSessionModel, { p, text }: SessionTerm): string[] {
  const out = [p('bold', `Winners (alpha ${s.settings.alpha}, Holm-corrected)`)];
  for (const w of s.winners) {
    const head = w.winner ? `${w.winner} ${labelOf(s, w.winner)}` : noWinnerText(w);
    out.push(...text(`${w.metric}: ${head}`, '      ', '  ').map((l) => p(w.winner ? 'green' : 'yellow', l)));
    out.push(...text(w.reason, '      ', '    ').map((l) => p('dim', l)));
  }
  out.push('');
  return out;
}

/** Each pair's top-1 flips (at most max), with which way each went. */
function flipsTerminal(s: CompareSessionModel, { p, width, text }: SessionTerm, max: number): string[] {
  const out: string[] = [];
  for (const f of s.flips) {
    out.push(p('bold', `Top-1 flips ${f.a} -> ${f.b} (${f.queries.length})`));
    if (!f.queries.length) {
      out.push('  none', '');
      continue;
    }
    out.push(
      ...fittedTable(
        [{ head: 'query' }, { head: `${f.a} top-1` }, { head: `${f.b} top-1` }, { head: 'dir' }],
        f.queries
          .slice(0, max)
          .map((q) => [
            safe(q.query_id),
            `${safe(q.a.selected ?? '(none)')}\n${q.a.top1}`,
            `${safe(q.b.selected ?? '(none)')}\n${q.b.top1}`,
            q.direction === 'better'
              ? p('green', 'better')
              : q.direction === 'worse'
                ? p('red', 'worse')
                : '',
          ]),
        width,
      ),
    );
    if (f.queries.length > max)
      out.push(...text(`… and ${f.queries.length - max} more (JSON / HTML have all)`, '    ', '  '));
    out.push('');
  }
  return out;
}

export function renderSessionJson(s: CompareSessionModel): string {
  return jsonDoc(s);
}

export function renderSessionMarkdown(s: CompareSessionModel): string {
  const out: string[] = [`## Comparison ${mdCode(s.environment.session_id)}: suite ${mdCode(s.suite)}`, ''];
  out.push(
    `${s.variants.length} ${s.kind === 'sweep' ? `grid points of ${mdCode(s.sweep?.key ?? '?')}` : 'variants'} on ${mdCode(s.artifacts.query_set_id)}, seed ${s.settings.seed}, ${s.settings.replays} replays. Paired per-query tests, Holm over ${holmTests(s)} tests${holmLeftOut(s)}, alpha ${s.settings.alpha}. ${methodText(s)}`,
    '',
  );
  out.push(
    `| id | variant | verdict | gate values | selection modes (benchmark, replay 1) |${weighted(s) ? ' weights |' : ''}`,
    `| --- | --- | --- | --- | --- |${weighted(s) ? ' --- |' : ''}`,
  );
  for (const v of s.variants)
    out.push(
      `| ${v.id}${v.id === s.reference ? ' (reference)' : ''} | ${mdEscape(v.label)} | ${v.verdict}${verdictWhy(v) ? `: ${mdEscape(verdictWhy(v)!)}` : ''} | ${mdEscape(gateValues(s, v).join('; ') || '-')} | ${mdEscape(modeRates(v).join('; ') || '-')} |${weighted(s) ? ` ${mdEscape(weightingText(v.weighting) || '-')} |` : ''}`,
    );
  out.push(...holesMarkdown(s));
  out.push(...winnerHolesMarkdown(s));
  const labels = labelEffectTexts(s);
  if (labels.length) {
    out.push('', '### Label effects (a gate metric moved, the rankings did not)', '');
    for (const l of labels) out.push(`- ⚠️ ${mdEscape(l)}`);
  }
  out.push('', '### Winners', '');
  for (const w of s.winners)
    out.push(
      `- ${mdCode(w.metric)}: ${w.winner ? `**${w.winner}** ${mdEscape(labelOf(s, w.winner))}` : noWinnerText(w)}: ${mdEscape(w.reason)}`,
    );
  out.push(
    '',
    '### Paired tests',
    '',
    '| metric | A | B | n | A value | B value | Δ mean | 95% CI | p | Holm p | W/T/L |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  );
  for (const t of s.tests) {
    out.push(
      `| ${mdCode(t.metric)} | ${t.a} | ${t.b} | ${mdEscape(nText(t))} | ${sideText(s, t, 'a')} | ${sideText(s, t, 'b')} | ${signed(t.mean_delta)} | ${interval(t.ci95)} | ${testP(t)} | ${t.significant ? `**${pValue(t.p_holm)}**` : pValue(t.p_holm)} | ${t.wins}/${t.ties}/${t.losses} |`,
    );
  }
  if (notTestedText(s)) out.push('', mdEscape(notTestedText(s)));
  const detectable = compareDetectableLines(s.tests);
  if (detectable.length)
    out.push('', `${COMPARE_DETECTABLE_HEADING}:`, '', ...detectable.map((l) => `- ${mdEscape(l)}`));
  for (const f of s.flips) {
    out.push('', `### Top-1 flips ${f.a} → ${f.b} (${f.queries.length})`, '');
    if (!f.queries.length) out.push('none');
    else {
      out.push('| query | A top-1 | B top-1 | direction |', '| --- | --- | --- | --- |');
      for (const q of f.queries) {
        out.push(
          `| ${mdCode(q.query_id)} | ${mdCode(q.a.selected ?? '(none)')} ${q.a.top1} | ${mdCode(q.b.selected ?? '(none)')} ${q.b.top1} | ${q.direction} |`,
        );
      }
    }
  }
  return out.join('\n') + '\n';
}

export function sessionCharts(s: CompareSessionModel): ChartSpec[] {
  const charts: ChartSpec[] = [];
  if (s.kind === 'sweep' && s.sweep) {
    const labels = s.variants.map((v) => String(v.sweep_value ?? v.label));
    chartedMetrics(s).forEach((m, i) => {
      charts.push({
        id: `sweep-${i}`,
        title: `${m} over ${s.sweep!.key}`,
        config: lineChart(`${m} over ${s.sweep!.key}`, labels, [
          { label: m, data: s.variants.map((v) => aggregate(s, v.id, m)) },
        ]),
        size: { wide: labels.length > 8, height: 280 },
      });
    });
  }
  const tests = vsReference(s);
  const others = s.variants.filter((v) => v.id !== s.reference);
  charts.push({
    id: 'deltas',
    title: `mean per-query delta vs ${s.reference}`,
    config: barChart(
      `mean per-query delta vs ${s.reference}`,
      s.metrics.map((m) => m.id),
      others.map((v) => ({
        label: `${v.id} ${v.label}`,
        data: s.metrics.map((m) => tests.find((t) => t.metric === m.id && t.b === v.id)?.mean_delta ?? null),
      })),
    ),
    size: barChartSize(s.metrics.length, others.length),
  });
  return charts;
}

/** NONE (no gate) is left plain: it is neither a pass nor a failure */
function verdictColour(v: CompareVariant): 'green' | 'yellow' | 'red' {
  return v.verdict === 'PASS' ? 'green' : v.verdict === 'WATCH' ? 'yellow' : 'red';
}

/** Why a variant did not PASS, as the session keeps it from its run's gate (older sessions did not keep it). */
function verdictWhy(v: CompareVariant): string | undefined {
  if (v.verdict === 'PASS' || v.verdict === 'NONE') return undefined;
  return (
    v.verdict_reason ??
    'reason not kept in this session (written before reasons were); compare again to see it'
  );
}

/** The HTML page's one-line summary of the winners. */
function bannerText(s: CompareSessionModel): string {
  const named = s.winners.filter((w) => w.winner).length;
  if (named) return `${named} metric(s) with a distinguishable winner`;
  const labelled = s.winners.filter((w) => w.label_effect).length;
  return labelled
    ? `No retrieval winner on any metric (${labelled} moved by labelling only: a label effect)`
    : 'No distinguishable winner on any metric';
}

/** What compare.hbs draws: every value already a display string. */
function sessionHtmlView(s: CompareSessionModel, frame?: PageFrame) {
  const runHref = frame?.runHref;
  const runOf = (id: string) => s.variants.find((v) => v.id === id)?.run_id ?? id;
  return {
    session_id: s.environment.session_id,
    note: frame?.note ?? null,
    notes: frame?.notes ?? [],
    suite: s.suite,
    compared: s.kind === 'sweep' ? `grid points of ${s.sweep?.key ?? '?'}` : 'variants',
    seed: s.settings.seed,
    replays: s.settings.replays,
    alpha: s.settings.alpha,
    query_set_id: s.artifacts.query_set_id,
    corpus_id: s.artifacts.corpus_id,
    winner_count: s.winners.filter((w) => w.winner).length,
    banner: bannerText(s),
    holes: holesView(s),
    winner_holes: winnerHolesView(s),
    label_effects: labelEffectTexts(s),
    not_tested: notTestedText(s),
    holm_family: `${holmTests(s)} tests${holmLeftOut(s)}`,
    method: methodText(s),
    detectable: compareDetectableLines(s.tests),
    detectable_heading: COMPARE_DETECTABLE_HEADING,
    weighted: weighted(s),
    variants: s.variants.map((v) => ({
      id: v.id,
      href: runHref ? runHref(v.run_id) : null,
      reference: v.id === s.reference,
      label: v.label,
      verdict: v.verdict,
      verdict_why: verdictWhy(v) ?? null,
      config_id: v.config_id,
      values: gateValues(s, v).join('; '),
      modes: modeRates(v).join('; '),
      weighting: weightingText(v.weighting) || '-',
    })),
    winners: s.winners.map((w) => ({
      metric: w.metric,
      best: w.best ?? '-',
      has_winner: Boolean(w.winner),
      winner: w.winner ?? (w.label_effect ? 'none (a label effect)' : 'none'),
      reason: w.reason,
    })),
    tests: s.tests.map((t) => ({
      metric: t.metric,
      a: t.a,
      b: t.b,
      n: t.n,
      n_basis: nText(t),
      value_a: sideText(s, t, 'a'),
      value_b: sideText(s, t, 'b'),
      mean_delta: signed(t.mean_delta),
      ci95: interval(t.ci95),
      p_value: testP(t),
      significant: t.significant,
      p_holm: pValue(t.p_holm),
      wins: t.wins,
      ties: t.ties,
      losses: t.losses,
    })),
    flips: s.flips.map((f) => ({
      a: f.a,
      b: f.b,
      diff_href: frame?.diffHref ? frame.diffHref(runOf(f.a), runOf(f.b)) : null,
      queries: f.queries.map((q) => ({
        query_id: q.query_id,
        text: q.text,
        a: { selected: q.a.selected ?? '(none)', top1: q.a.top1 },
        b: { selected: q.b.selected ?? '(none)', top1: q.b.top1 },
        direction_class: q.direction === 'better' ? 'pass' : q.direction === 'worse' ? 'fail' : '',
        direction: q.direction,
      })),
    })),
  };
}

/** The comparison page; `frame`: served by the dashboard (breadcrumb, scripts from /assets/). */
export function renderSessionHtml(s: CompareSessionModel, frame?: PageFrame): string {
  return renderPage(
    'compare',
    `rgate compare: ${s.suite}`,
    sessionHtmlView(s, frame),
    sessionCharts(s),
    frame,
  );
}
