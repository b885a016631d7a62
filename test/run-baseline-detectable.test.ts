import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runSuite } from '../harness/run-suite.js';
import { storedBaselineFor } from '../harness/run-baseline.js';
import { setSuiteBaseline } from '../history/baseline.js';
import { loadGatePolicy } from '../gates/index.js';
import { renderJunit, renderMarkdown, renderTerminal } from '../reports/index.js';
import { baselineFromReportFile } from '../src/cli/baseline-input.js';
import { meanDetectable } from '../src/metrics/index.js';
import type { Report, SuiteSpec } from '../src/documents/index.js';
import { loadFixtureSet } from '../src/snapshot/index.js';
import { SqliteRunStore } from '../src/store/index.js';
import { tempDir } from './history-helpers.js';

/**
 * A `vs_baseline` rule of `rgate run` states the smallest change its paired per-query differences
 * could detect (issue 37), whether the baseline is the store's or a report file, checked against
 * the differences paired here by query id from the two reports.
 */
const REPO = resolve(import.meta.dirname, '..');
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

const GATE = {
  gate_id: 'baseline-detectable',
  version: '0.1.0',
  description: 'baseline rules on ranking measures',
  source: 'test',
  min_queries: 1,
  rules: [
    { metric: 'recall.10', vs_baseline: 'not_below', min: -0.05, description: 'recall' },
    { metric: 'ndcg_cut.5', vs_baseline: 'uplift', min: 0, description: 'ndcg' },
  ],
};

function spec(gate: string, mode: 'bm25' | 'semantic'): SuiteSpec {
  return {
    fixture: 'context-load',
    system: { type: 'builtin', mode },
    config: { mode },
    gate,
    replays: 1,
    ranking_measures: ['recall.10', 'ndcg_cut.5'],
  };
}

/** b - a per query id both measured, in code-unit order of the ids. */
function differences(a: Report, b: Report, metric: string): number[] {
  const of = (r: Report) =>
    new Map(
      r.queries.flatMap((q) =>
        q.measures?.[metric] !== undefined ? [[q.query_id, q.measures[metric]!]] : [],
      ),
    );
  const va = of(a);
  const vb = of(b);
  return [...vb.keys()]
    .filter((q) => va.has(q))
    .sort((x, y) => (x < y ? -1 : x > y ? 1 : 0))
    .map((q) => vb.get(q)! - va.get(q)!);
}

describe('rgate run: a baseline rule states its detectable effect', () => {
  it('from the store and from a report file, the paired differences against the baseline run', async () => {
    const t = tempDir('rgate-base-detect-');
    cleanups.push(t.cleanup);
    const gate = join(t.dir, 'baseline-detectable.gate.json');
    writeFileSync(gate, JSON.stringify(GATE));
    const store = new SqliteRunStore(join(t.dir, 'history.sqlite'));
    const common = { root: REPO, store, startedAt: '2026-11-28T00:00:00Z' };
    const first = await runSuite({ ...common, name: 'ctx', spec: spec(gate, 'bm25'), runId: 'base' });
    store.finishRun('base', {
      status: 'complete',
      finished_at: common.startedAt,
      gate_id: first.report.gate.gate_id,
      verdict: first.report.gate.verdict,
      metrics: first.report.metrics,
      report: first.report,
    });
    setSuiteBaseline(store, 'ctx', 'base');
    const pinned = loadFixtureSet('context-load', { root: REPO });
    const stored = storedBaselineFor(
      store,
      'ctx',
      loadGatePolicy(gate, REPO),
      pinned.artifacts,
      pinned.freeze,
    );
    const file = join(t.dir, 'base.json');
    writeFileSync(file, JSON.stringify(first.report));
    for (const baseline of [stored!, baselineFromReportFile(file)]) {
      const second = await runSuite({
        ...common,
        name: 'ctx',
        spec: spec(gate, 'semantic'),
        runId: `now-${baseline.source.length}`,
        baseline,
      });
      const r = second.report;
      const recall = r.gate.rules.find((x) => x.metric === 'recall.10')!;
      const d = differences(first.report, r, 'recall.10');
      expect(d.some((x) => x !== d[0])).toBe(true);
      expect(recall.detectable).toEqual(meanDetectable(d, 'drop', 'paired'));
      expect(recall.detectable?.basis).toBe('paired');
      expect(recall.detectable?.n).toBe(d.length);
      // an uplift's detectable change is relative to the baseline's value
      const ndcg = r.gate.rules.find((x) => x.metric === 'ndcg_cut.5')!;
      const base = first.report.metrics.find((m) => m.id === 'ndcg_cut.5')!.value;
      const b = base.kind === 'mean' ? (base.mean ?? NaN) : NaN;
      const found = meanDetectable(differences(first.report, r, 'ndcg_cut.5'), 'drop', 'paired')!;
      expect(ndcg.detectable?.effect).toBeCloseTo(found.effect / b, 12);
      // every format says it
      for (const text of [renderTerminal(r), renderMarkdown(r), renderJunit(r)])
        expect(text).toContain('per-query differences');
      expect(renderMarkdown(r)).toMatch(
        /recall\.10 vs baseline: a drop of [\d.]+ \(n=\d+ per-query differences/,
      );
    }
    store.close();
  });
});
