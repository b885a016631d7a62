import { canonicalJson, compareCodeUnits } from '../src/core/canonical-json.js';
import { sha256 } from '../src/core/hash.js';
import type { Observation, ReplayDivergence, ReplayProof } from '../src/documents/index.js';
import { replayStable } from '../src/metrics/index.js';
import { fingerprintInput, firstDifference } from './fingerprint.js';

/**
 * The determinism proof: per query, the fingerprint each replay produced; per replay, a rollup hash
 * over its sorted (query_id, fingerprint) pairs; for each query whose fingerprints differ, the first
 * field that differs and which replays produced which fingerprint. A query missing from a replay
 * (an interrupted run) shows as the fingerprint "missing". A query is divergent exactly when the
 * replay_determinism measure counts it unstable (one function, replayStable, decides both).
 */
export function buildReplayProof(
  observations: readonly Observation[],
  opts: { replays: number; seed: number; orderSeeds: number[] },
): ReplayProof {
  const byQuery = new Map<string, Map<number, Observation>>();
  for (const o of observations) {
    let m = byQuery.get(o.query_id);
    if (!m) byQuery.set(o.query_id, (m = new Map()));
    m.set(o.replay, o);
  }
  const queryIds = [...byQuery.keys()].sort(compareCodeUnits);
  const per_query: ReplayProof['per_query'] = [];
  const divergent: ReplayDivergence[] = [];
  for (const qid of queryIds) {
    const m = byQuery.get(qid)!;
    const observed: (string | undefined)[] = [];
    for (let r = 1; r <= opts.replays; r++) observed.push(m.get(r)?.fingerprint);
    const fps = observed.map((f) => f ?? 'missing');
    per_query.push({ query_id: qid, fingerprints: fps });
    // the replay_determinism measure's definition, so the proof and the gate cannot disagree
    if (opts.replays > 0 && !replayStable(observed)) {
      const groups = new Map<string, number[]>();
      fps.forEach((fp, i) => {
        const g = groups.get(fp);
        if (g) g.push(i + 1);
        else groups.set(fp, [i + 1]);
      });
      // The first replay is the reference; the field is where the first differing replay departs from it.
      const ref = m.get(1);
      let field = '/';
      for (let r = 2; r <= opts.replays; r++) {
        const o = m.get(r);
        if (fps[r - 1] === fps[0]) continue;
        field = ref && o ? (firstDifference(fingerprintInput(ref), fingerprintInput(o)) ?? '/') : '/missing';
        break;
      }
      divergent.push({
        query_id: qid,
        field,
        groups: [...groups.entries()]
          .map(([fingerprint, replays]) => ({ fingerprint, replays }))
          .sort((a, b) => a.replays[0]! - b.replays[0]!),
      });
    }
  }
  const rollups: string[] = [];
  for (let r = 1; r <= opts.replays; r++) {
    rollups.push(sha256(canonicalJson(per_query.map((q) => [q.query_id, q.fingerprints[r - 1]]))));
  }
  return {
    replays: opts.replays,
    seed: opts.seed,
    order_seeds: opts.orderSeeds,
    rollups,
    identical: divergent.length === 0,
    per_query,
    divergent,
  };
}
