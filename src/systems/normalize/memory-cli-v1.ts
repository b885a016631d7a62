import { validateMemoryCliV1, type MemoryCliV1Response } from '../../contracts/responses/memory-cli-v1.js';
import type { ResponseNormalizer } from './types.js';

/**
 * memory CLI v1 (seed 001). Ranked = `candidates` in order. Fallback: triggered for the fallback modes
 * (and no_match), stage = `fallback.stage` or the mode without its `fallback_` prefix, attempts = the
 * stages of `fallback.trace`. Usage: the answer carries no text, so files = 1 when something was selected,
 * chars = tokens = 0.
 */
export const memoryCliV1Normalizer: ResponseNormalizer<MemoryCliV1Response> = {
  validate: validateMemoryCliV1,
  toObservation(p) {
    const mode = p.selection_mode;
    const triggered = p.fallback?.triggered ?? mode !== 'semantic';
    const stage =
      p.fallback?.stage ??
      (mode === 'semantic' ? undefined : mode === 'no_match' ? 'no_match' : mode.replace(/^fallback_/, ''));
    const attempts = p.fallback?.trace?.map((s) => [s.stage, s.outcome].filter(Boolean).join(':'));
    return {
      selection_mode: mode,
      ...(p.selected_id !== null ? { selected_id: p.selected_id } : {}),
      ...(p.source_path !== null ? { source_path: p.source_path } : {}),
      ...(mode === 'no_match' ? { no_match_reason: p.reason } : {}),
      ranked: p.candidates.map((c) => ({ id: c.id, source_path: c.source_path ?? '', score: c.score })),
      fallback: { triggered, ...(stage ? { stage } : {}), ...(attempts ? { attempts } : {}) },
      usage: { files: p.selected_id !== null ? 1 : 0, chars: 0, tokens: 0 },
    };
  },
};
