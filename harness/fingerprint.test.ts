import { describe, expect, it } from 'vitest';
import type { Observation } from '../src/documents/index.js';
import { fingerprint, firstDifference, fingerprintInput } from './fingerprint.js';
import { EvidenceIndex } from '../src/metrics/index.js';
import { buildReplayProof } from './replay-proof.js';
import { canonicalJson } from '../src/core/canonical-json.js';
import { sha256 } from '../src/core/hash.js';

function obs(query_id: string, replay: number, ids: string[], extra: Partial<Observation> = {}): Observation {
  const o: Omit<Observation, 'fingerprint'> = {
    query_id,
    replay,
    ok: true,
    selection_mode: 'semantic',
    selected_id: ids[0],
    source_path: ids[0] && `${ids[0]}.md`,
    ranked: ids.map((id, i) => ({ id, source_path: `${id}.md`, score: 1 - i / 10 })),
    fallback: { triggered: false },
    usage: { files: ids.length, chars: 100, tokens: 25 },
    latency_ms: 3 + replay,
    contract: { name: 'rgate', valid: true, errors: [] },
    ...extra,
  };
  return { ...o, fingerprint: fingerprint(o) };
}

describe('fingerprint', () => {
  it('ignores latency and error text but not order or scores', () => {
    const a = obs('q1', 1, ['a', 'b']);
    expect(obs('q1', 2, ['a', 'b']).fingerprint).toBe(a.fingerprint);
    expect(obs('q1', 1, ['b', 'a']).fingerprint).not.toBe(a.fingerprint);
    const err1 = obs('q1', 1, [], {
      ok: false,
      error: { kind: 'timeout', message: 'after 1001 ms (pid 4)' },
    });
    const err2 = obs('q1', 2, [], {
      ok: false,
      error: { kind: 'timeout', message: 'after 1003 ms (pid 9)' },
    });
    expect(err1.fingerprint).toBe(err2.fingerprint);
  });

  it("leaves out the system's stated fallback reason, not the fallback outcome it explains", () => {
    // a reason may carry a timing ("726 ms"): two replays that fell back alike must not differ by it
    const fell = (reason: string, stage = 'path_priority') =>
      obs('q1', 1, ['a'], {
        selection_mode: 'fallback_path_priority',
        fallback: { triggered: true, stage, reason },
      });
    const gate = fell('semantic confidence gate failed; deterministic path-priority fallback used');
    const slow = fell(
      'semantic latency 726 ms exceeded the 700 ms limit; deterministic path-priority fallback used',
    );
    expect(slow.fingerprint).toBe(gate.fingerprint);
    expect(fell('same words', 'exact_key').fingerprint).not.toBe(fell('same words').fingerprint);
  });

  it('names the first differing field', () => {
    const a = fingerprintInput(obs('q1', 1, ['a', 'b', 'c']));
    const b = fingerprintInput(obs('q1', 1, ['a', 'c', 'b']));
    expect(firstDifference(a, b)).toBe('/ranked/1/id');
    expect(firstDifference(a, a)).toBeUndefined();
    expect(firstDifference({ x: [1] }, { x: [1, 2] })).toBe('/x/length');
  });
});

/** The proof over an index of these observations, the set being the queries they name. */
function proof(observations: Observation[], replays: number, orderSeeds: number[]) {
  const ids = [...new Set(observations.map((o) => o.query_id))];
  const index = new EvidenceIndex(
    ids.map((query_id) => ({ query_id, text: query_id })),
    observations,
    replays,
  );
  return buildReplayProof(index, { seed: 7, orderSeeds });
}

describe('buildReplayProof', () => {
  it('is identical when every replay agrees', () => {
    const all = [1, 2, 3].flatMap((r) => [obs('q1', r, ['a', 'b']), obs('q2', r, ['c'])]);
    const p = proof(all, 3, [1, 2, 3]);
    expect(p.identical).toBe(true);
    expect(new Set(p.rollups).size).toBe(1);
    expect(p.divergent).toEqual([]);
  });

  it('lists a fingerprint every replay agreed on once, and each replay rollup over it', () => {
    const all = [1, 2].flatMap((r) => [obs('q1', r, ['a', 'b']), obs('q2', r, r === 1 ? ['c'] : ['d'])]);
    const p = proof(all, 2, [1, 2]);
    const [q1, q2] = [all[0]!.fingerprint, all[1]!.fingerprint];
    expect(p.per_query).toEqual([
      { query_id: 'q1', fingerprints: [q1] },
      { query_id: 'q2', fingerprints: [q2, all[3]!.fingerprint] },
    ]);
    // the rollups are what they were when every replay's fingerprint was listed
    const rollup = (fps: string[]) =>
      sha256(
        canonicalJson([
          ['q1', q1],
          ['q2', fps[1]],
        ]),
      );
    expect(p.rollups).toEqual([rollup([q1, q2]), rollup([q1, all[3]!.fingerprint])]);
  });

  it('names the divergent query, field and replays', () => {
    const all = [
      obs('q1', 1, ['a', 'b']),
      obs('q1', 2, ['a', 'b']),
      obs('q1', 3, ['b', 'a']),
      obs('q2', 1, ['c']),
      obs('q2', 2, ['c']),
      obs('q2', 3, ['c']),
    ];
    const p = proof(all, 3, [1, 2, 3]);
    expect(p.identical).toBe(false);
    expect(p.divergent).toHaveLength(1);
    expect(p.divergent[0]).toMatchObject({ query_id: 'q1', field: '/ranked/0/id' });
    expect(p.divergent[0]!.groups.map((g) => g.replays)).toEqual([[1, 2], [3]]);
    expect(p.rollups[0]).toBe(p.rollups[1]);
    expect(p.rollups[2]).not.toBe(p.rollups[0]);
  });

  it('shows a query missing from a replay, and calls that unproven, never divergent', () => {
    const p = proof([obs('q1', 1, ['a'])], 2, [1, 2]);
    expect(p.per_query[0]!.fingerprints[1]).toBe('missing');
    expect(p.divergent).toEqual([]);
    expect(p.identical).toBe(false);
    expect(p.status).toBe('unproven');
    expect(p.completed_replays).toBe(1);
  });

  it('a divergence between the replays that ran is shown even when another never ran', () => {
    const p = proof([obs('q1', 1, ['a', 'b']), obs('q1', 2, ['b', 'a'])], 3, [1, 2]);
    expect(p.status).toBe('divergent');
    expect(p.divergent[0]).toMatchObject({ query_id: 'q1', field: '/ranked/0/id' });
    expect(p.divergent[0]!.groups.map((g) => g.replays)).toEqual([[1], [2]]);
  });
});
