import { describe, expect, it } from 'vitest';
import type { Observation, SelectionMode } from '../src/documents/index.js';
import { fallbackReasonSummary } from './fallback-reasons.js';
import { fingerprint } from './fingerprint.js';

function obs(
  query_id: string,
  replay: number,
  mode: SelectionMode,
  fallback: Observation['fallback'],
  ok = true,
): Observation {
  const o: Omit<Observation, 'fingerprint'> = {
    query_id,
    replay,
    ok,
    ...(ok ? { selection_mode: mode, selected_id: 'd1', source_path: 'd1.md' } : {}),
    ranked: [{ id: 'd1', source_path: 'd1.md', score: 1 }],
    fallback,
    usage: { files: 1, chars: 0, tokens: 0 },
    latency_ms: 1,
    contract: { name: 'memory-cli-v1', valid: true, errors: [] },
  };
  return { ...o, fingerprint: fingerprint(o) };
}

const GATE = 'semantic confidence gate failed; deterministic path-priority fallback used';
const SLOW = 'semantic latency 726 ms exceeded the 700 ms limit; deterministic path-priority fallback used';
const path = (reason?: string) => ({
  triggered: true,
  stage: 'path_priority',
  ...(reason !== undefined ? { reason } : {}),
});

// q-a falls back for the gate in both replays, q-b for the gate then for latency, q-c says no reason,
// q-d answers semantically, q-e fails; q-f is in a fallback mode without the flag (still a fallback)
// and names no stage; q-g gives q-f's words at a named stage (a distinct pair, as often)
const observations = [1, 2].flatMap((r) => [
  obs('q-a', r, 'fallback_path_priority', path(GATE)),
  obs('q-b', r, 'fallback_path_priority', path(r === 1 ? GATE : SLOW)),
  obs('q-c', r, 'fallback_path_priority', path()),
  obs('q-d', r, 'semantic', { triggered: false }),
  obs('q-e', r, 'semantic', { triggered: false }, false),
  obs('q-f', r, 'fallback_exact_key', { triggered: false, reason: 'key named in the query' }),
  obs('q-g', r, 'fallback_exact_key', {
    triggered: true,
    stage: 'exact_key',
    reason: 'key named in the query',
  }),
]);

describe('fallback reasons', () => {
  it('counts each distinct (stage, reason) by requests and queries, most frequent first, whatever the arrival order', () => {
    const want = {
      fell_back: 10,
      unstated: 2,
      reasons: [
        {
          stage: 'path_priority',
          reason: GATE,
          requests: 3,
          queries: 2,
          first: { query_id: 'q-a', replay: 1 },
        },
        // equal counts: by stage (none first), then text
        { reason: 'key named in the query', requests: 2, queries: 1, first: { query_id: 'q-f', replay: 1 } },
        {
          stage: 'exact_key',
          reason: 'key named in the query',
          requests: 2,
          queries: 1,
          first: { query_id: 'q-g', replay: 1 },
        },
        {
          stage: 'path_priority',
          reason: SLOW,
          requests: 1,
          queries: 1,
          first: { query_id: 'q-b', replay: 2 },
        },
      ],
      more_reasons: 0,
    };
    expect(fallbackReasonSummary(observations)).toEqual(want);
    expect(fallbackReasonSummary([...observations].reverse())).toEqual(want);
  });

  it('lists at most the limit, counting the rest', () => {
    const s = fallbackReasonSummary(observations, 1);
    expect(s.reasons.map((r) => r.reason)).toEqual([GATE]);
    expect(s.more_reasons).toBe(3);
  });

  it('a run without fallbacks has nothing to explain', () => {
    expect(fallbackReasonSummary(observations.filter((o) => o.query_id === 'q-d'))).toEqual({
      fell_back: 0,
      unstated: 0,
      reasons: [],
      more_reasons: 0,
    });
  });
});
