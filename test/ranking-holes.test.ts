import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSuite, type RunOutcome } from '../harness/run-suite.js';
import { withVerdictHoles } from '../harness/verdict-holes.js';
import { buildLabelQueue } from '../history/label-queue.js';
import { renderJson, renderJunit, renderMarkdown, renderTerminal } from '../reports/index.js';
import { rankingHoleFills } from '../src/metrics/index.js';
import type {
  GateResult,
  Observation,
  QueryRecord,
  Report,
  RuleResult,
  SuiteSpec,
} from '../src/documents/index.js';
import { MemoryRunStore } from '../src/store/memory-store.js';
import { writeFreeze } from '../src/snapshot/index.js';

/**
 * A ranking measure rule's judgment holes (issue 37): the unjudged documents within the measure's
 * depth graded 0 or the set's top grade, checked against P@k, nDCG@k and recall@k written out here
 * the long way (trec_eval's formulas, its order of score then docno descending) on a real run of the
 * bundled Lumen set with every second qrels line of each query taken out (the set as shipped has no
 * hole in BM25's top 10); then the verdict's pairs in the report, every format and the label queue.
 */
const REPO = resolve(import.meta.dirname, '..');
const LEVEL = 1;
const dir = mkdtempSync(join(tmpdir(), 'rgate-ranking-holes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The Lumen set with every second judged document of each query (by id) unjudged, frozen anew. */
function holedFixture(): void {
  const src = join(REPO, 'fixtures', 'context-load');
  const to = join(dir, 'fixtures', 'lumen');
  mkdirSync(to, { recursive: true });
  for (const f of ['corpus.jsonl', 'config.json']) copyFileSync(join(src, f), join(to, f));
  const lines = readFileSync(join(src, 'queries.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const q = JSON.parse(l) as { qrels?: Record<string, number>; judged_by?: Record<string, unknown> };
      if (!q.qrels) return l;
      Object.keys(q.qrels)
        .sort()
        .forEach((d, i) => {
          if (i % 2 === 0) return;
          delete q.qrels![d];
          if (q.judged_by) delete q.judged_by[d];
        });
      return JSON.stringify(q);
    });
  writeFileSync(join(to, 'queries.jsonl'), lines.join('\n') + '\n');
  writeFreeze(to, { frozenOn: '2026-11-28' });
}

function spec(gate: string | null): SuiteSpec {
  return {
    fixture: 'lumen',
    system: { type: 'builtin', mode: 'bm25' },
    config: { mode: 'bm25' },
    gate,
    replays: 1,
    relevance_level: LEVEL,
    ranking_measures: ['P.5', 'ndcg_cut.10', 'recall.10'],
  };
}

async function run(gate: string | null, id: string): Promise<RunOutcome> {
  return runSuite({
    name: 'lumen',
    spec: spec(gate),
    root: dir,
    store: new MemoryRunStore(),
    runId: id,
    startedAt: '2026-11-28T00:00:00Z',
  });
}

/** trec_eval's order of one answer: score descending, then docno bytes descending. */
function ordered(o: Observation): string[] {
  return [...o.ranked]
    .filter((r, i, all) => all.findIndex((x) => x.id === r.id) === i)
    .sort((a, b) => b.score - a.score || Buffer.compare(Buffer.from(b.id), Buffer.from(a.id)))
    .map((r) => r.id);
}

const measures: Record<
  string,
  { k: number; f: (ranked: string[], qrels: Record<string, number>) => number }
> = {
  'P.5': { k: 5, f: (r, q) => r.slice(0, 5).filter((d) => (q[d] ?? 0) >= LEVEL).length / 5 },
  'recall.10': {
    k: 10,
    f: (r, q) => {
      const rel = Object.values(q).filter((g) => g >= LEVEL).length;
      return rel ? r.slice(0, 10).filter((d) => (q[d] ?? 0) >= LEVEL).length / rel : 0;
    },
  },
  'ndcg_cut.10': {
    k: 10,
    f: (r, q) => {
      const dcg = r.slice(0, 10).reduce((s, d, i) => s + Math.max(0, q[d] ?? 0) / Math.log2(i + 2), 0);
      const ideal = Object.values(q)
        .filter((g) => g > 0)
        .sort((a, b) => b - a)
        .slice(0, 10)
        .reduce((s, g, i) => s + g / Math.log2(i + 2), 0);
      return ideal ? dcg / ideal : 0;
    },
  },
};

/** The measure's mean over the queries with qrels, each unjudged document in its top k graded `grade`. */
function bruteForce(o: RunOutcome, metric: string, grade: number): { mean: number; holes: number } {
  const { k, f } = measures[metric]!;
  const first = new Map(o.observations.filter((x) => x.replay === 1).map((x) => [x.query_id, x]));
  let sum = 0;
  let n = 0;
  let holes = 0;
  for (const q of o.suite.queries as readonly QueryRecord[]) {
    if (!q.qrels || Object.keys(q.qrels).length === 0) continue;
    n++;
    const obs = first.get(q.query_id);
    if (!obs?.ok) continue;
    const ranked = ordered(obs);
    const qrels = { ...q.qrels };
    for (const d of ranked.slice(0, k))
      if (!(d in q.qrels)) {
        qrels[d] = grade;
        holes++;
      }
    sum += f(ranked, qrels);
  }
  return { mean: sum / n, holes };
}

let base: RunOutcome;
beforeAll(async () => {
  holedFixture();
  base = await run(null, 'holes-base');
}, 60_000);

/** The base run's holes of `metrics`, each graded 0 and the top grade. */
function fillsOf(metrics: string[]) {
  return rankingHoleFills(
    {
      queries: base.suite.queries,
      corpus: base.suite.corpus,
      observations: base.observations,
      replays: 1,
      relevanceLevel: LEVEL,
      seed: 42,
      rankingMeasures: [],
    },
    metrics,
  );
}

describe('ranking measure holes', () => {
  it('scores each measure again with its holes graded 0 and 3, as the long way does', () => {
    const fills = fillsOf(Object.keys(measures));
    expect(fills.map((f) => f.metric)).toEqual(['P.5', 'ndcg_cut.10', 'recall.10']);
    for (const f of fills) {
      const low = bruteForce(base, f.metric, 0);
      const high = bruteForce(base, f.metric, 3);
      expect(f.top_grade).toBe(3);
      expect(f.depth).toBe(measures[f.metric]!.k);
      expect(f.pairs.length, f.metric).toBe(low.holes);
      expect(low.holes).toBeGreaterThan(0);
      expect(f.low!, f.metric).toBeCloseTo(low.mean, 12);
      expect(f.high!, f.metric).toBeCloseTo(high.mean, 12);
      expect(f.high!).toBeGreaterThan(f.low!);
      // graded 0, a hole scores as the run scored it (unjudged is not relevant)
      const observed = base.report.metrics.find((m) => m.id === f.metric)!.value;
      expect(observed.kind === 'mean' && observed.mean).toBeCloseTo(f.low!, 12);
    }
  });

  it('a rule whose threshold lies in its range can flip the verdict; one outside cannot', () => {
    const fills = fillsOf(['P.5', 'recall.10']);
    const [p5, recall] = fills;
    const rule = (metric: string, threshold: number, observed: number): RuleResult => ({
      metric,
      op: 'min',
      threshold,
      observed,
      n: 90,
      status: observed >= threshold ? 'pass' : 'fail',
      reason: '',
    });
    const gate = (rules: RuleResult[]): GateResult => ({
      gate_id: 'g',
      gate_version: '1',
      verdict: rules.some((r) => r.status === 'fail') ? 'FAIL' : 'PASS',
      rules,
      reasons: [],
      checklist: [],
    });
    const mid = (p5!.low! + p5!.high!) / 2;
    const flips = withVerdictHoles(
      gate([rule('P.5', mid, p5!.low!)]),
      base.report.queries,
      false,
      [],
      () => undefined,
      fills,
    );
    expect(flips.rules[0]!.holes).toMatchObject({ can_flip: true, unjudged: p5!.pairs.length, depth: 5 });
    expect(flips.verdict_pairs).toEqual(p5!.pairs);
    // recall.10 cannot move past a threshold above its range: the FAIL stays, whatever P.5 could do
    const stuck = withVerdictHoles(
      gate([rule('P.5', mid, p5!.low!), rule('recall.10', recall!.high! + 0.01, recall!.low!)]),
      base.report.queries,
      false,
      [],
      () => undefined,
      fills,
    );
    expect(stuck.rules[1]!.holes?.can_flip).toBe(false);
    expect(stuck.verdict_pairs).toEqual([]);
  });

  it('the report says how many pairs can change its verdict, in every format, and the queue puts them first', async () => {
    const low = bruteForce(base, 'ndcg_cut.10', 0).mean;
    const high = bruteForce(base, 'ndcg_cut.10', 3).mean;
    const gateFile = join(dir, 'ndcg.gate.json');
    writeFileSync(
      gateFile,
      JSON.stringify({
        gate_id: 'ndcg-holes',
        version: '1',
        description: 'nDCG@10 between the two fillings',
        source: 'test',
        min_queries: 1,
        rules: [{ metric: 'ndcg_cut.10', min: (low + high) / 2, description: 'nDCG@10' }],
      }),
    );
    const r: Report = (await run(gateFile, 'holes-gated')).report;
    const rule = r.gate.rules.find((x) => x.metric === 'ndcg_cut.10')!;
    expect(r.gate.verdict).toBe('FAIL');
    expect(rule.holes).toMatchObject({ can_flip: true, depth: 10, top_grade: 3 });
    expect(rule.holes!.low).toBeCloseTo(low, 12);
    expect(rule.holes!.high).toBeCloseTo(high, 12);
    const n = r.gate.verdict_pairs!.length;
    expect(n).toBe(bruteForce(base, 'ndcg_cut.10', 0).holes);
    const line = `${n} pairs can change this verdict`;
    for (const text of [renderTerminal(r, { width: 200 }), renderMarkdown(r), renderJunit(r)])
      expect(text.replace(/\s+/g, ' ')).toContain(line);
    expect(JSON.parse(renderJson(r)).gate.verdict_pairs).toHaveLength(n);
    expect(renderMarkdown(r).replace(/\\_/g, '_')).toMatch(
      /ndcg_cut\.10: \d+ unjudged documents in the top 10; [\d.]+ if all were graded 0, [\d.]+ if all were graded 3: its status can change/,
    );
    const queue = buildLabelQueue(
      {
        origin: { kind: 'run', id: 'holes-gated', suite: 'lumen' },
        artifacts: r.artifacts,
        depth: Number.POSITIVE_INFINITY,
        sources: [],
      },
      base.suite,
      10,
      true,
      { run_id: 'holes-gated', pairs: r.gate.verdict_pairs! },
    );
    expect(queue.verdict?.pairs).toBe(n);
    expect(queue.items.slice(0, n).map((i) => ({ query_id: i.query_id, doc_id: i.doc_id }))).toEqual(
      r.gate.verdict_pairs,
    );
  });
});
