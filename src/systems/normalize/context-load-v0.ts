import {
  validateContextLoadV0,
  validateContextLoadV0Measurable,
} from '../../contracts/responses/context-load-v0.js';
import type {
  ContextLoadV0Measurable,
  ContextLoadV0MeasurableEntry,
  ContextLoadV0Response,
  RankedItem,
} from '../../documents/index.js';
import { estimateTokens, type NormalizeOptions, type ResponseNormalizer } from './types.js';

/** Levels that mean "no fallback happened": the first stage of restricted -> relaxed -> unrestricted, or none. */
const FIRST_LEVELS = new Set(['restricted', 'none', 'primary', '0']);

function entryId(e: ContextLoadV0MeasurableEntry): string {
  return e.record_id ?? e.id ?? e.provenance?.record_id ?? e.path ?? '';
}
function entryPath(e: ContextLoadV0MeasurableEntry): string {
  return e.source_path ?? e.path ?? e.provenance?.source_path ?? '';
}
function entryChars(e: ContextLoadV0MeasurableEntry): number {
  return e.chars ?? (e.text ?? e.content ?? e.excerpt ?? '').length;
}
/** what a rule judge reads of the entry: its emitted text, at most EXCERPT_KEPT characters */
const EXCERPT_KEPT = 6000;
function entryExcerpt(e: ContextLoadV0MeasurableEntry): { excerpt?: string } {
  const t = e.excerpt ?? e.text ?? e.content;
  return t === undefined ? {} : { excerpt: t.slice(0, EXCERPT_KEPT) };
}
/** seed 000 puts the combined score in score_breakdown; cortex-coach puts it on the entry */
function entryScore(e: ContextLoadV0MeasurableEntry): number {
  return e.score_breakdown?.combined_score ?? e.combined_score ?? 0;
}
function entryBreakdown(e: ContextLoadV0MeasurableEntry): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(e.score_breakdown ?? {})) if (typeof v === 'number') out[k] = v;
  if (out['combined_score'] === undefined && e.combined_score !== undefined) {
    out['combined_score'] = e.combined_score;
  }
  return out;
}

/** Split the answer's entries into the ranked ones, in ranking order, and the rest (see NormalizeOptions). */
export function splitRankedEntries<E extends { selected_by?: string; rank?: number | null }>(
  entries: readonly E[],
  rule = 'auto',
): { ranked: E[]; unranked: E[] } {
  let keep: (e: E) => boolean;
  if (rule === 'all') keep = () => true;
  else if (rule === 'rank') keep = (e) => Number.isInteger(e.rank);
  else {
    const prefix = rule.startsWith('selected_by:') ? rule.slice('selected_by:'.length) : 'task:';
    keep = (e) => (e.selected_by ?? '').startsWith(prefix);
    // the seed harness: the task-selected entries when there are any, else every entry
    if (rule === 'auto' && !entries.some(keep)) keep = () => true;
  }
  const ranked = entries.filter(keep);
  if (rule === 'rank') {
    // by stated rank, ties by answer order: a total order
    const at = new Map(entries.map((e, i) => [e, i]));
    ranked.sort((a, b) => a.rank! - b.rank! || at.get(a)! - at.get(b)!);
  }
  return { ranked, unranked: entries.filter((e) => !keep(e)) };
}

/**
 * context-load v0 (seed 000), `entries[]` or the real-world `files[]` variant. Ranked = the emitted entries
 * in order, score = combined_score (in `score_breakdown`, else on the entry). Usage: the response's `usage`
 * when given, else files = entries, chars = sum of entry `chars` (or text/content/excerpt length),
 * tokens = ceil(chars / 4). Fallback: triggered when `fallback_level` names a stage after the first
 * (restricted / 0); attempts = the stages listed in `fallback_attempts`; reason = the answer's `reason`
 * when it fell back and stated one (its `reason_detail` is not read). Which entries are ranked is the
 * suite's `ranked_entries` (default `auto`: the `task:` entries when any, else all, as seed 000's Phase 2
 * harness evaluates); the others are listed as `unranked`, and count in usage. Measurable without the
 * seed's letter-only fields (see the document): cortex-coach's real output is measured, its
 * violations listed.
 */
export const contextLoadV0Normalizer: ResponseNormalizer<ContextLoadV0Response, ContextLoadV0Measurable> = {
  validate: validateContextLoadV0,
  measurable: validateContextLoadV0Measurable,
  crossCheck(p) {
    const n = (p.entries ?? p.files ?? []).length;
    const out: string[] = [];
    if (p.entries && p.files) out.push('/files: must not be given together with entries');
    if (p.selected_count !== n) out.push(`/selected_count: must equal the number of entries (${n})`);
    return out;
  },
  toObservation(p, options: NormalizeOptions) {
    const entries = p.entries ?? p.files ?? [];
    const split = splitRankedEntries(entries, options.rankedEntries);
    const ranked: RankedItem[] = split.ranked.map((e) => ({
      id: entryId(e),
      source_path: entryPath(e),
      score: entryScore(e),
      score_breakdown: entryBreakdown(e),
      chars: entryChars(e),
      ...(e.tags ? { tags: e.tags } : {}),
      ...(e.selected_by !== undefined ? { selected_by: e.selected_by } : {}),
      ...entryExcerpt(e),
    }));
    const level = p.fallback_level;
    const triggered = level !== undefined && level !== null && !FIRST_LEVELS.has(String(level));
    const attempts = Array.isArray(p.fallback_attempts)
      ? p.fallback_attempts.map((a) => (typeof a === 'string' ? a : String(a.stage ?? a.level ?? '')))
      : undefined;
    const noMatch = p.no_match === true || ranked.length === 0;
    // usage is what the answer loaded: every entry, ranked or not
    const chars = p.usage?.chars ?? entries.reduce((s, e) => s + entryChars(e), 0);
    const top = ranked[0];
    return {
      ...(noMatch
        ? {
            selection_mode: 'no_match' as const,
            no_match_reason:
              p.reason ?? (entries.length === 0 ? 'no entries selected' : 'no entry the suite ranks'),
          }
        : { selected_id: top?.id, source_path: top?.source_path }),
      ranked,
      ...(split.unranked.length > 0
        ? {
            unranked: split.unranked.map((e) => ({
              id: entryId(e),
              source_path: entryPath(e),
              ...(e.selected_by !== undefined ? { selected_by: e.selected_by } : {}),
            })),
          }
        : {}),
      fallback: {
        triggered,
        ...(level !== undefined && level !== null ? { stage: String(level) } : {}),
        ...(attempts ? { attempts } : {}),
        ...(triggered && p.reason?.trim() ? { reason: p.reason } : {}),
      },
      usage: {
        files: p.usage?.files ?? entries.length,
        chars,
        tokens: p.usage?.tokens ?? estimateTokens(chars),
      },
    };
  },
  rankedIdPath(p, i, options: NormalizeOptions) {
    const key = p.entries ? 'entries' : 'files';
    const entries = p.entries ?? p.files ?? [];
    // the ranked entries may be reordered (ranked_entries: rank): name the entry where it stands
    const e = splitRankedEntries(entries, options.rankedEntries).ranked[i];
    return `/${key}/${e ? entries.indexOf(e) : i}`;
  },
};
