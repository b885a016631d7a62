/**
 * A comparison's top-1 rates scored again under other grades, from what the session keeps: each
 * variant's replay-1 top-1 (`top1`: its id, selection mode and whether it leaks an excluded tag) and
 * its stored per-query values. A query's value moves with a grade only where the qrels decide its
 * top-1 (judgeTop1's order: an excluded tag, then useful_ids / useful_paths, then a qrels line, then
 * include rules, else unjudged); every condition that does not depend on grades is read back from the
 * stored values. A session written before it kept `top1` has the ranked ids only (`top_ids`): there a
 * value that depends on answer data it lacks (which id was selected, the top-1's tags, the selection
 * mode) is not re-scored, and the measure says what it needs: no guessed figure.
 */
import type { CompareSession, CompareVariant, KeptTop1, QueryRecord } from '../src/documents/index.js';
import { RANKING_ONLY } from '../src/documents/index.js';
import { isSemanticWin, type QrelsOf } from '../src/metrics/index.js';

export const TOP1_RATES: readonly string[] = ['top1_useful_rate', 'top1_useful_any_mode'];

/** Answers in these selection-mode counts have no selection step: their top-1 is their first ranked id. */
const NO_SELECTION = new Set([RANKING_ONLY, 'error', 'no_match']);

const NEEDS_SELECTED =
  "each query's replay-1 selected_id (a variant answered with a selection step; this session, made before rgate compare kept top-1s, keeps ranked ids only: compare again)";
const NEEDS_TOP_IDS = "each query's replay-1 top ids (the session predates keeping them)";
const NEEDS_TAGS =
  "the replay-1 top-1's tags where a query excludes tags (this session, made before rgate compare kept top-1s, does not keep them: compare again)";
const NEEDS_MODE =
  "each query's replay-1 selection mode (this session, made before rgate compare kept top-1s, keeps counts per mode only: compare again)";
const NEEDS_CONSISTENT =
  "each query's replay-1 top-1 judgment (the session's stored values do not follow from its kept top-1s)";

type Value = 0 | 1 | undefined;
/** a value, or why it cannot be known from the session */
type Scored = Value | { needs: string };

/** The top-1 rate measures the session tested, in id order. */
export function top1MetricsOf(session: CompareSession): string[] {
  return session.metrics
    .map((m) => m.id)
    .filter((m) => TOP1_RATES.includes(m))
    .sort();
}

const explicitUseful = (q: QueryRecord) => (q.useful_ids?.length ?? 0) + (q.useful_paths?.length ?? 0) > 0;
const includeRules = (q: QueryRecord) =>
  (q.must_include_signals_any?.length ?? 0) + (q.must_include_tags_any?.length ?? 0) > 0;

/**
 * Is `doc` (a top-1 that leaks no excluded tag) useful with `grades`? judgeTop1's order after the
 * leak: an explicit useful list decides, then a qrels line, then include rules, else not useful.
 * undefined: the grades do not decide, the stored value stands.
 */
function gradedUseful(
  q: QueryRecord,
  doc: string,
  grades: Readonly<Record<string, number>>,
  level: number,
): boolean | undefined {
  if (explicitUseful(q)) return undefined;
  const g = grades[doc];
  return g !== undefined ? g >= level : includeRules(q) ? undefined : false;
}

/**
 * Is `doc` (the top-1, leak unknown) judged useful with `grades`, given what the stored value tells
 * (the run's judgment with the set's qrels)? undefined: the grades do not decide, the stored value stands.
 */
function usefulWith(
  q: QueryRecord,
  doc: string,
  stored: 0 | 1,
  grades: Readonly<Record<string, number>>,
  level: number,
): boolean | undefined | { needs: string } {
  const useful = gradedUseful(q, doc, grades, level);
  if ((q.must_exclude_tags_all?.length ?? 0) === 0 || useful !== true) return useful;
  // a leak makes any top-1 not useful: stored useful shows no leak, stored not useful with a useful grade shows one
  const frozen = q.qrels?.[doc];
  if (stored === 1) return true;
  if (frozen !== undefined && frozen >= level) return false;
  return { needs: NEEDS_TAGS };
}

/** Is a kept top-1 judged useful with `grades`? undefined: the grades do not decide, the stored value stands. */
function keptUseful(
  q: QueryRecord,
  top: KeptTop1,
  grades: Readonly<Record<string, number>>,
  level: number,
): boolean | undefined {
  return top.leak ? false : gradedUseful(q, top.id, grades, level);
}

/** One query's value of `metric` for a variant with `grades` (the measure's own rule, see the header). */
function valueWith(
  metric: string,
  q: QueryRecord,
  v: CompareVariant,
  grades: Readonly<Record<string, number>>,
  level: number,
): Scored {
  const stored = v.per_query[metric]?.[q.query_id] as Value;
  // not counted (probe, no judgment) stays out: a grade adds no query to the denominator here
  if (stored === undefined) return undefined;
  if (v.top1) {
    const top = v.top1[q.query_id];
    if (!top) return stored; // an error or an empty answer: never useful
    const useful = keptUseful(q, top, grades, level);
    if (useful === undefined) return stored;
    if (metric === 'top1_useful_any_mode') return useful ? 1 : 0;
    return isSemanticWin(useful ? 'useful' : 'not_useful', top.mode, v.semantic_win_modes ?? []) ? 1 : 0;
  }
  const doc = v.top_ids![q.query_id]?.[0];
  if (doc === undefined) return stored;
  const useful = usefulWith(q, doc, stored, grades, level);
  if (useful === undefined) return stored;
  if (typeof useful === 'object') return useful;
  if (metric === 'top1_useful_any_mode') return useful ? 1 : 0;
  // top1_useful_rate: useful and semantically selected; the stored value shows the mode only where it was useful
  if (!useful) return 0;
  const any = v.per_query.top1_useful_any_mode?.[q.query_id];
  if (any === 1) return stored;
  return { needs: NEEDS_MODE };
}

/** Why the session cannot re-score its top-1 rates at all (undefined: it may, query by query). */
function sessionNeeds(session: CompareSession): string | undefined {
  if (session.variants.every((v) => v.top1)) return undefined;
  if (session.variants.some((v) => !v.top_ids)) return NEEDS_TOP_IDS;
  const selects = session.variants.some((v) =>
    Object.keys(v.selection_modes ?? {}).some((m) => !NO_SELECTION.has(m)),
  );
  // without counts (older sessions) nothing shows the answers had no selection step
  if (selects || session.variants.some((v) => !v.selection_modes)) return NEEDS_SELECTED;
  return undefined;
}

/**
 * Each variant's per-query values of `metric` under each of `fillings`, or what the measure needs.
 * The set's own qrels must give back the stored values (a check that the kept ids are the top-1s).
 */
export function top1ValuesUnder(
  session: CompareSession,
  metric: string,
  queries: readonly QueryRecord[],
  fillings: readonly QrelsOf[],
): { values: Record<string, number>[][] } | { needs: string } {
  const early = sessionNeeds(session);
  if (early) return { needs: early };
  const level = session.variants[0]!.rankings?.relevance_level ?? 1;
  const scoreAll = (qrelsOf: QrelsOf) => {
    const out: Record<string, number>[] = [];
    for (const v of session.variants) {
      const values: Record<string, number> = {};
      for (const q of queries) {
        const x = valueWith(metric, q, v, qrelsOf(q) ?? {}, level);
        if (typeof x === 'object') return x;
        if (x !== undefined) values[q.query_id] = x;
      }
      out.push(values);
    }
    return out;
  };
  const own = scoreAll((q) => q.qrels);
  if (!Array.isArray(own)) return own;
  const same = session.variants.every((v, i) => {
    const stored = v.per_query[metric] ?? {};
    const mine = own[i]!;
    const ids = Object.keys(stored);
    return ids.length === Object.keys(mine).length && ids.every((id) => mine[id] === stored[id]);
  });
  if (!same) return { needs: NEEDS_CONSISTENT };
  const values: Record<string, number>[][] = [];
  for (const f of fillings) {
    const x = scoreAll(f);
    if (!Array.isArray(x)) return x;
    values.push(x);
  }
  return { values };
}

/**
 * The top-1 holes of `metric`: per variant, the top-1 of a query with qrels that no judgment covers
 * (its qrels decide it, and lack it) and that leaks no excluded tag, in any variant; query id -> doc
 * ids.
 */
export function top1Holes(
  session: CompareSession,
  queries: readonly QueryRecord[],
): Map<string, Set<string>> {
  const holes = new Map<string, Set<string>>();
  for (const q of queries) {
    const qrels = q.qrels ?? {};
    if (Object.keys(qrels).length === 0 || explicitUseful(q) || includeRules(q)) continue;
    for (const v of session.variants) {
      // a session before kept top-1s: the first ranked id (it re-counts only answers with no selection step)
      const kept = v.top1 ? v.top1[q.query_id] : undefined;
      const doc = v.top1 ? kept?.id : v.top_ids?.[q.query_id]?.[0];
      // a leaking top-1 is not useful whatever its grade: no hole
      if (doc === undefined || kept?.leak || Object.hasOwn(qrels, doc)) continue;
      if (v.per_query.top1_useful_any_mode?.[q.query_id] === undefined) continue;
      (holes.get(q.query_id) ?? holes.set(q.query_id, new Set()).get(q.query_id)!).add(doc);
    }
  }
  return holes;
}
