import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, SUITE_DEFAULTS, SYSTEM_DEFAULTS } from './defaults.js';

/**
 * The documents' field comments state defaults for readers of the schema; they must say what the
 * one table says (they once disagreed: the seed was documented as 0 while runs used 20261122).
 */
const documents = join(import.meta.dirname, '..', 'documents');

/** `/** ...; default X *\/` followed by `key:` in a TypeBox object, as {key: 'X'}. */
function documentedDefaults(file: string): Record<string, string> {
  const text = readFileSync(join(documents, file), 'utf8');
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/\/\*\*[^*]*?\bdefault ([^\s*;,]+)[^*]*\*\/\s*\n\s*(\w+):/g))
    out[m[2]!] = m[1]!;
  return out;
}

describe('one table of defaults', () => {
  it('the suite fields of rgate.config.json document the values runs use', () => {
    const doc = documentedDefaults('rgate-config.ts');
    expect(Object.keys(doc).sort()).toEqual(Object.keys(SUITE_DEFAULTS).sort());
    for (const [k, v] of Object.entries(SUITE_DEFAULTS)) expect(doc[k], k).toBe(String(v));
  });

  it('the system specs document the adapters’ timeout', () => {
    const doc = documentedDefaults('system-spec.ts');
    expect(doc['timeout_ms']).toBe(String(SYSTEM_DEFAULTS.timeout_ms));
  });

  it('holds the config defaults whose hash every frozen fixture pins', () => {
    expect(DEFAULT_CONFIG.bm25).toEqual({ k1: 0.9, b: 0.4 });
    expect(DEFAULT_CONFIG.semantic).toEqual({ confidence_min: 0.35, ambiguity_margin: 0.02 });
  });
});
