import {
  memoryCliCrossCheck,
  memoryCliScore,
  validateMemoryCliV1,
  validateMemoryCliV1Measurable,
} from '../../contracts/responses/memory-cli-v1.js';
import type { MemoryCliV1Measurable, MemoryCliV1Response } from '../../documents/index.js';
import type { ResponseNormalizer } from './types.js';

/** Modes that are a deterministic fallback (seed 001: exact-key, then path-priority). */
const FALLBACK_MODES: readonly string[] = ['fallback_exact_key', 'fallback_path_priority'];

/**
 * AthenaMind memory CLI v1 (seed 001). Ranked = `candidates` in order (rank = position); each
 * candidate's score is `fused_score`, else `confidence`, else `lexical_score` (memoryCliScore), and
 * the three are kept as its score breakdown (`lexical_score` absent means 0). Fallback: the CLI's
 * `fallback_used`, else `fallback.triggered`, else "the mode is a fallback mode or no_match" (semantic
 * and hybrid_rrf are not fallbacks); stage = `fallback.stage` or the mode without its `fallback_`
 * prefix; attempts = the stages of `fallback.trace`; reason = the answer's `reason` (the CLI's own words:
 * "semantic confidence gate failed; deterministic path-priority fallback used") on every answer that
 * took a fallback (flagged, or answered in a fallback mode), as no_match keeps it too. Usage: the answer carries no text, so files = 1
 * when something was selected, chars = tokens = 0.
 */
export const memoryCliV1Normalizer: ResponseNormalizer<MemoryCliV1Response, MemoryCliV1Measurable> = {
  validate: validateMemoryCliV1,
  measurable: validateMemoryCliV1Measurable,
  crossCheck: memoryCliCrossCheck,
  toObservation(p) {
    const mode = p.selection_mode;
    const isFallback = FALLBACK_MODES.includes(mode) || mode === 'no_match';
    const triggered = p.fallback_used ?? p.fallback?.triggered ?? isFallback;
    const stage =
      p.fallback?.stage ??
      (mode === 'no_match' ? 'no_match' : isFallback ? mode.replace(/^fallback_/, '') : undefined);
    const attempts = p.fallback?.trace?.map((s) => [s.stage, s.outcome].filter(Boolean).join(':'));
    // "took a fallback" as the measures count it (GateContext.tookFallback): flagged or a fallback mode
    const tookFallback = triggered || FALLBACK_MODES.includes(mode);
    const reason = tookFallback && p.reason?.trim() ? p.reason : undefined;
    return {
      selection_mode: mode,
      ...(p.selected_id !== null ? { selected_id: p.selected_id } : {}),
      ...(p.source_path !== null ? { source_path: p.source_path } : {}),
      ...(mode === 'no_match' && p.reason !== undefined ? { no_match_reason: p.reason } : {}),
      ranked: p.candidates.map((c) => {
        const breakdown: Record<string, number> = {};
        if (c.confidence !== undefined) breakdown['confidence'] = c.confidence;
        if (c.confidence !== undefined || c.lexical_score !== undefined)
          breakdown['lexical_score'] = c.lexical_score ?? 0;
        if (c.fused_score !== undefined) breakdown['fused_score'] = c.fused_score;
        return {
          id: c.id,
          source_path: c.source_path ?? '',
          score: memoryCliScore(c),
          ...(Object.keys(breakdown).length ? { score_breakdown: breakdown } : {}),
        };
      }),
      fallback: {
        triggered,
        ...(stage ? { stage } : {}),
        ...(attempts ? { attempts } : {}),
        ...(reason !== undefined ? { reason } : {}),
      },
      usage: { files: p.selected_id !== null ? 1 : 0, chars: 0, tokens: 0 },
    };
  },
  rankedIdPath(_p, i) {
    return `/candidates/${i}/id`;
  },
};
