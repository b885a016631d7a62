/**
 * The real cortex-coach `context-load` outputs (fixtures/cortex-coach) replayed through the real
 * command adapter against the committed set fixtures/cortex-phase2 (the cortex repository's nine
 * frozen Phase 2 queries, the 35 files the outputs name): test/sut/cortex-coach-replay.mjs prints
 * the recorded answer for the task text, as the tool did. The tool breaks the letter of seed 000 on
 * every answer; the run is measured all the same: no request error, no "system down", the
 * violations listed and counted by contract_validity, the task: entries ranked.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { planRun } from '../harness/run-plan.js';
import { runSuite, type RunOutcome } from '../harness/run-suite.js';
import type { Report, SuiteSpec } from '../src/documents/index.js';
import { MemoryRunStore } from '../src/store/memory-store.js';
import { renderMarkdown } from '../reports/run/markdown.js';
import { renderTerminal } from '../reports/run/terminal.js';
import { renderHtml } from '../reports/run/html.js';
import { renderJson } from '../reports/run/json.js';
import { renderJunit } from '../reports/run/junit.js';
import { mdEscape } from '../reports/escape.js';

const ROOT = resolve(import.meta.dirname, '..');
const SUT = resolve(import.meta.dirname, 'sut', 'cortex-coach-replay.mjs');
const RESPONSES = resolve(ROOT, 'fixtures', 'cortex-coach', 'responses');

function spec(rankedEntries?: string): SuiteSpec {
  return {
    fixture: 'cortex-phase2',
    system: {
      type: 'command',
      argv: [
        SUT,
        'context-load',
        '--project-dir',
        '{corpus_dir}',
        '--task',
        '{query}',
        '--retrieval-profile',
        '{profile}',
        '--weighting-mode',
        'evidence_outcome_bias',
        '--max-files',
        '16',
        '--max-chars-per-file',
        '160',
      ],
      contract: 'context-load-v0',
      timeout_ms: 20_000,
      ...(rankedEntries ? { ranked_entries: rankedEntries } : {}),
    },
    replays: 2,
  };
}

const rate = (r: Report, id: string): string => {
  const v = r.metrics.find((m) => m.id === id)!.value;
  return v.kind === 'rate' ? `${v.numerator}/${v.denominator}` : v.kind;
};

interface Recorded {
  files: { path: string; selected_by: string; combined_score: number }[];
}
const recorded = (queryId: string): Recorded =>
  JSON.parse(readFileSync(resolve(RESPONSES, `${queryId}.evidence_outcome_bias.json`), 'utf8')) as Recorded;

/**
 * trec_eval's ndcg_cut.5 on the recorded answers, computed here from the set's v2 qrels
 * (fixtures/cortex-phase2/JUDGING.md) without rgate's code: the task: entries by combined_score,
 * ties by docno descending as trec_eval sorts them, linear gain, log2 discount, the ideal from every
 * judged document of the query, the mean over the nine queries (a query with no useful file is 0).
 */
function expectedNdcg5(): number {
  const queries = readFileSync(resolve(ROOT, 'fixtures', 'cortex-phase2', 'queries.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { query_id: string; qrels: Record<string, number> });
  const dcg = (gains: number[]) => gains.slice(0, 5).reduce((s, g, i) => s + g / Math.log2(i + 2), 0);
  let sum = 0;
  for (const q of queries) {
    const ranked = recorded(q.query_id)
      .files.filter((f) => f.selected_by.startsWith('task:'))
      .sort(
        (a, b) => b.combined_score - a.combined_score || (a.path < b.path ? 1 : a.path > b.path ? -1 : 0),
      );
    const ideal = dcg(Object.values(q.qrels).sort((a, b) => b - a));
    sum += ideal ? dcg(ranked.map((f) => q.qrels[f.path] ?? 0)) / ideal : 0;
  }
  return sum / queries.length;
}

let auto: RunOutcome;
let all: RunOutcome;
beforeAll(async () => {
  const run = (name: string, s: SuiteSpec) =>
    runSuite({
      name,
      spec: s,
      root: ROOT,
      store: new MemoryRunStore(),
      runId: `cortex-${name}`,
      startedAt: '2026-11-26T00:00:00Z',
    });
  auto = await run('auto', spec());
  all = await run('all', spec('all'));
}, 120_000);

describe('cortex-coach context-load through rgate, on the recorded outputs', () => {
  it('is measured, not down: every answer is an observation with its violations listed', () => {
    expect(auto.system_down).toBeUndefined();
    expect(auto.observations).toHaveLength(18);
    for (const o of auto.observations) {
      const files = recorded(o.query_id).files;
      expect(o.ok, o.query_id).toBe(true);
      expect(o.contract.valid).toBe(false);
      expect(o.contract.errors).toHaveLength(2 + files.length);
      expect(o.contract.errors).toContain('/ranking_contract_version: is required');
    }
    expect(rate(auto.report, 'contract_validity')).toBe('0/18');
    expect(rate(auto.report, 'error_rate')).toBe('0/18');
    expect(rate(auto.report, 'replay_determinism')).toBe('9/9');
    // the report lists them by rule: 3 rules, each broken by every request
    const v = auto.report.contract_violations!;
    expect(v).toMatchObject({ contract: 'context-load-v0', measured: 18, violating: 18 });
    expect(v.rules.map((r) => [r.rule, r.requests, r.queries])).toEqual([
      ['/files/*/score_breakdown/combined_score: is required', 18, 9],
      ['/ranking_contract_version: is required', 18, 9],
      ['/selected_count: is required', 18, 9],
    ]);
    const text = renderTerminal(auto.report, {});
    expect(text).toContain('Contract violations');
    expect(text).toContain('18 of 18 measured requests break context-load-v0; measured all the same');
    expect(text).not.toContain('system under test down');
    // by path, each message under it with its counts and example queries
    expect(text).toContain('\n  /selected_count\n    is required: 18 requests, 9 queries (e.g. q_');
    // each rule names up to 5 of its queries, query set order
    const five = auto.report.queries.slice(0, 5).map((q) => q.query_id);
    for (const r of v.rules) expect(r.examples).toEqual(five);
    expect(renderMarkdown(auto.report)).toContain(
      `| \`/selected_count\` | is required | 18 | 9 | ${five.map((id) => `\`${id}\``).join(', ')} … |`,
    );
    // the HTML report: invalid over measured, each path once with its message, counts and examples
    const html = renderHtml(auto.report, {});
    expect(html).toContain('<h2 id="contract-violations">');
    expect(html).toContain('Invalid responses: <strong>18/18 (100.0%)</strong>');
    expect(html).toMatch(
      /<th scope="rowgroup" rowspan="1" class="path"><code>\/files\/\*\/score_breakdown\/combined_score<\/code><\/th><td>is required<\/td><td class="num">18<\/td><td class="num">9<\/td>/,
    );
  });

  it("shows the cortex Phase 2 harness's own figure beside ndcg_cut.5, with why they differ", () => {
    // 0.495506: the harness's median nDCG@5 on these answers (src/metrics/peer/cortex-phase2.test.ts
    // pins every per-query value from the harness's own functions); it judges by rule, so the v2
    // judgments leave it as it was, and ndcg_cut.5 is measured beside it
    const [p] = auto.report.peer_figures!;
    const ndcg = expectedNdcg5();
    expect(ndcg.toFixed(6)).toBe('0.457461');
    expect(p).toMatchObject({
      id: 'cortex_phase2.median_ndcg_5',
      value: 0.495506,
      beside: { metric: 'ndcg_cut.5' },
    });
    expect(p!.beside.value).toBeCloseTo(ndcg, 12);
    expect(renderTerminal(auto.report, {}).replace(/\s+/g, ' ')).toContain(
      "cortex_phase2.median_ndcg_5 = 0.495506; rgate's ndcg_cut.5 = 0.457461.",
    );
    expect(p!.per_query).toHaveLength(9);
    expect(p!.why).toContain('ideal from the returned list');
    expect(renderTerminal(auto.report, {})).toContain('cortex_phase2.median_ndcg_5 = 0.495506');
    expect(renderMarkdown(auto.report)).toContain('| `q_small_recent_gate_failure` | 0.63093 |');
    expect(p!.peer).toBe('cortex Phase 2 harness');
    const html = renderHtml(auto.report, {});
    expect(html).toContain('<h2 id="peer-figures">');
    expect(html).toMatch(
      /<td>cortex Phase 2 harness<\/td><td><code>cortex_phase2\.median_ndcg_5<\/code><\/td><td class="num">0\.495506<\/td><td><code>ndcg_cut\.5<\/code><\/td><td class="num">0\.457461/,
    );
    expect(html).toContain('<li>q_small_recent_gate_failure: 0.63093</li>');
  });

  it('ranks the task: entries by default and reports the control-plane ones apart; `all` ranks every entry', () => {
    for (const o of auto.observations.filter((x) => x.replay === 1)) {
      const files = recorded(o.query_id).files;
      const task = files.filter((f) => f.selected_by.startsWith('task:')).map((f) => f.path);
      expect(o.ranked.map((r) => r.id)).toEqual(task);
      expect(o.unranked?.map((u) => u.id)).toEqual(
        files.filter((f) => !f.selected_by.startsWith('task:')).map((f) => f.path),
      );
      // every id the tool answered is a corpus record: paths with their extension on both sides
      const alt = all.observations.find((x) => x.query_id === o.query_id && x.replay === 1)!;
      expect(alt.ranked.map((r) => r.id)).toEqual(files.map((f) => f.path));
    }
    const q = auto.report.queries.find((x) => x.query_id === 'q_small_recent_gate_failure')!;
    expect(q.actual.top_ids[0]).toBe(
      recorded('q_small_recent_gate_failure').files.find((f) => f.selected_by.startsWith('task:'))!.path,
    );
  });

  it('names the ranked entries in the report, and hashes a non-default setting into the config id', () => {
    const frozen = JSON.parse(
      readFileSync(resolve(ROOT, 'fixtures', 'cortex-phase2', 'freeze.json'), 'utf8'),
    ) as {
      config_id: string;
      config_sha256: string;
    };
    // no setting: the frozen config id as stored before the setting was hashed (baselines stay valid)
    expect(auto.report.artifacts.config_id).toBe(frozen.config_id);
    expect(auto.report.artifacts.config_sha256).toBe(frozen.config_sha256);
    expect(auto.report.system.ranked_entries).toBe('auto');
    // `all` ranks other entries: another effective config, another id
    expect(all.report.system.ranked_entries).toBe('all');
    const id = all.report.artifacts.config_id;
    expect(id.startsWith(`${frozen.config_id}+overrides-`)).toBe(true);
    expect(id.slice(frozen.config_id.length)).toMatch(/^\+overrides-[0-9a-f]{12}$/);
    const plan = (s: SuiteSpec) => planRun({ name: 'p', spec: s, root: ROOT, store: new MemoryRunStore() });
    // stating the default changes nothing; each other setting has its own id
    expect(plan(spec('auto')).artifacts).toEqual(plan(spec()).artifacts);
    const ids = ['all', 'rank', 'selected_by:task:', 'selected_by:control'].map(
      (r) => plan(spec(r)).artifacts.config_id,
    );
    expect(new Set([frozen.config_id, ...ids]).size).toBe(5);
    expect(ids[0]).toBe(all.report.artifacts.config_id);

    for (const text of [
      renderTerminal(all.report, {}),
      renderMarkdown(all.report),
      renderHtml(all.report, {}),
    ])
      expect(text.replace(/\s+/g, ' ')).toContain('ranked entries: all (every entry)');
    // `all` leaves nothing out: no "others", no unranked entries anywhere
    expect(renderTerminal(all.report, {})).not.toContain('unranked');
    expect(renderMarkdown(all.report)).not.toContain('unranked');
    expect(all.report.queries.every((q) => q.actual.unranked_ids === undefined)).toBe(true);
    expect(renderHtml(auto.report, {})).toContain(
      '<p class="meta" id="ranked-entries">ranked entries: auto (default: the task: entries when the answer has any, else all; the others are listed as unranked, per query)</p>',
    );
  });

  it('lists the unranked entries per query: report.json, Markdown and HTML by id (capped), the terminal by count', () => {
    let total = 0;
    for (const q of auto.report.queries) {
      const files = recorded(q.query_id).files;
      const control = files.filter((f) => !f.selected_by.startsWith('task:')).map((f) => f.path);
      expect(q.actual.unranked_ids ?? [], q.query_id).toEqual(control);
      total += control.length;
    }
    expect(total).toBeGreaterThan(0);
    const withAny = auto.report.queries.filter((q) => q.actual.unranked_ids?.length);
    // the JSON report keeps the field through its schema check
    const json = JSON.parse(renderJson(auto.report)) as typeof auto.report;
    expect(json.queries.map((q) => q.actual.unranked_ids)).toEqual(
      auto.report.queries.map((q) => q.actual.unranked_ids),
    );
    expect(renderTerminal(auto.report, {}).replace(/\s+/g, ' ')).toContain(
      `unranked entries: ${total} in ${withAny.length} of ${auto.report.queries.length} queries (replay 1;`,
    );
    const md = renderMarkdown(auto.report);
    expect(md).toContain(
      `<details><summary>Unranked entries (${withAny.length} queries, replay 1)</summary>`,
    );
    const html = renderHtml(auto.report, {});
    expect(html).toContain('<th>unranked</th>');
    for (const q of withAny) {
      const ids = q.actual.unranked_ids!;
      const shown = ids.slice(0, 5).join(', ');
      const more = ids.length > 5 ? ` and ${ids.length - 5} more` : '';
      const cell = `${ids.length}: ${shown}${more}`;
      expect(md).toContain(`| \`${q.query_id}\` | ${mdEscape(cell)} |`);
      expect(html).toContain(`<td class="mono">${cell}</td>`);
    }
    expect(renderHtml(all.report, {})).not.toContain('<th>unranked</th>');
    expect(renderJunit(auto.report)).toContain(`unranked entries: ${total} in ${withAny.length} of`);
    expect(renderJunit(all.report)).not.toContain('unranked');
  });
});
