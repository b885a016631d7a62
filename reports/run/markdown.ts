/**
 * Markdown for a CI step summary or a PR comment: verdict, metric table, checklist, selection modes,
 * failing queries (folded), replay proof, artifact ids. Every value from the run is escaped
 * (mdEscape / mdCode): a query text cannot inject HTML, links, table cells or @mentions.
 */
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
  replaySummary,
  selectionModeRows,
  shortHash,
  displayGate,
  errorView,
  semanticWinText,
  rankedEntriesText,
  weightingText,
  unrankedRows,
  top1SplitText,
  unmetExpectations,
  unmetTitle,
  notApplicableRows,
} from './view.js';
import { fallbackReasonView, violationView, peerFigureViews, warningView } from './view-findings.js';

export interface MarkdownOptions {
  /** most failing queries listed (GitHub caps a step summary at 1 MiB) */
  maxFailing?: number;
}

const ICON = { PASS: '✅', WATCH: '⚠️', FAIL: '❌', NONE: 'ℹ️' } as const;

export function renderMarkdown(report: Report, opts: MarkdownOptions = {}): string {
  const e = mdEscape;
  const g = displayGate(report);
  const out: string[] = [];
  const banner = bannerTitle(report);
  out.push(`## ${ICON[g.verdict]} ${banner.status}: ${e(banner.title)}`, '');
  out.push(
    `Suite ${mdCode(report.suite)} · system ${mdCode(report.system.name)} (${e(report.system.kind)}, ${e(report.system.contract)})`,
    '',
    `Run ${mdCode(report.environment.run_id)}`,
    '',
  );
  if (semanticWinText(report)) out.push(e(semanticWinText(report)), '');
  if (rankedEntriesText(report)) out.push(e(rankedEntriesText(report)), '');
  if (report.system.weighting) out.push(e(weightingText(report.system.weighting)), '');
  for (const r of g.reasons) out.push(`- ${e(r)}`);
  const w = report.warnings;
  if (w && w.warned > 0)
    out.push(`- ⚠️ warnings: ${w.warned}/${w.answered} answered requests wrote to stderr (see Warnings)`);
  out.push('');

  out.push(
    '| metric | num/den | rate | 95% interval | threshold | status |',
    '| --- | ---: | ---: | --- | --- | --- |',
  );
  for (const row of metricRows(report)) {
    const status = row.status === 'info' ? '' : `**${row.status.toUpperCase()}**`;
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

  if (g.checklist.length) {
    out.push('### QA checklist', '');
    for (const c of g.checklist) out.push(`- [${c.ok ? 'x' : ' '}] ${e(c.text)}: ${e(c.evidence)}`);
    out.push('');
  }

  const modes = selectionModeRows(report);
  if (modes.length) {
    out.push('### Selection modes (benchmark queries, replay 1)', '');
    out.push('| mode | queries | top-1 useful | not useful |', '| --- | ---: | ---: | ---: |');
    for (const m of modes) out.push(`| ${mdCode(m.mode)} | ${m.queries} | ${m.useful} | ${m.not_useful} |`);
    out.push('');
  }

  const failing = failingQueries(report);
  const max = opts.maxFailing ?? 50;
  out.push(`<details><summary>${failingTitle(report, failing.length)}</summary>`, '');
  if (failing.length) {
    const withMode = modes.length > 0; // a selection step: its mode column
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

  const unmet = unmetExpectations(report);
  if (unmet.length) {
    out.push(`<details><summary>${e(unmetTitle(unmet.length))}</summary>`, '');
    out.push('| probe | expected | answered |', '| --- | --- | --- |');
    for (const u of unmet.slice(0, max))
      out.push(`| ${mdCode(u.query_id)} | ${e(u.expected)} | ${e(u.answered)} |`);
    if (unmet.length > max) out.push('', `… and ${unmet.length - max} more in the JSON and HTML reports.`);
    out.push('', '</details>', '');
  }
  const unranked = unrankedRows(report);
  if (unranked.length) {
    out.push(`<details><summary>Unranked entries (${unranked.length} queries, replay 1)</summary>`, '');
    out.push('| query | unranked entries |', '| --- | --- |');
    for (const u of unranked.slice(0, max)) out.push(`| ${mdCode(u.query_id)} | ${e(u.unranked)} |`);
    if (unranked.length > max)
      out.push('', `… and ${unranked.length - max} more in the JSON and HTML reports.`);
    out.push('', '</details>', '');
  }
  const na = notApplicableRows(report);
  if (na.length) {
    out.push('### Probes this system cannot take (not applicable, not counted)', '');
    for (const n of na) out.push(`- ${e(n.headline)}; ${e(n.fix)} (${e(n.query_ids)})`);
    out.push('');
  }

  out.push(...markdownWarnings(report));
  out.push(...markdownFallbackReasons(report));
  out.push(...markdownErrors(report, max));
  out.push(...markdownViolations(report, max));
  const peers = peerFigureViews(report);
  if (peers.length) {
    out.push('### Peer figures (not gated)', '');
    out.push(
      '| peer | figure | peer says | rgate measure | rgate says |',
      '| --- | --- | ---: | --- | ---: |',
    );
    for (const p of peers)
      out.push(`| ${e(p.peer)} | ${mdCode(p.id)} | ${e(p.figure)} | ${mdCode(p.metric)} | ${e(p.ours)} |`);
    out.push('');
  }
  for (const p of peers) {
    out.push(`- ${mdCode(p.id)}: ${e(p.source)}. Why they differ: ${e(p.why)}`);
    if (p.per_query.length === 0) continue;
    out.push('', '  | query | ' + mdCode(p.id) + ' |', '  | --- | ---: |');
    for (const q of p.per_query) out.push(`  | ${mdCode(q.query_id)} | ${q.value} |`);
  }
  if (peers.length) out.push('');

  const rp = replaySummary(report);
  out.push(
    '### Replay proof',
    '',
    `${rp.status === 'identical' ? 'Identical' : rp.status === 'divergent' ? '**Divergent**' : '**Not shown**'}: ${e(rp.headline)}`,
  );
  if (rp.divergent.length) {
    out.push('');
    for (const d of rp.divergent)
      out.push(`- ${mdCode(d.query_id)} first differs at ${mdCode(d.field)}: ${e(d.groups)}`);
  }
  out.push('');

  const a = report.artifacts;
  out.push('### Artifacts', '', '| artifact | id | sha256 |', '| --- | --- | --- |');
  out.push(`| fixture | ${mdCode(`${a.artifact_id}@${a.version}`)} | |`);
  out.push(`| corpus_id | ${mdCode(a.corpus_id)} | ${mdCode(shortHash(a.corpus_sha256))} |`);
  out.push(`| query_set_id | ${mdCode(a.query_set_id)} | ${mdCode(shortHash(a.query_set_sha256))} |`);
  out.push(`| config_id | ${mdCode(a.config_id)} | ${mdCode(shortHash(a.config_sha256))} |`);
  if (report.baseline) out.push('', `Baseline: ${mdCode(report.baseline.source)}`);
  return out.join('\n') + '\n';
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
