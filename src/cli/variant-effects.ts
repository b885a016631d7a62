/**
 * Before a comparison (or a `rgate run --set`) runs anything: refuse variants that cannot differ. A
 * sweep whose grid points all resolve to the same effective config, a `system.params.<key>` the system
 * never receives (no `{params.<key>}` in its argv, env, filters or headers), or a config key the
 * builtin engine's mode never reads (src/engine/engine-reads.ts) would save variants that read as
 * "this setting has no effect" when the truth is "this setting never reached the system".
 */
import { join } from 'node:path';
import { canonicalJson } from '../core/canonical-json.js';
import { RgateError } from '../core/errors.js';
import { SEMANTIC_DEFAULTS } from '../core/defaults.js';
import { resolveConfig } from '../core/resolve-config.js';
import type { SuiteSpec } from '../documents/index.js';
import { FIXTURE_FILES } from '../snapshot/types.js';
import { readConfigFile } from '../snapshot/read-artifacts.js';
import { resolveFixtureDir } from '../snapshot/fixture-set.js';
import { withSystemParams } from '../../harness/run-plan.js';
import { builtinMode } from '../systems/builtin-adapter.js';
import { engineReads, readersOf, readInstead } from '../engine/index.js';
import type { RetrievalConfig } from '../documents/index.js';
import type { VariantSpec } from '../../history/compare-variants.js';

/** The placeholder texts a system receives per request (argv, env, http filters and headers). */
function templates(spec: SuiteSpec['system']): string[] {
  if (spec.type === 'command') return [...spec.argv, ...Object.values(spec.env ?? {})];
  if (spec.type === 'http')
    return [...Object.values(spec.filters ?? {}), ...Object.values(spec.headers ?? {})];
  return [];
}

function paramKeys(v: unknown, prefix = ''): string[] {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return prefix ? [prefix] : [];
  return Object.keys(v)
    .sort()
    .flatMap((k) => paramKeys((v as Record<string, unknown>)[k], prefix ? `${prefix}.${k}` : k));
}

/** Does some template read this parameter (or a parent object of it, or the whole config)? */
function received(texts: readonly string[], key: string): boolean {
  const parts = key.split('.');
  const wanted = parts.map((_, i) => `{params.${parts.slice(0, i + 1).join('.')}}`);
  return texts.some(
    (t) => t.includes('{config.system') || wanted.some((w) => t.includes(w)) || t.includes(`{params.${key}.`),
  );
}

export function checkVariantEffects(
  variants: readonly VariantSpec[],
  kind: 'variants' | 'sweep',
  spec: SuiteSpec,
  root: string,
): void {
  const sys = spec.system;
  // a worker and a module get the whole config, system.params included, with every request
  // the builtin engine takes no params: planRun refuses them with its own message
  if (sys.type !== 'builtin' && sys.type !== 'module' && !(sys.type === 'command' && sys.worker === true)) {
    const texts = templates(sys);
    for (const v of variants) {
      for (const key of paramKeys(v.overrides.system?.params)) {
        if (received(texts, key)) continue;
        const used = [...new Set(texts.flatMap((t) => t.match(/\{params\.[\w.]+\}/g) ?? []))].sort();
        throw new RgateError(
          'usage',
          `variant "${v.label}": the system never receives system.params.${key} (no {params.${key}} in its ${sys.type === 'http' ? 'filters or headers' : 'argv or env'}), so this variant would change nothing`,
          used.length
            ? `the system reads ${used.join(', ')}`
            : `pass it on, e.g. "argv": [..., "--mode", "{params.${key}}"] in the suite's system`,
        );
      }
    }
  }
  if (kind !== 'sweep' && sys.type !== 'builtin') return;
  const dir = resolveFixtureDir(spec.fixture, root);
  const base = resolveConfig(withSystemParams(spec), readConfigFile(join(dir, FIXTURE_FILES.config)).config);
  if (sys.type === 'builtin') for (const v of variants) checkEngineReads(v, spec, base);
  if (kind !== 'sweep') return;
  const resolved = new Set(variants.map((v) => canonicalJson(resolveConfig(v.overrides, base))));
  if (resolved.size < 2) {
    throw new RgateError(
      'usage',
      `every grid point of the sweep resolves to the same config (${variants.map((v) => v.label).join(' | ')}), so there is nothing to compare`,
      'sweep a key whose value the variants actually change',
    );
  }
}

/** The dotted leaf paths where two resolved configs differ (an array is one leaf), sorted. */
function differingKeys(a: unknown, b: unknown, prefix = ''): string[] {
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  // an object on one side only: its leaves are what differ
  if (a === undefined && isObject(b)) return differingKeys({}, b, prefix);
  if (b === undefined && isObject(a)) return differingKeys(a, {}, prefix);
  if (!isObject(a) || !isObject(b)) {
    if (a === undefined || b === undefined) return a === b ? [] : [prefix];
    return canonicalJson(a) === canonicalJson(b) ? [] : [prefix];
  }
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return keys.flatMap((k) => differingKeys(a[k], b[k], prefix ? `${prefix}.${k}` : k));
}

/**
 * Refuse a variant that changes a config key the builtin engine, in the mode and semantic method the
 * variant runs, never reads. Read besides the engine's own lists: `budgets` (the harness measures
 * every answer against them, budget_compliance), `system.*` and `mode` when the suite's system does
 * not fix its own.
 */
function checkEngineReads(v: VariantSpec, spec: SuiteSpec, base: RetrievalConfig): void {
  const sys = spec.system;
  if (sys.type !== 'builtin') return;
  const cfg = resolveConfig(v.overrides, base);
  const mode = builtinMode(sys.mode, cfg);
  const fixed = sys.mode !== undefined || cfg.system?.mode !== undefined;
  const read = (key: string): boolean =>
    key === 'budgets' ||
    key.startsWith('budgets.') ||
    // system.mode is the mode itself; planRun refuses the other system keys on a builtin system
    key.startsWith('system.') ||
    (key === 'mode' && !fixed) ||
    engineReads(mode, cfg, key);
  const key = differingKeys(base, cfg).find((k) => !read(k));
  if (key === undefined) return;
  const engine =
    mode === 'semantic'
      ? `builtin:semantic (method ${cfg.semantic.method ?? SEMANTIC_DEFAULTS.method})`
      : `builtin:${mode}`;
  const instead = key === 'mode' ? 'system.mode' : readInstead(mode, cfg, key);
  const readers = readersOf(key);
  const why = instead
    ? `did you mean ${instead}?`
    : readers.length
      ? `it is read by ${readers.join(', ')}`
      : 'no engine mode reads it';
  throw new RgateError(
    'usage',
    `variant "${v.label}": ${engine} never reads ${key}, so this variant would change nothing; ${why}`,
    key === 'mode'
      ? `the suite's builtin system fixes its mode (system.mode in rgate.config.json); --set system.mode=${cfg.mode} runs the engine in that mode`
      : `a setting the engine never reads changes the config id and no answer; set a key ${engine} reads`,
  );
}
