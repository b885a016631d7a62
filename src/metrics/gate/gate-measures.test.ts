import { rankingScores } from '../_ranking-scores.js';
import { describe, expect, it } from 'vitest';
import type {
  CorpusRecord,
  MetricEntry,
  Observation,
  QueryRecord,
  RateValue,
} from '../../documents/index.js';
import { DocTable, parseQrels, parseRun, writeRun } from '../../trec/index.js';
import { evaluateTrec } from '../_evaluate.js';
import { computeRunMeasures } from '../_run-measures.js';
import { parseMeasureArgs } from '../_spec.js';
import { firstOrderingViolation } from './ordering-compliance.js';

const corpus: CorpusRecord[] = [
  {
    id: 'r1',
    source_path: 'a.md',
    text: 'Deploy pipeline guide',
    kind: 'canonical',
    captured_at: '2026-01-01T00:00:00Z',
    tags: ['public'],
  },
  {
    id: 'r2',
    source_path: 'b.md',
    text: 'keys',
    kind: 'tactical',
    captured_at: '2026-01-02T00:00:00Z',
    tags: ['secret'],
  },
  { id: 'r3', source_path: 'c.md', text: 'notes', kind: 'tactical', captured_at: '2026-01-03T00:00:00Z' },
  { id: 'r4', source_path: 'd.md', text: 'misc', kind: 'tactical', captured_at: '2026-01-04T00:00:00Z' },
];

const queries: QueryRecord[] = [
  { query_id: 'b1', text: 'one', profile: 'small', tags: ['ops'], qrels: { r1: 2, r2: 0 } },
  { query_id: 'b2', text: 'two', profile: 'medium', useful_ids: ['r3'] },
  {
    query_id: 'b3',
    text: 'three',
    must_include_signals_any: ['PIPELINE'],
    must_exclude_tags_all: ['secret'],
  },
  { query_id: 'b4', text: 'four' },
  { query_id: 'b5', text: 'five', qrels: { r4: 1 } },
  { query_id: 'p1', text: 'probe one', expect: { selection_mode: 'fallback_exact_key' }, useful_ids: ['r3'] },
  { query_id: 'p2', text: 'probe two', expect: { no_match: true } },
  { query_id: 'b6', text: 'six', qrels: { r2: 1 } },
];

function obs(query_id: string, replay: number, o: Partial<Observation>): Observation {
  return {
    query_id,
    replay,
    ok: true,
    ranked: [],
    fallback: { triggered: false },
    usage: { files: 1, chars: 100, tokens: 50 },
    latency_ms: 10 * replay,
    contract: { name: 'rgate', valid: true, errors: [] },
    fingerprint: `${query_id}-fp`,
    ...o,
  };
}

const sel = (id: string, path: string) => ({
  selection_mode: 'semantic' as const,
  selected_id: id,
  source_path: path,
});
const item = (id: string, score: number, path = `${id}.md`) => ({ id, source_path: path, score });

const observations: Observation[] = [1, 2].flatMap((r) => [
  obs('b1', r, { ...sel('r1', 'a.md'), ranked: [item('r1', 0.9, 'a.md'), item('r2', 0.5, 'b.md')] }),
  obs('b2', r, {
    selection_mode: 'fallback_path_priority',
    selected_id: 'r3',
    source_path: 'c.md',
    ranked: [item('r3', 1, 'c.md')],
    fallback: { triggered: true, stage: r === 1 ? 'restricted' : 'relaxed' },
    fingerprint: `b2-fp-${r}`,
  }),
  obs('b3', r, { ...sel('r1', 'a.md'), ranked: [item('r1', 0.8, 'a.md'), item('r2', 0.7, 'b.md')] }),
  obs('b4', r, { ...sel('r4', r === 2 ? 'zzz.md' : 'd.md'), ranked: [item('r4', 0.4, 'd.md')] }),
  r === 1
    ? obs('b5', r, {
        ok: false,
        error: { kind: 'timeout', message: 'no answer in 5000 ms' },
        fingerprint: 'err',
      })
    : obs('b5', r, { ...sel('r4', 'd.md'), ranked: [item('r4', 0.3, 'd.md')] }),
  obs('p1', r, {
    selection_mode: 'fallback_exact_key',
    selected_id: 'r3',
    source_path: 'c.md',
    ranked: [item('r3', 1, 'c.md')],
    fallback: { triggered: true, stage: 'restricted' },
  }),
  obs('p2', r, { selection_mode: 'no_match', no_match_reason: 'below confidence_min', ranked: [] }),
  obs('b6', r, {
    ...sel('r3', 'c.md'),
    ranked: [item('r3', 0.6, 'c.md'), item('r2', 0.6, 'b.md'), item('r4', 0.6, 'd.md')],
  }),
]);

const input = {
  queries,
  corpus,
  observations,
  replays: 2,
  relevanceLevel: 1,
  seed: 7,
  rankingMeasures: ['map', 'ndcg_cut.5', 'P.1'],
};

const byId = (ms: MetricEntry[], id: string): MetricEntry => {
  const m = ms.find((x) => x.id === id);
  if (!m) throw new Error(`no metric ${id}`);
  return m;
};
const counts = (ms: MetricEntry[], id: string): [number, number] => {
  const v = byId(ms, id).value as RateValue;
  return [v.numerator, v.denominator];
};

describe('computeRunMeasures: gate measures count what DESIGN.md says', () => {
  const r = computeRunMeasures(input);

  it('numerators and denominators, errored requests kept in every denominator', () => {
    expect(counts(r.metrics, 'top1_useful_rate')).toEqual([2, 5]); // b1, b3 semantic+useful of b1 b2 b3 b5 b6
    expect(counts(r.metrics, 'top1_useful_any_mode')).toEqual([3, 5]); // + b2 (fallback)
    expect(counts(r.metrics, 'fallback_expectation_met')).toEqual([2, 2]);
    expect(counts(r.metrics, 'selection_mode_reporting')).toEqual([15, 16]);
    expect(counts(r.metrics, 'source_trace_completeness')).toEqual([15, 16]);
    expect(counts(r.metrics, 'source_trace_resolvable')).toEqual([12, 14]); // b4 replay 2 wrong path; b5 error
    expect(counts(r.metrics, 'fallback_determinism')).toEqual([1, 3]); // b2 stage differs, b5 errored, p1 ok
    expect(counts(r.metrics, 'replay_determinism')).toEqual([6, 8]);
    expect(counts(r.metrics, 'contract_validity')).toEqual([15, 16]);
    expect(counts(r.metrics, 'budget_compliance')).toEqual([15, 16]);
    expect(counts(r.metrics, 'ordering_compliance')).toEqual([15, 16]);
    expect(counts(r.metrics, 'sensitive_leak_rate')).toEqual([1, 1]); // b3 returned r2 (secret)
    expect(counts(r.metrics, 'error_rate')).toEqual([1, 16]);
    const top1 = byId(r.metrics, 'top1_useful_rate').value as RateValue;
    expect(top1.rate).toBe(0.4);
    expect(top1.wilson95![0]).toBeLessThan(0.4);
    expect(top1.wilson95![1]).toBeGreaterThan(0.4);
    expect(byId(r.metrics, 'top1_useful_rate').help).toMatch(/numerator: .*denominator: /);
  });

  it("each gate metric is the sum of its measure's per-query values", () => {
    expect(r.gate.map((v) => v.id)).toEqual(r.metrics.slice(0, r.gate.length).map((m) => m.id));
    for (const v of r.gate) {
      expect([...v.perQuery.keys()], v.id).toEqual(queries.map((q) => q.query_id));
      const value = byId(r.metrics, v.id).value;
      if (v.kind === 'mean') {
        const samples = [...v.perQuery.values()].flat();
        expect(value.kind === 'mean' && [value.n, value.mean], v.id).toEqual([
          samples.length,
          samples.reduce((s, x) => s + x, 0) / samples.length,
        ]);
        continue;
      }
      let num = 0;
      let den = 0;
      for (const part of v.perQuery.values()) {
        if (typeof part === 'object' && part !== null) {
          num += part.numerator;
          den += part.denominator;
        } else if (part !== null) {
          num += part;
          den += 1;
        }
      }
      expect(counts(r.metrics, v.id), v.id).toEqual([num, den]);
    }
  });

  it('per-query values: 0/1 or null over queries, own counts over requests', () => {
    const of = (id: string) => Object.fromEntries(r.gate.find((v) => v.id === id)!.perQuery);
    // b4 has no judgment, probes are not benchmark queries; b6's top-1 is unjudged, b2 won by fallback
    expect(of('top1_useful_rate')).toEqual({
      b1: 1,
      b2: 0,
      b3: 1,
      b4: null,
      b5: 0,
      p1: null,
      p2: null,
      b6: 0,
    });
    expect(of('top1_useful_any_mode')).toMatchObject({ b2: 1, b6: 0 });
    expect(of('fallback_expectation_met')).toMatchObject({ b1: null, p1: 1, p2: 1 });
    expect(of('sensitive_leak_rate')).toMatchObject({ b1: null, b3: 1 });
    // b4 replay 2 reports another path; b5 replay 1 errored; p2 selected nothing
    expect(of('source_trace_resolvable')).toMatchObject({
      b4: { numerator: 1, denominator: 2 },
      b5: { numerator: 1, denominator: 2 },
      p2: { numerator: 0, denominator: 0 },
    });
    expect(of('judged@10')).toMatchObject({ b1: { numerator: 2, denominator: 10 } });
    expect(of('budget_usage.tokens')).toMatchObject({ b1: [50, 50], b5: [50] });
  });

  it('per-query outcomes list unjudged top-1s, errors, probes and leaks', () => {
    const q = new Map(r.queries.map((x) => [x.query_id, x]));
    expect(q.get('b6')!.top1).toBe('unjudged');
    expect(q.get('b5')!.top1).toBe('error');
    expect(q.get('b5')!.actual.error).toBe('timeout: no answer in 5000 ms');
    expect(q.get('b1')!.top1).toBe('useful');
    expect(q.get('p1')!.kind).toBe('probe');
    expect(q.get('p1')!.expectation_met).toBe(true);
    expect(q.get('b3')!.leaked_tags).toEqual(['secret']);
    expect(q.get('b2')!.deterministic).toBe(false);
    expect(q.get('b1')!.measures).toEqual({ map: 1, 'ndcg_cut.5': 1, 'P.1': 1 });
  });

  it('a contract whose order is its rank (memory-cli-v1) keeps that order and has no score order to check', () => {
    const asCli = computeRunMeasures({
      ...input,
      observations: input.observations.map((o) => ({
        ...o,
        contract: { ...o.contract, name: 'memory-cli-v1' },
      })),
    });
    // b6 ties r3, r2, r4 at 0.6 in that order: the relevant r2 stays second (not third by docno)
    const map = byId(asCli.metrics, 'map').value;
    expect(map.kind === 'mean' && map.mean).toBeCloseTo((1 + 0 + 1 / 2) / 3, 15);
    expect(counts(asCli.metrics, 'ordering_compliance')).toEqual([0, 0]);
  });

  it('ranking measures equal trec_eval -c on a TREC run written from replay 1 (ties by docno desc)', () => {
    // b6 ties r3, r2, r4 at 0.6: trec order is r4, r3, r2 -> the relevant r2 is third
    const rows = queries.flatMap((q) => {
      const o = observations.find((x) => x.query_id === q.query_id && x.replay === 1)!;
      const scores = rankingScores(o);
      return o.ok
        ? o.ranked.map((it, i) => ({ qid: q.query_id, docno: it.id, rank: i + 1, score: scores[i]! }))
        : [];
    });
    const qrelsText = queries
      .flatMap((q) => Object.entries(q.qrels ?? {}).map(([d, g]) => `${q.query_id} 0 ${d} ${g}\n`))
      .join('');
    const docs = new DocTable();
    const trec = evaluateTrec(
      parseQrels(Buffer.from(qrelsText), 'q', docs),
      parseRun(Buffer.from(writeRun(rows, 'replay1')), 'r'),
      parseMeasureArgs(['map', 'ndcg_cut.5', 'P.1']).specs,
      { relevanceLevel: 1, averageComplete: true },
    );
    const ours = ['map', 'ndcg_cut.5', 'P.1'].map((id) => {
      const v = byId(r.metrics, id).value;
      return v.kind === 'mean' ? v.mean : null;
    });
    const theirs = new Map(trec.specs.map((s, i) => [s.names[0], trec.summary[i]![0]]));
    expect(ours).toEqual([theirs.get('map'), theirs.get('ndcg_cut_5'), theirs.get('P_1')]);
    expect(ours[0]).toBeCloseTo((1 + 0 + 1 / 3) / 3, 15);
    const map = byId(r.metrics, 'map').value;
    expect(map.kind === 'mean' && map.n).toBe(3);
  });

  it('breakdowns separate semantic wins from fallback-triggered answers, and by profile and tag', () => {
    const modes = r.breakdowns.find((b) => b.by === 'selection_mode')!;
    expect(modes.rows.map((x) => x.key)).toEqual([
      'error',
      'fallback_exact_key',
      'fallback_path_priority',
      'fallback_triggered',
      'no_match',
      'semantic',
    ]);
    const semantic = modes.rows.find((x) => x.key === 'semantic')!.metrics.top1_useful_any_mode as RateValue;
    expect([semantic.numerator, semantic.denominator]).toEqual([2, 3]); // b1, b3 of b1 b3 b6
    const fb = modes.rows.find((x) => x.key === 'fallback_triggered')!.metrics;
    expect((fb.queries as RateValue).numerator).toBe(2);
    expect(r.breakdowns.map((b) => b.by)).toEqual(['selection_mode', 'profile', 'tag']);
    expect(r.breakdowns[2]!.rows.map((x) => x.key)).toEqual(['none', 'ops']);
  });

  it('latency quantiles overall and per profile', () => {
    expect(r.latency.all).toEqual({ kind: 'quantiles', n: 16, p50: 10, p95: 20, p99: 20 });
    expect(Object.keys(r.latency)).toEqual(['all', 'profile:medium', 'profile:small']);
  });

  it('is deterministic: the same input gives the same output', () => {
    expect(JSON.stringify(computeRunMeasures(input))).toBe(JSON.stringify(r));
  });

  it('a denominator of 0 is "not measured": rate and interval null', () => {
    const none = computeRunMeasures({
      ...input,
      queries: queries.filter((q) => q.query_id === 'b4'),
      rankingMeasures: ['map'],
    });
    const v = byId(none.metrics, 'top1_useful_rate').value;
    expect(v).toEqual({ kind: 'rate', numerator: 0, denominator: 0, rate: null, wilson95: null });
    expect(byId(none.metrics, 'map').value).toEqual({ kind: 'mean', n: 0, mean: null, ci95: null });
    expect(
      byId(none.metrics, 'sensitive_leak_rate').value.kind === 'rate' &&
        byId(none.metrics, 'sensitive_leak_rate').value,
    ).toMatchObject({ rate: null });
  });

  it('a breakdown with one row gives its means no interval (the overall one applies); others keep theirs', () => {
    const one = computeRunMeasures({
      ...input,
      queries: queries.map((q) => ({ ...q, profile: 'small' })),
      observations: observations.map((o) => ({ ...o, profile: 'small' as const })),
    });
    const profile = one.breakdowns.find((b) => b.by === 'profile')!;
    expect(profile.rows.map((row) => row.key)).toEqual(['small']);
    const row = profile.rows[0]!.metrics;
    const overall = byId(one.metrics, 'map').value;
    expect(row.map).toMatchObject({ kind: 'mean', n: overall.kind === 'mean' ? overall.n : -1, ci95: null });
    expect(overall).toMatchObject({ kind: 'mean', ci95: [expect.any(Number), expect.any(Number)] });
    expect(byId(one.metrics, 'map').help).toContain('this overall interval applies');
    // the tag breakdown has two rows: each keeps its own interval, as before
    const tag = one.breakdowns.find((b) => b.by === 'tag')!;
    expect(tag.rows.length).toBeGreaterThan(1);
    const counted = tag.rows.filter((x) => x.metrics.map?.kind === 'mean' && x.metrics.map.n > 0);
    expect(counted.length).toBeGreaterThan(0);
    for (const x of counted)
      expect(x.metrics.map).toMatchObject({ ci95: [expect.any(Number), expect.any(Number)] });
  });

  it('an unknown ranking measure is a config error', () => {
    expect(() => computeRunMeasures({ ...input, rankingMeasures: ['no_such_measure'] })).toThrow(
      /unknown ranking measure/,
    );
  });
});

describe('ordering compliance: the seed-000 tie-break chain', () => {
  const corpusMap = new Map(corpus.map((c) => [c.id, c]));
  const bd = (combined: number, evidence: number) => ({ combined_score: combined, evidence_score: evidence });
  it('accepts the chain and finds the first violation', () => {
    const ok = [
      { id: 'r1', source_path: 'a.md', score: 0.9, score_breakdown: bd(0.9, 0.5) },
      { id: 'r2', source_path: 'b.md', score: 0.8, score_breakdown: bd(0.8, 0.7) },
      { id: 'r4', source_path: 'd.md', score: 0.8, score_breakdown: bd(0.8, 0.6) }, // evidence desc
      { id: 'r3', source_path: 'c.md', score: 0.8, score_breakdown: bd(0.8, 0.6) }, // captured_at: r4 newer
    ];
    expect(firstOrderingViolation(ok, corpusMap)).toBe(-1);
    const swapped = [ok[0]!, ok[1]!, ok[3]!, ok[2]!];
    expect(firstOrderingViolation(swapped, corpusMap)).toBe(3);
    // same combined, evidence, time and path: id ascending
    const same = (id: string) => ({ id, source_path: 'x.md', score: 1, score_breakdown: bd(1, 1) });
    expect(firstOrderingViolation([same('b'), same('a')], new Map())).toBe(1);
    // without breakdowns only the score order is checked
    expect(firstOrderingViolation([item('z', 1), item('a', 1), item('b', 2)], corpusMap)).toBe(2);
  });
});
