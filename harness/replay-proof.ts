import { canonicalJson, compareCodeUnits } from '../src/core/canonical-json.js';
import { sha256 } from '../src/core/hash.js';
import type { ReplayDivergence, ReplayProof } from '../src/documents/index.js';
import type { EvidenceIndex } from '../src/metrics/index.js';
import { fingerprintInput, firstDifference } from './fingerprint.js';

/**
 * The determinism proof: per query, the fingerprint each replay produced; per replay, a rollup hash
 * over its sorted (query_id, fingerprint) pairs; for each query whose observed fingerprints differ,
 * the first field that differs and which replays produced which fingerprint. A replay that never
 * ran for a query shows as the fingerprint "missing" and is no divergence: a query is divergent
 * exactly when two observed replays differ, as the replay_determinism measure counts it (one
 * function, EvidenceIndex.sameInEveryReplay, decides both). Nothing differing while some replay
 * never ran is `unproven`, never `identical`. A query whose every planned replay gave one
 * fingerprint lists it once (identical replays are the common case: 1.9 of a 10,000-query x
 * 2-replay report's 10.5 MB were the same hash twice); `fingerprintOf` reads both shapes.
 */
export function buildReplayProof(
  evidence: EvidenceIndex,
  opts: { seed: number; orderSeeds: number[] },
): ReplayProof {
  const replays = evidence.replays;
  const queryIds = evidence.queries
    .map((q) => q.query_id)
    .filter((id) => evidence.attempted(id))
    .sort(compareCodeUnits);
  const per_query: ReplayProof['per_query'] = [];
  const divergent: ReplayDivergence[] = [];
  for (const qid of queryIds) {
    const fps: string[] = [];
    for (let r = 1; r <= replays; r++) fps.push(evidence.at(qid, r)?.fingerprint ?? 'missing');
    per_query.push({ query_id: qid, fingerprints: fps.every((f) => f === fps[0]) ? fps.slice(0, 1) : fps });
    if (evidence.sameInEveryReplay(qid, (o) => o.fingerprint) !== false) continue;
    const observed = evidence.all(qid);
    const groups = new Map<string, number[]>();
    for (const o of observed) {
      const g = groups.get(o.fingerprint);
      if (g) g.push(o.replay);
      else groups.set(o.fingerprint, [o.replay]);
    }
    // The first observed replay is the reference; the field is where the first one unlike it departs.
    const ref = observed[0]!;
    const other = observed.find((o) => o.fingerprint !== ref.fingerprint)!;
    divergent.push({
      query_id: qid,
      field: firstDifference(fingerprintInput(ref), fingerprintInput(other)) ?? '/',
      groups: [...groups.entries()]
        .map(([fingerprint, rs]) => ({ fingerprint, replays: rs }))
        .sort((a, b) => a.replays[0]! - b.replays[0]!),
    });
  }
  const rollups: string[] = [];
  for (let r = 1; r <= replays; r++) {
    rollups.push(sha256(canonicalJson(per_query.map((q) => [q.query_id, fingerprintOf(q, r)]))));
  }
  const everyReplay =
    evidence.queries.length > 0 && evidence.queries.every((q) => evidence.complete(q.query_id));
  const status = divergent.length > 0 ? 'divergent' : everyReplay ? 'identical' : 'unproven';
  return {
    replays,
    seed: opts.seed,
    order_seeds: opts.orderSeeds,
    rollups,
    identical: status === 'identical',
    status,
    completed_replays: evidence.completedReplays,
    per_query,
    divergent,
  };
}

/**
 * The fingerprint replay `r` (1-based) produced for a query of the proof: its own entry, or the one
 * entry of a query every replay agreed on (reports before that rule list every replay's).
 */
function fingerprintOf(q: ReplayProof['per_query'][number], r: number): string | undefined {
  return q.fingerprints.length === 1 ? q.fingerprints[0] : q.fingerprints[r - 1];
}
