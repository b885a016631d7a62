import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { notApplicableProbes } from '../harness/not-applicable.js';
import { runSuite, type RunOutcome } from '../harness/run-suite.js';
import { outcomeValues, semanticWinModesOf } from '../src/metrics/index.js';
import type { Observation, RateValue, SuiteSpec } from '../src/documents/index.js';
import { computeRunMeasures, hasSelectionFields, type RunMeasures } from '../src/metrics/index.js';
import { MemoryRunStore } from '../src/store/memory-store.js';

/**
 * Gate measures return per-query values and the run's metrics are aggregated from them; report
 * readers take a query's value from its QueryOutcome. Checked on real runs of the bundled Lumen
 * fixture under both builtin modes (semantic selection with fallbacks and probes; context-load).
 */
const REPO = resolve(import.meta.dirname, '..');
const suites = (
  JSON.parse(readFileSync(resolve(REPO, 'rgate.config.json'), 'utf8')) as {
    suites: Record<string, SuiteSpec>;
  }
).suites;

interface Run {
  outcome: RunOutcome;
  measured: RunMeasures;
}

async function run(name: string): Promise<Run> {
  const spec = suites[name]!;
  const outcome = await runSuite({
    name,
    spec,
    root: REPO,
    store: new MemoryRunStore(),
    runId: `per-query-${name}`,
    startedAt: '2026-11-22T00:00:00Z',
    replays: 2,
  });
  const measured = computeRunMeasures({
    queries: outcome.suite.queries,
    corpus: outcome.suite.corpus,
    observations: outcome.observations,
    replays: 2,
    relevanceLevel: outcome.report.settings.relevance_level,
    seed: outcome.report.settings.seed,
    rankingMeasures: spec.ranking_measures ?? [],
    // probes the system cannot take, as the harness decides them (context-load takes no exact key)
    notApplicable: notApplicableProbes(outcome.suite.queries, spec.system, spec.config?.mode ?? '').byQuery,
  });
  return { outcome, measured };
}

/** Sum of a gate metric's per-query parts, as [numerator, denominator] or [n, sum of samples]. */
function total(measured: RunMeasures, id: string, only?: ReadonlySet<string>): [number, number] {
  const v = measured.gate.find((g) => g.id === id)!;
  let a = 0;
  let b = 0;
  for (const [qid, part] of v.perQuery as Map<string, unknown>) {
    if (only && !only.has(qid)) continue;
    if (Array.isArray(part)) {
      a += part.length;
      for (const x of part as number[]) b += x;
    } else if (typeof part === 'number') {
      a += part;
      b += 1;
    } else if (part !== null) {
      const c = part as { numerator: number; denominator: number };
      a += c.numerator;
      b += c.denominator;
    }
  }
  return [a, b];
}

describe.each(['semantic', 'context-load'])('per-query gate values on a real %s run', (name) => {
  let r: Run;
  beforeAll(async () => {
    r = await run(name);
  });

  it('the report carries exactly the metrics aggregated from the per-query values', () => {
    expect(r.measured.metrics).toEqual(r.outcome.report.metrics);
    expect(r.measured.gate.length).toBeGreaterThanOrEqual(15);
  });

  it("for every gate measure the per-query parts sum to the aggregate's numerator/denominator", () => {
    const queryIds = r.outcome.suite.queries.map((q) => q.query_id);
    for (const v of r.measured.gate) {
      expect([...v.perQuery.keys()], v.id).toEqual(queryIds);
      const value = r.outcome.report.metrics.find((m) => m.id === v.id)!.value;
      const [a, b] = total(r.measured, v.id);
      if (value.kind === 'rate') expect([value.numerator, value.denominator], v.id).toEqual([a, b]);
      else if (value.kind === 'mean') {
        expect(value.n, v.id).toBe(a);
        if (a > 0) expect(value.mean!, v.id).toBeCloseTo(b / a, 12);
      } else throw new Error(`${v.id}: a gate measure reported quantiles`);
    }
  });

  it('breakdown rows are the same per-query values aggregated over their queries', () => {
    const byProfile = r.outcome.report.breakdowns.find((x) => x.by === 'profile')!;
    for (const row of byProfile.rows) {
      const ids = new Set(
        r.outcome.suite.queries
          .filter(
            (q) =>
              (r.outcome.observations.find((o) => o.query_id === q.query_id && o.replay === 1)?.profile ??
                q.profile ??
                'none') === row.key,
          )
          .map((q) => q.query_id),
      );
      for (const id of ['top1_useful_any_mode', 'fallback_expectation_met', 'error_rate']) {
        const v = row.metrics[id] as RateValue;
        expect([v.numerator, v.denominator], `${row.key} ${id}`).toEqual(total(r.measured, id, ids));
      }
    }
  });

  it("a query's QueryOutcome reads as the measures' per-query values", () => {
    const of = (id: string) =>
      r.measured.gate.find((v) => v.id === id)!.perQuery as Map<string, 0 | 1 | null>;
    for (const q of r.outcome.report.queries) {
      const read = outcomeValues(q, semanticWinModesOf(r.outcome.report));
      expect(read.replay_determinism, q.query_id).toBe(of('replay_determinism').get(q.query_id));
      expect(read.fallback_expectation_met ?? null, q.query_id).toBe(
        of('fallback_expectation_met').get(q.query_id),
      );
      for (const id of ['top1_useful_rate', 'top1_useful_any_mode'] as const) {
        // exact: the report records which queries have judgments, so an unjudged top-1 of a judged
        // query reads 0, as the measure counts it, and a query with no judgment reads nothing
        expect(read[id] ?? null, `${q.query_id} ${id}`).toBe(of(id).get(q.query_id));
      }
    }
  });

  it('the checklist counts responses with selection fields by the two measures it joins', () => {
    const obs = r.outcome.observations;
    const n = obs.filter(hasSelectionFields).length;
    const item = r.outcome.report.gate.checklist.find((c) => c.id === 'selection_fields_on_every_response');
    // only the semantic gate lists the item; the context-load gate does not ask for it
    if (name === 'semantic') expect(item?.evidence).toContain(`${n}/${obs.length} responses`);
    else expect(item).toBeUndefined();
    const [complete] = total(r.measured, 'source_trace_completeness');
    const [reported] = total(r.measured, 'selection_mode_reporting');
    expect(n).toBeLessThanOrEqual(Math.min(complete, reported));
  });
});

describe('hasSelectionFields: the checklist item is selection_mode_reporting AND source_trace_completeness', () => {
  const base: Observation = {
    query_id: 'q',
    replay: 1,
    ok: true,
    selection_mode: 'semantic',
    selected_id: 'r1',
    source_path: 'a.md',
    ranked: [],
    fallback: { triggered: false },
    usage: { files: 1, chars: 1, tokens: 1 },
    latency_ms: 1,
    contract: { name: 'memory-cli-v1', valid: true, errors: [] },
    fingerprint: 'f',
  };
  it.each([
    ['a semantic selection with its path', {}, true],
    [
      'a well-formed no_match',
      {
        selection_mode: 'no_match',
        selected_id: undefined,
        source_path: undefined,
        no_match_reason: 'below confidence_min',
      },
      true,
    ],
    ['no selection_mode', { selection_mode: undefined }, false],
    ['an unknown selection_mode', { selection_mode: 'guess' }, false],
    ['an empty source_path', { source_path: '' }, false],
    [
      'a no_match without its reason',
      { selection_mode: 'no_match', selected_id: undefined, source_path: undefined },
      false,
    ],
    ['a no_match that still selected something', { selection_mode: 'no_match', no_match_reason: 'x' }, true],
    ['an errored request carrying the fields', { ok: false }, false],
  ] as const)('%s', (_, over, expected) => {
    expect(hasSelectionFields({ ...base, ...over } as Observation)).toBe(expected);
  });
});
