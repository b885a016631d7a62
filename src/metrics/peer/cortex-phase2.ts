/**
 * The cortex Phase 2 retrieval harness's own relevance figure, reproduced (cortex repository,
 * scripts/phase2_retrieval_eval_harness_v0.py at 76ecbb7; facts read there, code written here).
 * The harness does not use judgments: it judges every returned entry by rule and scores the order.
 *
 * - An entry's judged text is its path, its `selected_by` and its excerpt (at most 6000 characters)
 *   joined by spaces and lowercased: the answer's own text, which the observation keeps (a ranked
 *   item's `excerpt`). Only for an answer without one is it the corpus record's text cut to the
 *   characters the entry emitted: an approximation (an import normalises text, e.g. trailing spaces).
 * - gain = signal hit + tag hit + overlap (0 when any `must_exclude_tags_all` token appears); a hit
 *   is any listed token as a substring of the text; overlap = min(1, 1.5 x |query tokens found| /
 *   |query tokens|) over sets of tokens (runs of letters and digits, 3 or more, lowercased), rounded
 *   to 6 decimals; the gain is rounded to 6 decimals.
 * - nDCG@5 = DCG of the first five gains with gain 2^g - 1 and discount log2(i + 1), over the DCG of
 *   the same list's gains sorted descending (the ideal comes from the returned list, not from
 *   judgments); 0 when that ideal is 0; rounded to 6 decimals.
 * - The entries scored are the ranked ones in answer order (with `ranked_entries: auto`, the `task:`
 *   entries when any, else all: the harness's own choice). An errored request scores 0.
 * - Aggregate: the median over queries (mean of the middle two for an even count), rounded to 6.
 * Rounding is Python's `round(x, 6)`: the double's exact decimal value, ties to even.
 */

const K = 5;
const EXCERPT_MAX = 6000;

/** Python's round(x, digits): correctly rounded from the double's exact decimal expansion, ties to even. */
export function pythonRound(x: number, digits: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const neg = x < 0;
  // toFixed(100) is exact for any double >= 1e-100 in magnitude: the binary fraction ends within it
  const exact = Math.abs(x).toFixed(100);
  const dot = exact.indexOf('.');
  const keep = exact.slice(0, digits > 0 ? dot + 1 + digits : dot);
  const rest = exact.slice(dot + 1 + digits);
  const first = rest.charCodeAt(0) - 48;
  const beyond = /[1-9]/.test(rest.slice(1));
  const lastDigit = keep.charCodeAt(keep.length - 1) - 48;
  const up = first > 5 || (first === 5 && (beyond || lastDigit % 2 === 1));
  let v = Number(keep);
  if (up) v = Number((v + 10 ** -digits).toFixed(digits));
  return neg ? -v : v;
}

/** Runs of letters and digits of 3 or more, lowercased (the harness's tokens). */
export function harnessTokens(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((t) => [...t].length >= 3);
}

export interface CortexRules {
  text: string;
  must_include_signals_any?: readonly string[];
  must_include_tags_any?: readonly string[];
  must_exclude_tags_all?: readonly string[];
}

/** The harness's gain for one entry, from its judged text (path, selected_by, excerpt). */
export function cortexPhase2Gain(
  q: CortexRules,
  entry: { path: string; selected_by: string; excerpt: string },
): number {
  const text = [entry.path, entry.selected_by, entry.excerpt.slice(0, EXCERPT_MAX)].join(' ').toLowerCase();
  const hit = (tokens: readonly string[] | undefined) =>
    (tokens ?? []).some((t) => text.includes(t.toLowerCase()));
  if (hit(q.must_exclude_tags_all)) return 0;
  const queryTokens = new Set(harnessTokens(q.text));
  let overlap = 0;
  if (queryTokens.size > 0) {
    const doc = new Set(harnessTokens(text));
    let found = 0;
    for (const t of queryTokens) if (doc.has(t)) found++;
    overlap = pythonRound(Math.min(1, (found / queryTokens.size) * 1.5), 6);
  }
  return pythonRound(
    (hit(q.must_include_signals_any) ? 1 : 0) + (hit(q.must_include_tags_any) ? 1 : 0) + overlap,
    6,
  );
}

function dcg(gains: readonly number[]): number {
  let total = 0;
  gains.slice(0, K).forEach((g, i) => {
    total += (2 ** g - 1) / Math.log2(i + 2);
  });
  return total;
}

/** nDCG@5 of gains in answer order, the ideal taken from the same gains sorted descending. */
export function cortexPhase2Ndcg5(gains: readonly number[]): number {
  const ideal = dcg([...gains].sort((a, b) => b - a));
  return ideal <= 0 ? 0 : pythonRound(dcg(gains) / ideal, 6);
}

/** The median of per-query values, rounded as the harness reports it (0 for none). */
export function cortexPhase2Median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return pythonRound(s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2, 6);
}

export interface CortexPhase2Figures {
  /** per query (query set order): its rule-judged nDCG@5 and the gains of its ranked entries */
  queries: { query_id: string; ndcg_5: number; gains: number[] }[];
  median_ndcg_5: number;
}

/**
 * The harness's figures on replay 1 of a run: per query and the median. `corpus` gives each entry's
 * text where an answer kept no excerpt; an entry without either is judged on its path and
 * `selected_by` alone.
 */
export function cortexPhase2Figures(
  queries: readonly (CortexRules & { query_id: string })[],
  corpusText: ReadonlyMap<string, string>,
  firstObservation: (queryId: string) =>
    | {
        ok: boolean;
        ranked: readonly { id: string; selected_by?: string; chars?: number; excerpt?: string }[];
      }
    | undefined,
): CortexPhase2Figures {
  const rows = queries.map((q) => {
    const o = firstObservation(q.query_id);
    const gains = o?.ok
      ? o.ranked.map((r) =>
          cortexPhase2Gain(q, {
            path: r.id,
            selected_by: r.selected_by ?? '',
            excerpt: r.excerpt ?? (corpusText.get(r.id) ?? '').slice(0, r.chars ?? EXCERPT_MAX),
          }),
        )
      : [];
    return { query_id: q.query_id, ndcg_5: cortexPhase2Ndcg5(gains), gains };
  });
  return { queries: rows, median_ndcg_5: cortexPhase2Median(rows.map((r) => r.ndcg_5)) };
}
