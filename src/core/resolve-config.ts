import type { PartialConfig, RetrievalConfig } from '../documents/index.js';
import { DEFAULT_CONFIG } from './defaults.js';

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
