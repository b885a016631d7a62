import { describe, expect, it } from 'vitest';
import type { TSchema } from '@sinclair/typebox';
import { resolveConfig } from '../core/resolve-config.js';
import { RetrievalConfigSchema } from '../documents/retrieval-config.js';
import { CONTEXT_LOAD_READS } from './context-load.js';
import { BM25_READS } from './engine.js';
import { engineReads, readersOf, readInstead } from './engine-reads.js';
import { KU_READS } from './ku-context.js';
import { SEMANTIC_READS } from './semantic.js';

/** Every dotted path of the config schema (objects and their fields). */
function schemaPaths(schema: TSchema, prefix = ''): string[] {
  const props = (schema as { properties?: Record<string, TSchema> }).properties;
  if (!props) return [];
  return Object.entries(props).flatMap(([k, s]) => {
    const path = prefix ? `${prefix}.${k}` : k;
    return [path, ...schemaPaths(s, path)];
  });
}

describe('the config keys each engine mode reads', () => {
  it('name keys the config has (a renamed key cannot leave a list stale)', () => {
    const paths = new Set(schemaPaths(RetrievalConfigSchema));
    const lists = [
      ...BM25_READS,
      ...CONTEXT_LOAD_READS,
      ...KU_READS,
      ...SEMANTIC_READS.all,
      ...SEMANTIC_READS.cosine,
      ...SEMANTIC_READS.hybrid_rrf,
      ...Object.keys(SEMANTIC_READS.instead),
      ...Object.values(SEMANTIC_READS.instead),
    ];
    expect(lists.filter((k) => !paths.has(k))).toEqual([]);
  });

  it('semantic reads the gates of its method only; a listed path covers its sub-keys', () => {
    const hybrid = resolveConfig({ mode: 'semantic' });
    const cosine = resolveConfig({ mode: 'semantic', semantic: { method: 'cosine' } });
    expect(engineReads('semantic', hybrid, 'semantic.hybrid_confidence_min')).toBe(true);
    expect(engineReads('semantic', hybrid, 'semantic.confidence_min')).toBe(false);
    expect(engineReads('semantic', cosine, 'semantic.confidence_min')).toBe(true);
    expect(engineReads('semantic', cosine, 'bm25.k1')).toBe(false);
    expect(engineReads('semantic', hybrid, 'bm25.k1')).toBe(true);
    expect(engineReads('context-load', hybrid, 'budgets.tokens')).toBe(true);
    expect(engineReads('context-load', hybrid, 'k')).toBe(false);
    expect(engineReads('bm25', hybrid, 'weighting_mode')).toBe(false);
  });

  it('name what reads a key instead, and the gate of the same job', () => {
    expect(readersOf('weighting_mode')).toEqual(['mode context-load']);
    expect(readersOf('semantic.confidence_min')).toEqual(['semantic method cosine']);
    expect(readersOf('k')).toEqual(['mode bm25', 'mode semantic']);
    const hybrid = resolveConfig({ mode: 'semantic' });
    expect(readInstead('semantic', hybrid, 'semantic.confidence_min')).toBe('semantic.hybrid_confidence_min');
    expect(readInstead('semantic', hybrid, 'semantic.hybrid_margin_min')).toBeUndefined();
    expect(readInstead('context-load', hybrid, 'semantic.confidence_min')).toBeUndefined();
  });
});
