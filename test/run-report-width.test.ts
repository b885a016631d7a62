/**
 * `rgate run`'s terminal report fits the width it is given (the CLI passes the terminal's, 80 when
 * piped) through reports/fitted-table.ts, as compare, history, diff and baseline show do: at 40, 80
 * and 120 columns no line is longer and no identifier (metric, query, mode, artifact or run id) is
 * split across lines. At 80 the tables keep the layout the snapshots in __snapshots__ record.
 */
import { describe, expect, it } from 'vitest';
import type { Report } from '../src/documents/index.js';
import { renderTerminal } from '../reports/run/terminal.js';
import { failingQueries, metricRows, selectionModeRows } from '../reports/run/view.js';
import { violationView } from '../reports/run/view-findings.js';
import { expectFitted } from './helpers/fitted.js';
import { sampleFindingsReport, sampleGateCReport, sampleReport } from './fixtures/sample-report.js';

const WIDTHS = [40, 80, 120] as const;
const LONG_METRIC = 'memory_cli_evaluate.top1_useful';
const LONG_QUERY = 'scifact/test/q-0000000000000000003';

/** The FAIL sample with a metric and a query id longer than the 80-column layout's columns. */
function longIdReport(): Report {
  const r = sampleReport('fail');
  const ndcg = r.metrics.find((m) => m.id === 'ndcg_cut.5')!;
  ndcg.id = LONG_METRIC;
  r.failing_queries[0]!.query_id = LONG_QUERY;
  return r;
}

/** What the report must show whole; an id longer than the line itself may be split (as elsewhere). */
function runIds(r: Report, width: number): string[] {
  const a = r.artifacts;
  return [
    r.environment.run_id,
    ...metricRows(r).map((m) => m.label),
    ...failingQueries(r)
      .slice(0, 20)
      .map((f) => f.q.query_id),
    ...selectionModeRows(r).map((m) => m.mode),
    `${a.artifact_id}@${a.version}`,
    a.corpus_id,
    a.query_set_id,
    a.config_id,
    ...(violationView(r, 20)?.rows.map((v) => v.path) ?? []),
  ].filter((id) => [...id].length <= width);
}

const REPORTS: Record<string, () => Report> = {
  pass: () => sampleReport('pass'),
  watch: () => sampleReport('watch'),
  fail: () => sampleReport('fail'),
  'Gate C with a baseline': () => sampleGateCReport(),
  'findings (violations, warnings, peer figures)': () => sampleFindingsReport(),
  'a metric and a query id wider than their 80-column columns': longIdReport,
};

describe("the run's terminal report at 40, 80 and 120 columns", () => {
  for (const [name, make] of Object.entries(REPORTS)) {
    it(name, () => {
      const r = make();
      for (const width of WIDTHS) {
        for (const color of [false, true]) {
          expectFitted(renderTerminal(r, { width, color }), width, runIds(r, width));
        }
      }
      // no width is a pipe's 80 columns
      expect(renderTerminal(r, { width: 80 })).toBe(renderTerminal(r));
    });
  }

  it('at 80 columns an id wider than its column widens the table instead of being split', () => {
    const text = renderTerminal(longIdReport(), { width: 80 });
    expect(text).toMatch(/^memory_cli_evaluate\.top1_useful +n=50 +0\.9076 /m);
    expect(text).toMatch(/^scifact\/test\/q-0000000000000000003 +fb:path +rec-003 +rec-003$/m);
    expect(text).toMatch(/^metric +num\/den +rate +95% interval +threshold +status$/m);
  });

  it('at 40 columns a row that cannot fit becomes a block under its id', () => {
    const text = renderTerminal(sampleReport('fail'), { width: 40 });
    expect(text).toMatch(/^top1_useful_rate\n {2}num\/den 38\/50 · rate 76\.0%\n/m);
    expect(text).toMatch(
      /^q-044\n {2}mode semantic · expected rec-044\n {2}actual rec-144\n {2}top-1 not useful: "/m,
    );
    expect(text.split('\n')[0]).toBe('='.repeat(40));
  });

  it('at 120 columns the free-text cells and the prose use the room', () => {
    const text = renderTerminal(sampleReport('fail'), { width: 120 });
    expect(text).toMatch(/^q-050 +error +rec-050 +error: timeout after 5000 ms$/m);
    expect(text).toContain(
      '- FAIL checklist selection_fields_on_every_response: 285/290 responses carry all three fields',
    );
    expect(text.split('\n')[0]).toBe('='.repeat(120));
  });
});
