/**
 * Before a comparison runs anything: refuse variants that cannot differ. A sweep whose grid points all
 * resolve to the same effective config, or a `system.params.<key>` the system never receives (no
 * `{params.<key>}` in its argv, env, filters or headers), would save variants that read as "this
 * setting has no effect" when the truth is "this setting never reached the system".
 */
import { join } from 'node:path';
import { canonicalJson } from '../core/canonical-json.js';
import { RgateError } from '../core/errors.js';
import { resolveConfig } from '../core/resolve-config.js';
import type { SuiteSpec } from '../documents/index.js';
import { FIXTURE_FILES } from '../snapshot/types.js';
import { readConfigFile } from '../snapshot/read-artifacts.js';
import { resolveFixtureDir } from '../snapshot/fixture-set.js';
import { withSystemParams } from '../../harness/run-plan.js';
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
  // a worker gets the whole config, system.params included, with every request
  if (!(sys.type === 'command' && sys.worker === true)) {
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
  if (kind !== 'sweep') return;
  const dir = resolveFixtureDir(spec.fixture, root);
  const base = resolveConfig(withSystemParams(spec), readConfigFile(join(dir, FIXTURE_FILES.config)).config);
  const resolved = new Set(variants.map((v) => canonicalJson(resolveConfig(v.overrides, base))));
  if (resolved.size < 2) {
    throw new RgateError(
      'usage',
      `every grid point of the sweep resolves to the same config (${variants.map((v) => v.label).join(' | ')}), so there is nothing to compare`,
      'sweep a key whose value the variants actually change',
    );
  }
}
