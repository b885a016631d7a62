/**
 * Terminal report: verdict banner, metric table (numerator / denominator / rate / Wilson interval /
 * threshold / status), checklist, selection modes, failing queries, replay proof, artifact ids.
 * Every line fits 80 columns; colour only when the caller says so (it decides NO_COLOR / TTY).
 */
import type { Report } from '../../src/documents/index.js';
import { terminalSafe } from '../escape.js';
import { wrap } from '../wrap.js';
import { borderlessTable as table } from '../borderless-table.js';
import {
  actualText,
  bannerTitle,
  expectedText,
  failingQueries,
  failingTitle,
  hiddenMetrics,
  hiddenText,
  metricRows,
  replaySummary,
  selectionApplies,
  selectionModeRows,
  shortHash,
  shortMode,
  displayGate,
  type MetricRow,
  errorView,
  semanticWinText,
  rankedEntriesText,
  unrankedCountText,
  top1SplitText,
  failingDetail,
  unmetExpectations,
  unmetTitle,
  notApplicableRows,
} from './view.js';
import { violationView, peerFigureViews, warningView } from './view-findings.js';

export interface TerminalOptions {
  color?: boolean;
  /** most failing queries listed (the JSON and HTML reports have all) */
  maxFailing?: number;
  /** accepted for callers that pass the terminal width; the layout is always 80 columns */
  width?: number;
}

export const TERMINAL_WIDTH = 80;

const ANSI = { red: 31, green: 32, yellow: 33, bold: 1, dim: 2 } as const;

export function renderTerminal(report: Report, opts: TerminalOptions = {}): string {
  const color = opts.color ?? false;
  const paint = (code: keyof typeof ANSI, s: string) => (color ? `\u001b[${ANSI[code]}m${s}\u001b[0m` : s);
  const statusColor = (s: string): keyof typeof ANSI =>
    s === 'PASS' ? 'green' : s === 'WATCH' ? 'yellow' : s === 'FAIL' ? 'red' : 'bold';
  const safe = terminalSafe;
  const out: string[] = [];

  // banner
  const gate = displayGate(report);
  const banner = bannerTitle(report);
  const title = ` ${banner.status}  ${safe(banner.title)} `;
  const bar = '='.repeat(TERMINAL_WIDTH);
  out.push(paint(statusColor(banner.status), bar));
  out.push(paint('bold', paint(statusColor(banner.status), fit(title, TERMINAL_WIDTH))));
  out.push(paint(statusColor(banner.status), bar));
  for (const r of gate.reasons) out.push(...wrap(`- ${safe(r)}`, TERMINAL_WIDTH, '  '));
  out.push(
    ...wrap(
      `suite ${safe(report.suite)} · system ${safe(report.system.name)} (${safe(report.system.kind)}, ${safe(report.system.contract)})`,
      TERMINAL_WIDTH,
      '  ',
    ),
  );
  if (semanticWinText(report)) out.push(...wrap(safe(semanticWinText(report)), TERMINAL_WIDTH, '  '));
  if (rankedEntriesText(report)) out.push(...wrap(safe(rankedEntriesText(report)), TERMINAL_WIDTH, '  '));
  if (unrankedCountText(report)) out.push(...wrap(unrankedCountText(report), TERMINAL_WIDTH, '  '));
  const w = report.warnings;
  // a degraded system that still answers says so only on stderr: the verdict's reader sees it here
  if (w && w.warned > 0)
    out.push(
      paint(
        'yellow',
        wrap(
          `warnings: ${w.warned}/${w.answered} answered requests wrote to stderr (see Warnings)`,
          TERMINAL_WIDTH,
          '  ',
        ).join('\n'),
      ),
    );
  // the run id alone on its line: a terminal never wraps it, so it copies whole into `rgate diff`
  out.push(`run ${safe(report.environment.run_id)}`);
  out.push('');

  // content widths sum to 75; with the five one-space separators a row is 80 columns
  const statusCell = (row: MetricRow) =>
    row.status === 'info' ? '' : paint(statusColor(row.status.toUpperCase()), row.status.toUpperCase());
  const metrics = table(
    ['metric', 'num/den', 'rate', 'wilson 95%', 'threshold', 'status'],
    [25, 11, 9, 13, 11, 6],
  );
  for (const row of metricRows(report)) {
    metrics.push([safe(row.label), row.counted, row.value, row.interval, row.threshold, statusCell(row)]);
  }
  out.push(paint('bold', 'Metrics'), metrics.toString());
  const hidden = hiddenMetrics(report);
  if (hidden.length)
    out.push(
      ...wrap(`not shown (see report.json): ${hiddenText(hidden)}`, TERMINAL_WIDTH, '  ').map((l) =>
        paint('dim', l),
      ),
    );
  if (report.judging?.top1_useful_rule)
    out.push(
      ...wrap(`judging: ${safe(report.judging.top1_useful_rule)}`, TERMINAL_WIDTH, '  ').map((l) =>
        paint('dim', l),
      ),
    );
  const split = top1SplitText(report);
  if (split) out.push(...wrap(split, TERMINAL_WIDTH, '  '));
  out.push('');

  if (gate.checklist.length) {
    out.push(paint('bold', 'QA checklist'));
    for (const c of gate.checklist) {
      const [first = '', ...rest] = wrap(`${c.ok ? '[x]' : '[ ]'} ${safe(c.text)}`, TERMINAL_WIDTH, '    ');
      out.push(paint(c.ok ? 'green' : 'red', first.slice(0, 3)) + first.slice(3), ...rest);
      out.push(...wrap(safe(c.evidence), TERMINAL_WIDTH, '    ', '    ').map((l) => paint('dim', l)));
    }
    out.push('');
  }

  const modes = selectionModeRows(report);
  if (modes.length) {
    out.push(paint('bold', 'Selection modes (benchmark queries, replay 1)'));
    const modeTable = table(['mode', 'queries', 'top-1 useful', 'not useful'], [26, 10, 14, 12]);
    for (const m of modes)
      modeTable.push([m.mode, String(m.queries), String(m.useful), String(m.not_useful)]);
    out.push(modeTable.toString(), '');
  }

  const max = opts.maxFailing ?? 20;
  const failing = failingQueries(report);
  out.push(paint('bold', failingTitle(report, failing.length)));
  if (failing.length) {
    // no selection step: no mode column, its width goes to the expected ids
    const withMode = selectionApplies(report);
    const ft = withMode
      ? table(['query', 'mode', 'expected', 'actual'], [20, 10, 21, 26])
      : table(['query', 'expected', 'actual'], [20, 32, 26]);
    for (const { q, why } of failing.slice(0, max)) {
      const cells = [safe(q.query_id), safe(expectedText(q)), safe(actualText(q))];
      if (withMode) cells.splice(1, 0, shortMode(q));
      ft.push(cells);
      const detail = safe(failingDetail(q));
      // a quoted text that is cut keeps its closing quote
      const quoted = detail.startsWith('"');
      const line = fit(
        `  ${why}: ${quoted ? detail.slice(0, -1) : detail}`,
        TERMINAL_WIDTH - (quoted ? 5 : 4),
      );
      ft.push([{ colSpan: cells.length, content: paint('dim', quoted ? `${line}"` : line) }]);
    }
    out.push(ft.toString());
    if (failing.length > max) out.push(`  … and ${failing.length - max} more (see the JSON or HTML report)`);
  } else {
    out.push('  none');
  }
  out.push('');

  const unmet = unmetExpectations(report);
  if (unmet.length) {
    out.push(paint('bold', unmetTitle(unmet.length)));
    const ut = table(['probe', 'expected', 'answered'], [18, 29, 31]);
    for (const u of unmet.slice(0, max)) ut.push([safe(u.query_id), safe(u.expected), safe(u.answered)]);
    out.push(ut.toString());
    if (unmet.length > max) out.push(`  … and ${unmet.length - max} more (see the JSON or HTML report)`);
    out.push('');
  }
  const na = notApplicableRows(report);
  if (na.length) {
    out.push(paint('bold', 'Probes this system cannot take (not applicable, not counted)'));
    for (const n of na) {
      out.push(...wrap(safe(n.headline), TERMINAL_WIDTH, '    ', '  '));
      out.push(...wrap(safe(n.fix), TERMINAL_WIDTH, '    ', '  '));
      out.push(...wrap(safe(n.query_ids), TERMINAL_WIDTH, '    ', '    ').map((l) => paint('dim', l)));
    }
    out.push('');
  }

  const warned = warningView(report);
  if (warned.headline) {
    out.push(paint('bold', 'Warnings (stderr of answered requests)'));
    out.push(...wrap(safe(warned.headline), TERMINAL_WIDTH, '  ', '  '));
    for (const l of warned.lines) out.push(...wrap(safe(l), TERMINAL_WIDTH, '    ', '  '));
    if (warned.more) out.push(...wrap(safe(warned.more), TERMINAL_WIDTH, '    ', '  '));
    out.push('');
  }

  out.push(...errorSection(report, max, paint), '');
  const cv = violationSection(report, max, paint);
  if (cv.length) out.push(...cv, '');
  const peers = peerFigureViews(report);
  if (peers.length) out.push(paint('bold', 'Peer figures (not gated)'));
  for (const p of peers) {
    out.push(...wrap(terminalSafe(p.line), TERMINAL_WIDTH, '    ', '  '));
    out.push(...wrap(terminalSafe(`how: ${p.source}`), TERMINAL_WIDTH, '    ', '    '));
    out.push(...wrap(terminalSafe(`why they differ: ${p.why}`), TERMINAL_WIDTH, '    ', '    '));
  }
  if (peers.length) out.push('');

  const rp = replaySummary(report);
  out.push(paint('bold', 'Replay proof'));
  const tag = report.replay_proof.identical ? 'identical' : 'DIVERGENT';
  const [head = '', ...more] = wrap(`${tag}: ${rp.headline}`, TERMINAL_WIDTH, '  ');
  out.push(paint(report.replay_proof.identical ? 'green' : 'red', tag) + head.slice(tag.length), ...more);
  for (const d of rp.divergent) {
    out.push(
      ...wrap(
        `${safe(d.query_id)} first differs at ${safe(d.field)}: ${d.groups}`,
        TERMINAL_WIDTH,
        '    ',
        '  ',
      ),
    );
  }
  out.push('');

  const a = report.artifacts;
  out.push(paint('bold', 'Artifacts'));
  const at = table(['artifact', 'id', 'sha256'], [14, 43, 21]);
  at.push(['fixture', safe(`${a.artifact_id}@${a.version}`), '']);
  at.push(['corpus_id', safe(a.corpus_id), shortHash(a.corpus_sha256)]);
  at.push(['query_set_id', safe(a.query_set_id), shortHash(a.query_set_sha256)]);
  at.push(['config_id', safe(a.config_id), shortHash(a.config_sha256)]);
  out.push(at.toString());
  if (report.baseline) out.push(...wrap(`baseline: ${safe(report.baseline.source)}`, TERMINAL_WIDTH, '  '));
  // tables pad every cell: strip trailing blanks so snapshots and copy-paste stay clean
  return (
    out
      .map((l) => l.replace(/[ ]+$/, ''))
      .join('\n')
      .replace(/[ ]+\n/g, '\n') + '\n'
  );
}

/** Errors: failed requests by class, then each query that erred with its first error's text. */
function errorSection(
  report: Report,
  max: number,
  paint: (code: keyof typeof ANSI, s: string) => string,
): string[] {
  const v = errorView(report);
  const out = [paint('bold', 'Errors'), ...wrap(terminalSafe(v.headline), TERMINAL_WIDTH, '  ', '  ')];
  if (!v.classes.length) return out;
  const ct = table(['class', 'requests', 'queries', 'first'], [18, 9, 8, 41]);
  for (const c of v.classes) {
    ct.push([terminalSafe(c.kind), String(c.requests), String(c.queries), terminalSafe(fit(c.first, 120))]);
  }
  out.push(ct.toString());
  for (const q of v.queries.slice(0, max)) {
    const stable = q.deterministic ? 'same class every replay' : 'varies across replays';
    out.push(
      ...wrap(
        terminalSafe(`${q.query_id} [${q.kind}, ${q.replays} replays, ${stable}] ${fit(q.text, 300)}`),
        TERMINAL_WIDTH,
        '    ',
        '  ',
      ),
    );
  }
  if (v.queries.length > max)
    out.push(`  … and ${v.queries.length - max} more (see the JSON or HTML report)`);
  return out;
}

/** Contract violations of measured answers, by rule (nothing when every measured answer keeps its contract). */
function violationSection(
  report: Report,
  max: number,
  paint: (code: keyof typeof ANSI, s: string) => string,
): string[] {
  const v = violationView(report, max);
  if (!v) return [];
  const out = [
    paint('bold', 'Contract violations'),
    ...wrap(terminalSafe(v.headline), TERMINAL_WIDTH, '  ', '  '),
  ];
  // by path, each message under its path: paths and query ids are too long for table columns
  for (const r of v.rows) {
    if (r.first_of_path) out.push(...wrap(terminalSafe(r.path), TERMINAL_WIDTH, '    ', '  '));
    const counts = `${r.message}: ${r.requests} ${r.requests === 1 ? 'request' : 'requests'}, ${r.queries} ${r.queries === 1 ? 'query' : 'queries'} (e.g. ${r.examples})`;
    out.push(...wrap(terminalSafe(counts), TERMINAL_WIDTH, '      ', '    '));
  }
  if (v.more) out.push(`  ${v.more}`);
  return out;
}

function fit(s: string, width: number): string {
  return s.length > width ? s.slice(0, width - 1) + '…' : s;
}
