import type { PartialConfig, RetrievalConfig } from '../documents/index.js';

/**
 * Defaults for every config key, so a config snapshot may state only what it changes. The resolved
 * (complete) config is what gets hashed into config_id, so a default changing later changes the id.
 */
export const DEFAULT_CONFIG: RetrievalConfig = {
  mode: 'context-load',
  retrieval_profile: 'medium',
  weighting_mode: 'uniform',
  k: 10,
  budgets: {},
  fallback: { enabled: true },
  semantic: { confidence_min: 0.35, ambiguity_margin: 0.02 },
  embedding: { dimensions: 768 },
  bm25: { k1: 0.9, b: 0.4 },
  analyzer: { lowercase: true, stopwords: true, stemmer: 'porter' },
  as_of: '1970-01-01T00:00:00Z',
  freshness_half_life_days: 90,
};

/** Deep-merge overrides onto a base config (plain objects merge, everything else replaces). Never mutates. */
export function resolveConfig(
  overrides: PartialConfig = {},
  base: RetrievalConfig = DEFAULT_CONFIG,
): RetrievalConfig {
  return merge(base, overrides) as RetrievalConfig;
}

function merge(a: unknown, b: unknown): unknown {
  if (b === undefined) return clone(a);
  if (isPlain(a) && isPlain(b)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(a).sort()) out[k] = clone(a[k]);
    for (const k of Object.keys(b).sort()) out[k] = merge(a[k], b[k]);
    return out;
  }
  return clone(b);
}

function clone(v: unknown): unknown {
  return v === undefined ? undefined : JSON.parse(JSON.stringify(v));
}

function isPlain(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
