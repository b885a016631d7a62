import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GATE_MEASURES } from './gate/registry.js';
import { isKnownMetricId, knownMetricIds } from './_known.js';
import { RANKING_MEASURES } from './registry.js';

/** file name of a measure id: ndcg_cut -> ndcg-cut, P -> p, Rprec -> rprec */
const fileOf = (id: string): string => `${id.replace(/_/g, '-').toLowerCase()}.ts`;
const measureFiles = (dir: URL): string[] =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.startsWith('_'))
    .filter((f) => f !== 'registry.ts' && f !== 'index.ts')
    .sort();

describe('measure registries', () => {
  it('every ranking measure file in src/metrics is registered, and every registered measure has its file', () => {
    const files = measureFiles(new URL('.', import.meta.url));
    expect(RANKING_MEASURES.map((m) => fileOf(m.id)).sort()).toEqual(files);
  });

  it('every gate measure file in src/metrics/gate is registered (latency.ts reports under timing)', () => {
    const files = measureFiles(new URL('./gate/', import.meta.url)).filter((f) => f !== 'latency.ts');
    const registered = GATE_MEASURES.map((m) =>
      m.id.startsWith('judged@') ? 'judged.ts' : fileOf(m.id),
    ).sort();
    expect(registered).toEqual(files);
  });

  it('every measure has help text stating its definition and source or what it counts', () => {
    for (const m of RANKING_MEASURES) expect(m.help, m.id).toMatch(/Source:/);
    for (const m of GATE_MEASURES) expect(m.help, m.id).toMatch(/numerator|n = /);
  });

  it('isKnownMetricId accepts gate ids and single-valued ranking ids, and nothing else', () => {
    for (const id of [
      'top1_useful_rate',
      'error_rate',
      'ndcg_cut.5',
      'P.30',
      'recall.1000',
      'map',
      'ndcg.1=3,2=9',
    ]) {
      expect(isKnownMetricId(id), id).toBe(true);
    }
    for (const id of ['P', 'ndcg_cut', 'P.5,10', 'P.0', 'top1', 'map.5', 'gm_map', 'ndcg_cut.x']) {
      expect(isKnownMetricId(id), id).toBe(false);
    }
    const all = knownMetricIds();
    expect(all).toContain('ndcg_cut.10');
    expect(all).toContain('success.1');
    expect(all).toContain('judged@10');
    expect(all.every(isKnownMetricId)).toBe(true);
  });
});
