/**
 * The variants of a tuning comparison: one per `--set` (several `key=value` pairs in one --set,
 * separated by spaces, form one variant) or one per grid point of `--sweep key=start:stop:step`.
 */
import { RgateError } from '../src/core/errors.js';
import type { PartialConfig, SweepSpec } from '../src/documents/index.js';

export interface VariantSpec {
  /** what the user typed, normalised: "weighting_mode=uniform" or "bm25.k1=0.9" */
  label: string;
  overrides: PartialConfig;
  /** the grid value of a sweep point */
  sweep_value?: number;
}

/** A sweep never runs more points than this: a grid is for a handful of values, not a search. */
export const MAX_SWEEP_POINTS = 25;

/** Round away binary noise (0.1 + 0.2) so grid values print and hash as the user meant them. */
function tidy(x: number): number {
  return Number.parseFloat(x.toPrecision(12));
}

/** `bm25.k1=0.6:1.2:0.2` -> {key: 'bm25.k1', values: [0.6, 0.8, 1, 1.2]} (stop inclusive). */
export function parseSweep(spec: string): SweepSpec {
  const usage = (why: string): never => {
    throw new RgateError(
      'usage',
      `--sweep ${spec}: ${why}`,
      'for example --sweep bm25.k1=0.6:1.2:0.2 (key=start:stop:step, stop inclusive)',
    );
  };
  const eq = spec.indexOf('=');
  if (eq <= 0) usage('expected key=start:stop:step');
  const key = spec.slice(0, eq).trim();
  if (!/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/.test(key))
    usage(`"${key}" is not a config key path`);
  const parts = spec.slice(eq + 1).split(':');
  if (parts.length !== 3) usage('expected three numbers start:stop:step');
  const [start, stop, step] = parts.map((p) => (p.trim() === '' ? Number.NaN : Number(p)));
  if (![start, stop, step].every((n) => Number.isFinite(n))) usage('start, stop and step must be numbers');
  if (step! <= 0) usage('step must be positive');
  if (stop! < start!) usage('stop must not be below start');
  const count = Math.floor((stop! - start!) / step! + 1e-9) + 1;
  if (count > MAX_SWEEP_POINTS) usage(`${count} grid points; at most ${MAX_SWEEP_POINTS}`);
  if (count < 2) usage('a sweep needs at least two grid points');
  const values = Array.from({ length: count }, (_, i) => tidy(start! + i * step!));
  return { key, values };
}

/** Set a dotted path in a fresh nested object: setPath({}, 'bm25.k1', 0.9) -> {bm25: {k1: 0.9}}. */
function withPath(base: PartialConfig, path: string, value: unknown): PartialConfig {
  const out = JSON.parse(JSON.stringify(base)) as Record<string, unknown>;
  const keys = path.split('.');
  let node = out;
  for (const k of keys.slice(0, -1)) {
    const next = node[k];
    node = (
      typeof next === 'object' && next !== null && !Array.isArray(next) ? next : (node[k] = {})
    ) as Record<string, unknown>;
  }
  node[keys[keys.length - 1]!] = value;
  return out as PartialConfig;
}

/** The grid points of a sweep, each on top of `base` (the one optional --set of a sweep). */
export function sweepVariants(sweep: SweepSpec, base: PartialConfig = {}, baseLabel = ''): VariantSpec[] {
  return sweep.values.map((v) => ({
    label: `${baseLabel ? baseLabel + ' ' : ''}${sweep.key}=${v}`,
    overrides: withPath(base, sweep.key, v),
    sweep_value: v,
  }));
}

/** Split one --set value into its key=value pairs ("a=1 b=2" -> ["a=1", "b=2"]). */
export function splitVariantFlag(flag: string): string[] {
  const pairs = flag.trim().split(/\s+/).filter(Boolean);
  if (pairs.length === 0)
    throw new RgateError('usage', '--set: empty variant', 'for example --set weighting_mode=uniform');
  return pairs;
}

/**
 * Refuse a comparison that cannot compare: fewer than two variants. Two identical variants are
 * allowed on purpose: an A/A comparison is how a team checks the statistics find nothing.
 */
export function checkVariants(variants: readonly VariantSpec[]): void {
  if (variants.length < 2) {
    throw new RgateError(
      'usage',
      `a comparison needs at least two variants (got ${variants.length})`,
      'give one --set per variant, e.g. --set weighting_mode=uniform --set weighting_mode=evidence_outcome_bias, or a --sweep',
    );
  }
}
