/**
 * Markdown for a CI step summary or a PR comment: verdict, metric table, checklist, selection modes,
 * failing queries (folded), replay proof, artifact ids. Every value from the run is escaped
 * (mdEscape / mdCode): a query text cannot inject HTML, links, table cells or @mentions.
 */
import { DETECTABLE_HEADING, detectableLines, HOLES_HEADING, holesLines } from './detectable.js';
import type { Report } from '../../src/documents/index.js';
import { mdCode, mdEscape } from '../escape.js';
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
  selectionModeRows,
  shortHash,
  displayGate,
  semanticWinText,
  rankedEntriesText,
  weightingText,
  unrankedRows,
  top1SplitText,
  unmetExpectations,
  unmetTitle,
  notApplicableRows,
} from './view.js';
import { errorView } from './view-errors.js';
import { fallbackReasonView, violationView, peerFigureViews, warningView } from './view-findings.js';

export interface MarkdownOptions {
  /** most failing queries listed (GitHub caps a step summary at 1 MiB) */
  maxFailing?: number;
}

const ICON = { PASS: '✅', WATCH: '⚠️', FAIL: '❌', NONE: 'ℹ️' } as const;

export function renderMarkdown(report: Report, opts: MarkdownOptions = {}): string {
  const max = opts.maxFailing ?? 50;
  const out = [
    ...markdownBanner(report),
    ...markdownMetrics(report),
    ...markdownChecklist(report),
    ...markdownSelectionModes(report),
    ...markdownFailing(report, max),
    ...markdownUnmet(report, max),
    ...markdownUnranked(report, max),
    ...markdownNotApplicable(report),
    ...markdownWarnings(report),
    ...markdownFallbackReasons(report),
    ...markdownErrors(report, max),
    ...markdownViolations(report, max),
    ...markdownPeers(report),
    ...markdownReplay(report),
    ...markdownArtifacts(report),
  ];
  return out.join('\n') + '\n';
}

/** The verdict, what ran, the run id and the gate's reasons. */
function markdownBanner(report: Report): string[] {
  const e = mdEscape;
  const g = displayGate(report);
  const banner = bannerTitle(report);
  const out = [
    `## ${ICON[g.verdict]} ${banner.status}: ${e(banner.title)}`,
    '',
    `Suite ${mdCode(report.suite)} · system ${mdCode(report.system.name)} (${e(report.system.kind)}, ${e(report.system.contract)})`,
    '',
    `Run ${mdCode(report.environment.run_id)}`,
    '',
  ];
  if (semanticWinText(report)) out.push(e(semanticWinText(report)), '');
  if (rankedEntriesText(report)) out.push(e(rankedEntriesText(report)), '');
  if (report.system.weighting) out.push(e(weightingText(report.system.weighting)), '');
  for (const r of g.reasons) out.push(`- ${e(r)}`);
  const w = report.warnings;
  if (w && w.warned > 0)
    out.push(`- ⚠️ warnings: ${w.warned}/${w.answered} answered requests wrote to stderr (see Warnings)`);
  out.push('');
  return out;
}

/** The metric table, what it leaves out, the judging rule and the top-1 split. */
function markdownMetrics(report: Report): string[] {
  const e = mdEscape;
  const out = [
    '| metric | num/den | rate | 95% interval | threshold | status |',
    '| --- | ---: | ---: | --- | --- | --- |',
  ];
  for (const row of metricRows(report)) {
    const status = row.status === 'info' ? '' : `**${statusWord(row.status)}**`;
    out.push(
      `| ${mdCode(row.label)} | ${e(row.counted)} | ${e(row.value)} | ${e(row.interval)} | ${e(row.threshold)} | ${status} |`,
    );
  }
  out.push('');
  const hidden = hiddenMetrics(report);
  if (hidden.length)
    out.push(`Not shown (they do not apply; all are in report.json): ${e(hiddenText(hidden))}`, '');
  if (report.judging?.top1_useful_rule) out.push(`Judging: ${e(report.judging.top1_useful_rule)}`, '');
  const split = top1SplitText(report);
  if (split) out.push(`Top-1 split: ${e(split)}`, '');
  const detectable = detectableLines(report);
  if (detectable.length) out.push(`### ${DETECTABLE_HEADING}`, '', ...detectable.map((l) => `- ${e(l)}`), '');
  const holes = holesLines(report);
  if (holes.length) out.push(`### ${HOLES_HEADING}`, '', ...holes.map((l) => `- ${e(l)}`), '');
  return out;
}

function markdownChecklist(report: Report): string[] {
  const g = displayGate(report);
  if (!g.checklist.length) return [];
  const out = ['### QA checklist', ''];
  for (const c of g.checklist)
    out.push(`- [${c.ok ? 'x' : ' '}] ${mdEscape(c.text)}: ${mdEscape(c.evidence)}`);
  out.push('');
  return out;
}

function markdownSelectionModes(report: Report): string[] {
  const modes = selectionModeRows(report);
  if (!modes.length) return [];
  const out = [
    '### Selection modes (benchmark queries, replay 1)',
    '',
    '| mode | queries | top-1 useful | not useful |',
    '| --- | ---: | ---: | ---: |',
  ];
  for (const m of modes) out.push(`| ${mdCode(m.mode)} | ${m.queries} | ${m.useful} | ${m.not_useful} |`);
  out.push('');
  return out;
}

/** The failing queries (folded; at most max), each with why, its text, mode, expected and actual. */
function markdownFailing(report: Report, max: number): string[] {
  const e = mdEscape;
  const failing = failingQueries(report);
  const out = [`<details><summary>${failingTitle(report, failing.length)}</summary>`, ''];
  if (failing.length) {
    const withMode = selectionModeRows(report).length > 0; // a selection step: its mode column
    out.push(
      `| query | why | text |${withMode ? ' mode |' : ''} expected | actual |`,
      `| --- | --- | --- |${withMode ? ' --- |' : ''} --- | --- |`,
    );
    for (const { q, why } of failing.slice(0, max)) {
      const mode = q.actual.ok ? (q.actual.selection_mode ?? '(none)') : 'error';
      // the system's reason beside the fallback it took, in the one cell a table row has for it
      const fellBack = fallbackReasonText(q);
      const actual = fellBack ? `${actualText(q)}; ${fellBack}` : actualText(q);
      out.push(
        `| ${mdCode(q.query_id)} | ${e(why)} | ${e(q.text)} |${withMode ? ` ${mdCode(mode)} |` : ''} ${e(expectedText(q))} | ${e(actual)} |`,
      );
    }
    if (failing.length > max)
      out.push('', `… and ${failing.length - max} more in the JSON and HTML reports.`);
  } else {
    out.push('None.');
  }
  out.push('', '</details>', '');
  return out;
}

function markdownUnmet(report: Report, max: number): string[] {
  const unmet = unmetExpectations(report);
  if (!unmet.length) return [];
  const out = [
    `<details><summary>${mdEscape(unmetTitle(unmet.length))}</summary>`,
    '',
    '| probe | expected | answered |',
    '| --- | --- | --- |',
  ];
  for (const u of unmet.slice(0, max))
    out.push(`| ${mdCode(u.query_id)} | ${mdEscape(u.expected)} | ${mdEscape(u.answered)} |`);
  if (unmet.length > max) out.push('', `… and ${unmet.length - max} more in the JSON and HTML reports.`);
  out.push('', '</details>', '');
  return out;
}

function markdownUnranked(report: Report, max: number): string[] {
  const unranked = unrankedRows(report);
  if (!unranked.length) return [];
  const out = [
    `<details><summary>Unranked entries (${unranked.length} queries, replay 1)</summary>`,
    '',
    '| query | unranked entries |',
    '| --- | --- |',
  ];
  for (const u of unranked.slice(0, max)) out.push(`| ${mdCode(u.query_id)} | ${mdEscape(u.unranked)} |`);
  if (unranked.length > max)
    out.push('', `… and ${unranked.length - max} more in the JSON and HTML reports.`);
  out.push('', '</details>', '');
  return out;
}

function markdownNotApplicable(report: Report): string[] {
  const na = notApplicableRows(report);
  if (!na.length) return [];
  const out = ['### Probes this system cannot take (not applicable, not counted)', ''];
  for (const n of na) out.push(`- ${mdEscape(n.headline)}; ${mdEscape(n.fix)} (${mdEscape(n.query_ids)})`);
  out.push('');
  return out;
}

/** Peer figures beside rgate's measure, then each one's source, why they differ and its per-query values. */
function markdownPeers(report: Report): string[] {
  const e = mdEscape;
  const peers = peerFigureViews(report);
  if (!peers.length) return [];
  const out = [
    '### Peer figures (not gated)',
    '',
    '| peer | figure | peer says | rgate measure | rgate says |',
    '| --- | --- | ---: | --- | ---: |',
  ];
  for (const p of peers)
    out.push(`| ${e(p.peer)} | ${mdCode(p.id)} | ${e(p.figure)} | ${mdCode(p.metric)} | ${e(p.ours)} |`);
  out.push('');
  for (const p of peers) {
    out.push(`- ${mdCode(p.id)}: ${e(p.source)}. Why they differ: ${e(p.why)}`);
    if (p.per_query.length === 0) continue;
    out.push('', '  | query | ' + mdCode(p.id) + ' |', '  | --- | ---: |');
    for (const q of p.per_query) out.push(`  | ${mdCode(q.query_id)} | ${q.value} |`);
  }
  out.push('');
  return out;
}

function markdownReplay(report: Report): string[] {
  const rp = replaySummary(report);
  const out = [
    '### Replay proof',
    '',
    `${rp.status === 'identical' ? 'Identical' : rp.status === 'divergent' ? '**Divergent**' : '**Not shown**'}: ${mdEscape(rp.headline)}`,
  ];
  if (rp.divergent.length) {
    out.push('');
    for (const d of rp.divergent)
      out.push(`- ${mdCode(d.query_id)} first differs at ${mdCode(d.field)}: ${mdEscape(d.groups)}`);
  }
  out.push('');
  return out;
}

function markdownArtifacts(report: Report): string[] {
  const a = report.artifacts;
  const out = ['### Artifacts', '', '| artifact | id | sha256 |', '| --- | --- | --- |'];
  out.push(`| fixture | ${mdCode(`${a.artifact_id}@${a.version}`)} | |`);
  out.push(`| corpus_id | ${mdCode(a.corpus_id)} | ${mdCode(shortHash(a.corpus_sha256))} |`);
  out.push(`| query_set_id | ${mdCode(a.query_set_id)} | ${mdCode(shortHash(a.query_set_sha256))} |`);
  out.push(`| config_id | ${mdCode(a.config_id)} | ${mdCode(shortHash(a.config_sha256))} |`);
  if (report.baseline) out.push('', `Baseline: ${mdCode(report.baseline.source)}`);
  return out;
}

/** Contract violations of measured answers, by rule (nothing when every measured answer keeps its contract). */
function markdownViolations(report: Report, max: number): string[] {
  const v = violationView(report, max);
  if (!v) return [];
  const out = ['### Contract violations', '', mdEscape(v.headline), ''];
  out.push(
    '| JSON path | message | requests | queries | example queries |',
    '| --- | --- | ---: | ---: | --- |',
  );
  for (const r of v.rows)
    out.push(
      `| ${r.first_of_path ? mdCode(r.path) : ''} | ${mdEscape(r.message)} | ${r.requests} | ${r.queries} | ${r.example_ids.map(mdCode).join(', ')}${r.examples_cut ? ' …' : ''} |`,
    );
  if (v.more) out.push('', mdEscape(v.more));
  out.push('');
  return out;
}

/** Warnings: each distinct stderr line of the answered requests, with its count; nothing when none. */
function markdownWarnings(report: Report): string[] {
  const v = warningView(report);
  if (!v.headline) return [];
  const out = ['### Warnings (stderr of answered requests)', '', mdEscape(v.headline), ''];
  for (const l of v.lines) out.push(`- ${mdEscape(l)}`);
  if (v.more) out.push(`- ${mdEscape(v.more)}`);
  out.push('');
  return out;
}

/** Fallback reasons: each distinct reason the system stated for a fallback, with its count; nothing when none. */
function markdownFallbackReasons(report: Report): string[] {
  const v = fallbackReasonView(report);
  if (!v.headline) return [];
  const out = ["### Fallback reasons (the system's own words)", '', mdEscape(v.headline), ''];
  for (const l of v.lines) out.push(`- ${mdEscape(l)}`);
  if (v.more) out.push(`- ${mdEscape(v.more)}`);
  out.push('');
  return out;
}

/** Errors: failed requests by class, then the queries that erred (folded), each with its first error. */
function markdownErrors(report: Report, max: number): string[] {
  const e = mdEscape;
  const v = errorView(report);
  const out = ['### Errors', '', e(v.headline), ''];
  if (!v.classes.length) return out;
  out.push('| class | requests | queries | first |', '| --- | ---: | ---: | --- |');
  for (const c of v.classes) out.push(`| ${mdCode(c.kind)} | ${c.requests} | ${c.queries} | ${e(c.first)} |`);
  out.push('', `<details><summary>Queries with errors (${v.queries.length})</summary>`, '');
  out.push('| query | class | replays | stable | first error |', '| --- | --- | ---: | --- | --- |');
  for (const q of v.queries.slice(0, max)) {
    out.push(`| ${mdCode(q.query_id)} | ${mdCode(q.kind)} | ${q.replays} | ${q.stable} | ${e(q.text)} |`);
  }
  if (v.queries.length > max)
    out.push('', `… and ${v.queries.length - max} more in the JSON and HTML reports.`);
  out.push('', '</details>', '');
  return out;
}
