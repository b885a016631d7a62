/**
 * Terminal report: verdict banner, metric table (numerator / denominator / rate / 95% interval:
 * Wilson for a rate, bootstrap for a mean / threshold / status), checklist, selection modes,
 * failing queries, replay proof, artifact ids.
 * Every line fits the width the caller gives (80 when none: a pipe or a file); tables keep their
 * 80-column layout where it fits and splits no id, else are laid out from their content
 * (reports/fitted-table.ts). Colour only when the caller says so (it decides NO_COLOR / TTY).
 */
import type { Report } from '../../src/documents/index.js';
import { DETECTABLE_HEADING, detectableLines, HOLES_HEADING, holesLines } from './detectable.js';
import { terminalSafe } from '../escape.js';
import { wrap } from '../wrap.js';
import { fittedTable, type FitColumn, type FitRow } from '../fitted-table.js';
import { DEFAULT_WIDTH } from '../history/shared.js';
import {
  actualText,
  bannerTitle,
  fallbackReasonText,
  expectedText,
  failingQueries,
  failingTitle,
  hiddenMetrics,
  hiddenText,
  metricRows,
  statusWord,
  replaySummary,
  selectionApplies,
  selectionModeRows,
  shortHash,
  shortMode,
  displayGate,
  type MetricRow,
  semanticWinText,
  rankedEntriesText,
  weightingText,
  unrankedCountText,
  top1SplitText,
  failingDetail,
  unmetExpectations,
  unmetTitle,
  notApplicableRows,
} from './view.js';
import { errorView } from './view-errors.js';
import { fallbackReasonView, violationView, peerFigureViews, warningView } from './view-findings.js';

export interface TerminalOptions {
  color?: boolean;
  /** most failing queries listed (the JSON and HTML reports have all) */
  maxFailing?: number;
  /** the line's width: the terminal's columns (the CLI clamps them to 40..120); 80 when absent */
  width?: number;
}

const ANSI = { red: 31, green: 32, yellow: 33, bold: 1, dim: 2 } as const;

type Paint = (code: keyof typeof ANSI, s: string) => string;

/** How every section draws: the width, colour or none, headings, the longest list shown. */
interface Term {
  W: number;
  paint: Paint;
  heading: (t: string) => string[];
  max: number;
}

const statusColor = (s: string): keyof typeof ANSI =>
  s === 'PASS' ? 'green' : s === 'WATCH' ? 'yellow' : s === 'FAIL' ? 'red' : 'bold';

export function renderTerminal(report: Report, opts: TerminalOptions = {}): string {
  const color = opts.color ?? false;
  const paint: Paint = (code, s) => (color ? `\u001b[${ANSI[code]}m${s}\u001b[0m` : s);
  const W = opts.width ?? DEFAULT_WIDTH;
  const t: Term = {
    W,
    paint,
    heading: (h) => wrap(h, W, '  ').map((l) => paint('bold', l)),
    max: opts.maxFailing ?? 20,
  };
  const cv = violationSection(report, t.max, paint, W);
  const out = [
    ...bannerSection(report, t),
    ...metricsSection(report, t),
    ...checklistSection(report, t),
    ...selectionModesSection(report, t),
    ...failingSection(report, t),
    ...unmetSection(report, t),
    ...notApplicableSection(report, t),
    ...warningsSection(report, t),
    ...fallbackReasonsSection(report, t),
    ...errorSection(report, t.max, paint, W),
    '',
    ...(cv.length ? [...cv, ''] : []),
    ...peersSection(report, t),
    ...replaySection(report, t),
    ...artifactsSection(report, t),
  ];
  // tables pad every cell: strip trailing blanks so snapshots and copy-paste stay clean
  return (
    out
      .map((l) => l.replace(/[ ]+$/, ''))
      .join('\n')
      .replace(/[ ]+\n/g, '\n') + '\n'
  );
}

/** The verdict, its reasons, what ran, and the run id. */
function bannerSection(report: Report, { W, paint }: Term): string[] {
  const safe = terminalSafe;
  const out: string[] = [];
  const gate = displayGate(report);
  const banner = bannerTitle(report);
  const title = ` ${banner.status}  ${safe(banner.title)} `;
  const bar = '='.repeat(W);
  out.push(paint(statusColor(banner.status), bar));
  out.push(paint('bold', paint(statusColor(banner.status), fit(title, W))));
  out.push(paint(statusColor(banner.status), bar));
  for (const r of gate.reasons) out.push(...wrap(`- ${safe(r)}`, W, '  '));
  out.push(
    ...wrap(
      `suite ${safe(report.suite)} · system ${safe(report.system.name)} (${safe(report.system.kind)}, ${safe(report.system.contract)})`,
      W,
      '  ',
    ),
  );
  if (semanticWinText(report)) out.push(...wrap(safe(semanticWinText(report)), W, '  '));
  if (rankedEntriesText(report)) out.push(...wrap(safe(rankedEntriesText(report)), W, '  '));
  if (report.system.weighting) out.push(...wrap(safe(weightingText(report.system.weighting)), W, '  '));
  if (unrankedCountText(report)) out.push(...wrap(unrankedCountText(report), W, '  '));
  const w = report.warnings;
  // a degraded system that still answers says so only on stderr: the verdict's reader sees it here
  if (w && w.warned > 0)
    out.push(
      paint(
        'yellow',
        wrap(
          `warnings: ${w.warned}/${w.answered} answered requests wrote to stderr (see Warnings)`,
          W,
          '  ',
        ).join('\n'),
      ),
    );
  // the run id alone on its line: a terminal never wraps it, so it copies whole into `rgate diff`
  out.push(`run ${safe(report.environment.run_id)}`);
  out.push('');
  return out;
}

/** The metric table, what it leaves out, the judging rule and the top-1 split. */
function metricsSection(report: Report, { W, paint, heading }: Term): string[] {
  const safe = terminalSafe;
  // at 80 columns: content widths sum to 75; with the five one-space separators a row is 80 columns
  const statusCell = (row: MetricRow) =>
    row.status === 'info' ? '' : paint(statusColor(statusWord(row.status)), statusWord(row.status));
  const metrics = fittedTable(
    [
      col('metric', 25),
      col('num/den', 11),
      col('rate', 9),
      col('95% interval', 13),
      col('threshold', 11),
      col('status', 6),
    ],
    metricRows(report).map((row) => [
      safe(row.label),
      row.counted,
      row.value,
      row.interval,
      row.threshold,
      statusCell(row),
    ]),
    W,
  );
  const out = [...heading('Metrics'), ...metrics];
  const hidden = hiddenMetrics(report);
  if (hidden.length)
    out.push(
      ...wrap(`not shown (see report.json): ${hiddenText(hidden)}`, W, '  ').map((l) => paint('dim', l)),
    );
  if (report.judging?.top1_useful_rule)
    out.push(
      ...wrap(`judging: ${safe(report.judging.top1_useful_rule)}`, W, '  ').map((l) => paint('dim', l)),
    );
  const split = top1SplitText(report);
  if (split) out.push(...wrap(split, W, '  '));
  out.push('');
  for (const [title, lines] of [
    [DETECTABLE_HEADING, detectableLines(report)],
    [HOLES_HEADING, holesLines(report)],
  ] as const) {
    if (!lines.length) continue;
    out.push(...heading(title));
    for (const l of lines) out.push(...wrap(`- ${safe(l)}`, W, '  '));
    out.push('');
  }
  return out;
}

function checklistSection(report: Report, { W, paint, heading }: Term): string[] {
  const gate = displayGate(report);
  if (!gate.checklist.length) return [];
  const out = [...heading('QA checklist')];
  for (const c of gate.checklist) {
    const [first = '', ...rest] = wrap(`${c.ok ? '[x]' : '[ ]'} ${terminalSafe(c.text)}`, W, '    ');
    out.push(paint(c.ok ? 'green' : 'red', first.slice(0, 3)) + first.slice(3), ...rest);
    out.push(...wrap(terminalSafe(c.evidence), W, '    ', '    ').map((l) => paint('dim', l)));
  }
  out.push('');
  return out;
}

function selectionModesSection(report: Report, { W, heading }: Term): string[] {
  const modes = selectionModeRows(report);
  if (!modes.length) return [];
  const modeTable = fittedTable(
    [col('mode', 26), col('queries', 10), col('top-1 useful', 14), col('not useful', 12)],
    modes.map((m) => [m.mode, String(m.queries), String(m.useful), String(m.not_useful)]),
    W,
  );
  return [...heading('Selection modes (benchmark queries, replay 1)'), ...modeTable, ''];
}

/** The failing queries (at most max), each with why it failed and the fallback reason it gave. */
function failingSection(report: Report, { W, paint, heading, max }: Term): string[] {
  const safe = terminalSafe;
  const failing = failingQueries(report);
  const out = [...heading(failingTitle(report, failing.length))];
  if (!failing.length) return [...out, '  none', ''];
  // no selection step: no mode column, its width goes to the expected ids
  const withMode = selectionApplies(report);
  const columns = withMode
    ? [col('query', 20), col('mode', 10), col('expected', 21, 'text'), col('actual', 26, 'text')]
    : [col('query', 20), col('expected', 32, 'text'), col('actual', 26, 'text')];
  const rows: FitRow[] = [];
  for (const { q, why } of failing.slice(0, max)) {
    const cells = [safe(q.query_id), safe(expectedText(q)), safe(actualText(q))];
    if (withMode) cells.splice(1, 0, shortMode(q));
    rows.push(cells);
    const detail = safe(failingDetail(q));
    // a quoted text that is cut keeps its closing quote
    const quoted = detail.startsWith('"');
    const line = fit(`  ${why}: ${quoted ? detail.slice(0, -1) : detail}`, W - (quoted ? 5 : 4));
    rows.push({ note: paint('dim', quoted ? `${line}"` : line) });
    // the system's own reason for the fallback it took, whole: cutting it could cut its cause
    const fellBack = fallbackReasonText(q);
    if (fellBack) for (const l of wrap(safe(fellBack), W, '    ', '  ')) rows.push({ note: paint('dim', l) });
  }
  out.push(...fittedTable(columns, rows, W));
  if (failing.length > max) out.push(...andMore(failing.length - max, W));
  out.push('');
  return out;
}

function unmetSection(report: Report, { W, heading, max }: Term): string[] {
  const unmet = unmetExpectations(report);
  if (!unmet.length) return [];
  const ut = fittedTable(
    [col('probe', 18), col('expected', 29, 'text'), col('answered', 31, 'text')],
    unmet
      .slice(0, max)
      .map((u) => [terminalSafe(u.query_id), terminalSafe(u.expected), terminalSafe(u.answered)]),
    W,
  );
  const out = [...heading(unmetTitle(unmet.length)), ...ut];
  if (unmet.length > max) out.push(...andMore(unmet.length - max, W));
  out.push('');
  return out;
}

function notApplicableSection(report: Report, { W, paint, heading }: Term): string[] {
  const na = notApplicableRows(report);
  if (!na.length) return [];
  const out = [...heading('Probes this system cannot take (not applicable, not counted)')];
  for (const n of na) {
    out.push(...wrap(terminalSafe(n.headline), W, '    ', '  '));
    out.push(...wrap(terminalSafe(n.fix), W, '    ', '  '));
    out.push(...wrap(terminalSafe(n.query_ids), W, '    ', '    ').map((l) => paint('dim', l)));
  }
  out.push('');
  return out;
}

/** A headline and its lines under a heading, as the warnings and the fallback reasons are listed. */
function findingSection(
  title: string,
  v: { headline: string; lines: readonly string[]; more: string },
  { W, heading }: Term,
): string[] {
  if (!v.headline) return [];
  const out = [...heading(title), ...wrap(terminalSafe(v.headline), W, '  ', '  ')];
  for (const l of v.lines) out.push(...wrap(terminalSafe(l), W, '    ', '  '));
  if (v.more) out.push(...wrap(terminalSafe(v.more), W, '    ', '  '));
  out.push('');
  return out;
}

function warningsSection(report: Report, t: Term): string[] {
  return findingSection('Warnings (stderr of answered requests)', warningView(report), t);
}

function fallbackReasonsSection(report: Report, t: Term): string[] {
  return findingSection("Fallback reasons (the system's own words)", fallbackReasonView(report), t);
}

function peersSection(report: Report, { W, heading }: Term): string[] {
  const peers = peerFigureViews(report);
  if (!peers.length) return [];
  const out = [...heading('Peer figures (not gated)')];
  for (const p of peers) {
    out.push(...wrap(terminalSafe(p.line), W, '    ', '  '));
    out.push(...wrap(terminalSafe(`how: ${p.source}`), W, '    ', '    '));
    out.push(...wrap(terminalSafe(`why they differ: ${p.why}`), W, '    ', '    '));
  }
  out.push('');
  return out;
}

function replaySection(report: Report, { W, paint, heading }: Term): string[] {
  const rp = replaySummary(report);
  const out = [...heading('Replay proof')];
  const tag = rp.status === 'identical' ? 'identical' : rp.status === 'divergent' ? 'DIVERGENT' : 'NOT SHOWN';
  const [head = '', ...more] = wrap(`${tag}: ${rp.headline}`, W, '  ');
  const colour = rp.status === 'identical' ? 'green' : rp.status === 'divergent' ? 'red' : 'yellow';
  out.push(paint(colour, tag) + head.slice(tag.length), ...more);
  for (const d of rp.divergent) {
    out.push(
      ...wrap(
        `${terminalSafe(d.query_id)} first differs at ${terminalSafe(d.field)}: ${d.groups}`,
        W,
        '    ',
        '  ',
      ),
    );
  }
  out.push('');
  return out;
}

function artifactsSection(report: Report, { W, heading }: Term): string[] {
  const safe = terminalSafe;
  const a = report.artifacts;
  const at = fittedTable(
    [col('artifact', 14), col('id', 43), col('sha256', 21)],
    [
      ['fixture', safe(`${a.artifact_id}@${a.version}`), ''],
      ['corpus_id', safe(a.corpus_id), shortHash(a.corpus_sha256)],
      ['query_set_id', safe(a.query_set_id), shortHash(a.query_set_sha256)],
      ['config_id', safe(a.config_id), shortHash(a.config_sha256)],
    ],
    W,
  );
  const out = [...heading('Artifacts'), ...at];
  if (report.baseline) out.push(...wrap(`baseline: ${safe(report.baseline.source)}`, W, '  '));
  return out;
}

/** Errors: failed requests by class, then each query that erred with its first error's text. */
function errorSection(report: Report, max: number, paint: Paint, W: number): string[] {
  const v = errorView(report);
  const out = [paint('bold', 'Errors'), ...wrap(terminalSafe(v.headline), W, '  ', '  ')];
  if (!v.classes.length) return out;
  const ct = fittedTable(
    [col('class', 18), col('requests', 9), col('queries', 8), col('first', 41, 'text')],
    v.classes.map((c) => [
      terminalSafe(c.kind),
      String(c.requests),
      String(c.queries),
      terminalSafe(fit(c.first, 120)),
    ]),
    W,
  );
  out.push(...ct);
  for (const q of v.queries.slice(0, max)) {
    const stable = q.stability ? `, ${q.stability}` : '';
    out.push(
      ...wrap(
        terminalSafe(`${q.query_id} [${q.kind}, ${q.replays_text}${stable}] ${fit(q.text, 300)}`),
        W,
        '    ',
        '  ',
      ),
    );
  }
  if (v.queries.length > max) out.push(...andMore(v.queries.length - max, W));
  return out;
}

/** Contract violations of measured answers, by rule (nothing when every measured answer keeps its contract). */
function violationSection(report: Report, max: number, paint: Paint, W: number): string[] {
  const v = violationView(report, max);
  if (!v) return [];
  const out = [paint('bold', 'Contract violations'), ...wrap(terminalSafe(v.headline), W, '  ', '  ')];
  // by path, each message under its path: paths and query ids are too long for table columns
  for (const r of v.rows) {
    // a path is an identifier on a line of its own: flush left when its indent would split it
    const path = terminalSafe(r.path);
    if (r.first_of_path) out.push(...wrap(path, W, '    ', path.length + 2 > W ? '' : '  '));
    const counts = `${r.message}: ${r.requests} ${r.requests === 1 ? 'request' : 'requests'}, ${r.queries} ${r.queries === 1 ? 'query' : 'queries'} (e.g. ${r.examples})`;
    out.push(...wrap(terminalSafe(counts), W, '      ', '    '));
  }
  if (v.more) out.push(...wrap(terminalSafe(v.more), W, '    ', '  '));
  return out;
}

/** The line under a list cut at `--max-failing`'s count. */
function andMore(n: number, W: number): string[] {
  return wrap(`… and ${n} more (see the JSON or HTML report)`, W, '    ', '  ');
}

/** A column of the 80-column layout: `width` there; an id unless it is free text that may wrap. */
function col(head: string, width: number, kind: FitColumn['kind'] = 'id'): FitColumn {
  return { head, width, kind };
}

function fit(s: string, width: number): string {
  return s.length > width ? s.slice(0, width - 1) + '…' : s;
}
