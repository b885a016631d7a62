import { RgateError } from '../core/errors.js';
import type { PartialConfig } from '../documents/index.js';

/**
 * `--set key=value` flags into a nested config override: dotted keys nest (`bm25.k1=1.2`); values
 * parse as JSON when they can (numbers, booleans, arrays) and stay strings otherwise.
 */
export function parseSetFlags(flags: readonly string[]): PartialConfig {
  const out: Record<string, unknown> = {};
  for (const f of flags) {
    const eq = f.indexOf('=');
    if (eq <= 0)
      throw new RgateError(
        'usage',
        `--set ${f}: expected key=value`,
        'for example --set weighting_mode=uniform',
      );
    const path = f.slice(0, eq).split('.');
    const raw = f.slice(eq + 1);
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      /* a bare string */
    }
    let node = out;
    for (const k of path.slice(0, -1)) {
      const next = node[k];
      node = (typeof next === 'object' && next !== null ? next : (node[k] = {})) as Record<string, unknown>;
    }
    node[path[path.length - 1]!] = value;
  }
  return out as PartialConfig;
}
