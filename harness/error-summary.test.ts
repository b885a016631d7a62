import { describe, expect, it } from 'vitest';
import type { Observation, QueryRecord } from '../src/documents/index.js';
import { computeRunMeasures, EvidenceIndex } from '../src/metrics/index.js';
import { errorSummary, queryError, stderrTail } from './error-summary.js';
import { fingerprint } from './fingerprint.js';
import { buildReplayProof } from './replay-proof.js';

function obs(query_id: string, replay: number, error?: Observation['error']): Observation {
  const o: Omit<Observation, 'fingerprint'> = {
    query_id,
    replay,
    ok: !error,
    ...(error ? { error } : { selection_mode: 'semantic' as const, selected_id: 'd1', source_path: 'd1.md' }),
    ranked: error ? [] : [{ id: 'd1', source_path: 'd1.md', score: 1 }],
    fallback: { triggered: false },
    usage: { files: error ? 0 : 1, chars: 0, tokens: 0 },
    latency_ms: 1,
    contract: { name: 'memory-cli-v1', valid: !error, errors: [] },
  };
  return { ...o, fingerprint: fingerprint(o) };
}

const locked = (pid: number) => ({
  kind: 'crash',
  message: 'process exited with code 1',
  stderr: `warning: embedding unavailable; using token-overlap scoring (pid ${pid})\nError: database is locked\n`,
});
const timeout = { kind: 'timeout', message: 'timed out after 5000 ms' };

// q-locked fails the same way in all 3 replays; q-flaky times out on replay 3 only; q-ok never fails
const observations = [1, 2, 3].flatMap((r) => [
  obs('q-locked', r, locked(100 + r)),
  obs('q-flaky', r, r === 3 ? timeout : undefined),
  obs('q-ok', r),
]);

describe('error summary', () => {
  it('counts failed requests by class, each with its first occurrence and the system own words', () => {
    expect(errorSummary([...observations].reverse())).toEqual({
      requests: 9,
      failed: 4,
      by_class: [
        {
          kind: 'crash',
          requests: 3,
          queries: 1,
          first: {
            query_id: 'q-locked',
            kind: 'crash',
            message: 'process exited with code 1',
            stderr_tail:
              'warning: embedding unavailable; using token-overlap scoring (pid 101)\nError: database is locked',
            replay: 1,
          },
        },
        {
          kind: 'timeout',
          requests: 1,
          queries: 1,
          first: { query_id: 'q-flaky', kind: 'timeout', message: 'timed out after 5000 ms', replay: 3 },
        },
      ],
    });
    expect(errorSummary(observations.filter((o) => o.ok))).toEqual({ requests: 5, failed: 0, by_class: [] });
  });

  it("gives a query's first error in replay order, with how many replays erred and in which classes", () => {
    const mixed = [obs('q', 2, timeout), obs('q', 1, locked(7)), obs('q', 3)];
    expect(queryError(mixed)).toMatchObject({
      kind: 'crash',
      replay: 1,
      errored_replays: 2,
      kinds: ['crash', 'timeout'],
    });
    expect(queryError([obs('q', 1)])).toBeUndefined();
  });

  it('keeps the last lines of stderr, cut at a line start', () => {
    expect(stderrTail(undefined)).toBeUndefined();
    expect(stderrTail('  \n')).toBeUndefined();
    expect(stderrTail('one\r\ntwo\r\n', 100)).toBe('one\ntwo');
    expect(stderrTail('a long first line\nshort\nlast', 12)).toBe('short\nlast');
    expect(stderrTail('x'.repeat(20), 5)).toBe('…xxxx');
  });
});

describe('replay stability: one definition for the proof and the gate', () => {
  it('a deterministic error is stable in both; an error on one replay only is unstable in both', () => {
    const queries: QueryRecord[] = ['q-locked', 'q-flaky', 'q-ok'].map((query_id) => ({
      query_id,
      text: query_id,
    }));
    const proof = buildReplayProof(new EvidenceIndex(queries, observations, 3), {
      seed: 1,
      orderSeeds: [1, 2, 3],
    });
    expect(proof.divergent.map((d) => d.query_id)).toEqual(['q-flaky']);
    const m = computeRunMeasures({
      queries,
      corpus: [],
      observations,
      replays: 3,
      relevanceLevel: 1,
      seed: 1,
      rankingMeasures: [],
    });
    const det = m.gate.find((g) => g.id === 'replay_determinism')!.perQuery as Map<string, number>;
    expect(Object.fromEntries(det)).toEqual({ 'q-locked': 1, 'q-flaky': 0, 'q-ok': 1 });
    for (const q of queries) {
      const divergent = proof.divergent.some((d) => d.query_id === q.query_id);
      expect(det.get(q.query_id) === 0, q.query_id).toBe(divergent);
    }
  });
});
