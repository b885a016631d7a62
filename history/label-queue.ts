/**
 * The labeling queue (`rgate label queue`): the documents some variant put in its top k that the
 * qrels do not judge yet, pooled over the variants of a comparison (or the replays of one run), one
 * entry per (query, doc), in the order a reviewer should grade them: the pairs most variants
 * surfaced first (they decide the most comparisons), then the best rank, then query and doc id.
 */
import { compareCodeUnits } from '../src/core/canonical-json.js';
import { RgateError } from '../src/core/errors.js';
import {
  type GateResult,
  LABEL_QUEUE_SCHEMA_VERSION,
  type ArtifactRefs,
  type CompareSession,
  type CorpusRecord,
  type LabelQueue,
  type LabelQueueItem,
  type LabelSource,
  type Observation,
  type QueryRecord,
  type RunRow,
} from '../src/documents/index.js';
import type { PinnedSuite } from '../src/snapshot/index.js';
import type { RunStore } from '../src/store/types.js';
import { loadSession } from './compare.js';
import { hasQrels, isJudged } from './label-holes.js';

/** The depth `rgate compare` keeps of each variant's ranking (the report's top_ids). */
export const SESSION_TOP_DEPTH = 10;

/** One ranking per source: query id -> ranked doc ids, best first. */
export interface RankingSource {
  source: LabelSource;
  top: ReadonlyMap<string, readonly string[]>;
}

/** Where a queue's rankings come from, as read from the run store. */
export interface QueueRankings {
  origin: LabelQueue['origin'];
  artifacts: ArtifactRefs;
  sources: RankingSource[];
  /** how deep the stored rankings go (a session keeps the top 10; a run every ranked item) */
  depth: number;
}

/**
 * The rankings of a comparison session (its variants) or of a stored run (its replays, each
 * observation's ranking in the order the system returned it). A session is looked up first: session
 * and run ids do not collide (`cmp-` prefix).
 */
export function rankingsFromStore(store: RunStore, id: string): QueueRankings {
  if (store.getCompareSession(id) !== undefined) return rankingsFromSession(loadSession(store, id));
  const row = store.getRun(id);
  if (!row) {
    throw new RgateError(
      'usage',
      `no run or comparison session ${id} in ${store.location}`,
      'list them: rgate history, rgate compare --list',
    );
  }
  return rankingsFromRun(row, store.getObservations(id));
}

/** A comparison session's rankings: each variant's stored top ids. Pure. */
export function rankingsFromSession(s: CompareSession): QueueRankings {
  const id = s.environment.session_id;
  const missing = s.variants.filter((v) => v.top_ids === undefined).map((v) => v.id);
  if (missing.length) {
    throw new RgateError(
      'usage',
      `session ${id} does not keep its variants' rankings (made by an older rgate)`,
      `run the comparison again (rgate compare ${s.suite} --set ...) and queue the new session`,
    );
  }
  return {
    origin: { kind: 'compare', id, suite: s.suite },
    artifacts: s.artifacts,
    depth: SESSION_TOP_DEPTH,
    sources: s.variants.map((v) => ({
      source: { id: v.id, label: v.label, run_id: v.run_id },
      top: new Map(Object.entries(v.top_ids ?? {})),
    })),
  };
}

/** A stored run's rankings: one source per replay, each observation's ranking as returned. Pure. */
export function rankingsFromRun(row: RunRow, observations: readonly Observation[]): QueueRankings {
  const id = row.run_id;
  const byReplay = new Map<number, Map<string, string[]>>();
  for (const o of observations) {
    if (!o.ok) continue;
    let m = byReplay.get(o.replay);
    if (!m) byReplay.set(o.replay, (m = new Map()));
    m.set(
      o.query_id,
      o.ranked.map((r) => r.id),
    );
  }
  if (byReplay.size === 0) {
    throw new RgateError(
      'usage',
      `run ${id} has no successful observation to pool`,
      'pick a run that answered',
    );
  }
  return {
    origin: { kind: 'run', id, suite: row.suite },
    artifacts: row.artifacts,
    depth: Number.POSITIVE_INFINITY,
    sources: [...byReplay.keys()]
      .sort((a, b) => a - b)
      .map((r) => ({ source: { id: `r${r}`, label: `replay ${r}`, run_id: id }, top: byReplay.get(r)! })),
  };
}

/** An unjudged (query, top-1 document) pair whose grade could change a verdict. */
export type VerdictPair = NonNullable<GateResult['verdict_pairs']>[number];

interface Pooled {
  query: QueryRecord;
  doc: CorpusRecord;
  surfaced: Set<string>;
  best: number;
}

/**
 * Pool the sources' top k into queue items. Pure: the order is total (surfaced-by count desc, best
 * rank asc, query id, doc id by code unit), so the same inputs give the same queue byte for byte.
 */
export function poolQueue(
  sources: readonly RankingSource[],
  queries: readonly QueryRecord[],
  corpus: readonly CorpusRecord[],
  k: number,
  blind = false,
  priority: readonly VerdictPair[] = [],
): { items: LabelQueueItem[]; judged_queries: number; not_in_corpus: number; verdict_pairs: number } {
  const docs = new Map(corpus.map((d) => [d.id, d]));
  const judged = queries.filter(hasQrels);
  const pooled = new Map<string, Pooled>();
  const missing = new Set<string>();
  for (const { source, top } of sources) {
    for (const q of judged) {
      const ranked = top.get(q.query_id) ?? [];
      for (let i = 0; i < Math.min(k, ranked.length); i++) {
        const id = ranked[i]!;
        if (isJudged(q, id)) continue;
        const doc = docs.get(id);
        const key = `${q.query_id}\u0000${id}`;
        if (!doc) {
          missing.add(key);
          continue;
        }
        let p = pooled.get(key);
        if (!p) pooled.set(key, (p = { query: q, doc, surfaced: new Set(), best: i + 1 }));
        p.surfaced.add(source.id);
        p.best = Math.min(p.best, i + 1);
      }
    }
  }
  // the pairs that can change the verdict come first, in their order, pooled or not (a query with
  // no judgment at all is never pooled, and the gated system need not be one of the pool's)
  const byQuery = new Map(queries.map((q) => [q.query_id, q]));
  const first: Pooled[] = [];
  for (const v of priority) {
    const q = byQuery.get(v.query_id);
    const doc = docs.get(v.doc_id);
    const key = `${v.query_id}\u0000${v.doc_id}`;
    if (!q || !doc || isJudged(q, v.doc_id)) continue;
    first.push(pooled.get(key) ?? { query: q, doc, surfaced: new Set(), best: Number.POSITIVE_INFINITY });
    pooled.delete(key);
  }
  const order = sources.map((s) => s.source.id);
  const byIds = (a: Pooled, b: Pooled): number =>
    compareCodeUnits(a.query.query_id, b.query.query_id) || compareCodeUnits(a.doc.id, b.doc.id);
  // blind: nothing in the order either says how many systems (or how high) retrieved a document
  const rest = [...pooled.values()].sort(
    blind ? byIds : (a, b) => b.surfaced.size - a.surfaced.size || a.best - b.best || byIds(a, b),
  );
  const items = [...first, ...rest].map((p): LabelQueueItem => ({
    query_id: p.query.query_id,
    query_text: p.query.text,
    doc_id: p.doc.id,
    ...(p.doc.title !== undefined ? { title: p.doc.title } : {}),
    text: p.doc.text,
    ...(p.doc.source_path !== p.doc.id ? { source_path: p.doc.source_path } : {}),
    ...(blind || p.surfaced.size === 0
      ? {}
      : { surfaced_by: order.filter((id) => p.surfaced.has(id)), best_rank: p.best }),
  }));
  return { items, judged_queries: judged.length, not_in_corpus: missing.size, verdict_pairs: first.length };
}

/**
 * The queue document over a loaded fixture set. The corpus must be the one the rankings were made
 * on (the reviewer must read what the system saw); the query set may have moved on (judgments merged
 * since), and then judged-ness is today's, so merged pairs leave the queue.
 */
export function buildLabelQueue(
  r: QueueRankings,
  set: PinnedSuite,
  k: number,
  blind = false,
  priority?: { run_id?: string; session_id?: string; pairs: readonly VerdictPair[] },
): LabelQueue {
  if (!Number.isInteger(k) || k < 1) throw new RgateError('usage', `--k ${k}: must be a positive integer`);
  if (k > r.depth) {
    throw new RgateError(
      'usage',
      `--k ${k}: comparison ${r.origin.id} keeps each variant's top ${r.depth} only`,
      `use --k ${r.depth} or less`,
    );
  }
  if (set.artifacts.corpus_sha256 !== r.artifacts.corpus_sha256) {
    throw new RgateError(
      'input_invalid',
      `${set.dir}/corpus.jsonl is not the corpus ${r.origin.kind} ${r.origin.id} ran on (${r.artifacts.corpus_id}, ${r.artifacts.corpus_sha256}; the folder holds ${set.artifacts.corpus_sha256})`,
      'the queue shows the documents as the system saw them: restore that corpus, or queue a run made on this one',
    );
  }
  const pooled = poolQueue(r.sources, set.queries, set.corpus, k, blind, priority?.pairs);
  return {
    schema: LABEL_QUEUE_SCHEMA_VERSION,
    origin: r.origin,
    ...(blind ? { blind } : {}),
    fixture: set.name,
    corpus_id: r.artifacts.corpus_id,
    query_set_id: set.artifacts.query_set_id,
    query_set_changed: set.artifacts.query_set_sha256 !== r.artifacts.query_set_sha256,
    k,
    sources: r.sources.map((s) => s.source),
    judged_queries: pooled.judged_queries,
    not_in_corpus: pooled.not_in_corpus,
    ...(priority
      ? {
          verdict: {
            ...(priority.run_id !== undefined ? { run_id: priority.run_id } : {}),
            ...(priority.session_id !== undefined ? { session_id: priority.session_id } : {}),
            pairs: pooled.verdict_pairs,
          },
        }
      : {}),
    items: pooled.items,
  };
}
