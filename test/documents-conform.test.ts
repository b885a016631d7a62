import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadGatePolicy } from '../gates/index.js';
import { runSuite } from '../harness/run-suite.js';
import { setSuiteBaseline, showBaseline } from '../history/baseline.js';
import { buildCloseout } from '../history/closeout.js';
import { runCompare } from '../history/compare.js';
import { diffReports } from '../history/diff.js';
import { historyFromStore } from '../history/trends.js';
import { compileSchema, formatAjvErrors } from '../src/contracts/ajv.js';
import { validateReportSchema } from '../src/contracts/report.js';
import {
  BaselineInfoSchema,
  CloseoutDocSchema,
  CompareSessionSchema,
  HistoryViewSchema,
  ObservationSchema,
  RunDiffSchema,
  RunRowSchema,
  type PartialConfig,
  type SuiteSpec,
} from '../src/documents/index.js';
import { loadFixtureSet } from '../src/snapshot/index.js';
import { MemoryRunStore, type RunStore } from '../src/store/index.js';
import { hostileCloseout, hostileSession } from './compare-helpers.js';

/**
 * The documents rgate builds and keeps, checked against the schemas they are typed by: a schema that
 * compiles under strict ajv and accepts what the code really produces, so a type and its schema
 * cannot drift apart unnoticed.
 */
const root = resolve(import.meta.dirname, '..');
const spec: SuiteSpec = {
  fixture: 'context-load',
  system: { type: 'builtin', mode: 'context-load' },
  gate: 'context-load-contract-v0',
  replays: 2,
};

function conforms(schema: object, doc: unknown): string[] {
  const validate = compileSchema(schema);
  return validate(doc) ? [] : formatAjvErrors(validate.errors);
}

async function run(store: RunStore, runId: string, config?: PartialConfig) {
  const { report } = await runSuite({
    name: 'context-load',
    root,
    spec,
    store,
    runId,
    startedAt: `2026-11-2${runId.slice(-1)}T00:00:00Z`,
    ...(config ? { config } : {}),
  });
  store.finishRun(runId, {
    status: 'complete',
    finished_at: `2026-11-2${runId.slice(-1)}T00:00:01Z`,
    gate_id: report.gate.gate_id,
    verdict: report.gate.verdict,
    metrics: report.metrics,
    report,
  });
  return report;
}

describe('documents conform to their schemas', () => {
  it('report, observations, run rows, history, baseline, diff and closeout of real runs', async () => {
    const store = new MemoryRunStore();
    const a = await run(store, 'run-1');
    const b = await run(store, 'run-2', { weighting_mode: 'evidence_outcome_bias' });

    expect(validateReportSchema(b), formatAjvErrors(validateReportSchema.errors).join('\n')).toBe(true);
    expect(store.getObservations('run-2').flatMap((o) => conforms(ObservationSchema, o))).toEqual([]);
    expect(store.listRuns().flatMap((r) => conforms(RunRowSchema, r))).toEqual([]);
    expect(conforms(HistoryViewSchema, historyFromStore(store, 'context-load'))).toEqual([]);
    expect(conforms(RunDiffSchema, diffReports(a, b))).toEqual([]);

    setSuiteBaseline(store, 'context-load', 'run-1', 'reference');
    expect(conforms(BaselineInfoSchema, showBaseline(store, 'context-load'))).toEqual([]);
    const closeout = buildCloseout({
      suite: 'context-load',
      policy: loadGatePolicy('context-load-contract-v0', root),
      pinned: loadFixtureSet('context-load', { root }),
      store,
      residuals: [{ id: 'R1', risk: 'r', owner: 'o', due: '2026-12-01' }],
    });
    expect(conforms(CloseoutDocSchema, closeout)).toEqual([]);
    expect(conforms(CloseoutDocSchema, hostileCloseout())).toEqual([]);
  });

  it('a comparison session', async () => {
    const session = await runCompare({
      suite: 'context-load',
      spec,
      root,
      variants: [
        { label: 'weighting_mode=uniform', overrides: { weighting_mode: 'uniform' } },
        {
          label: 'weighting_mode=evidence_outcome_bias',
          overrides: { weighting_mode: 'evidence_outcome_bias' },
        },
      ],
      kind: 'variants',
      sessionId: 'cmp-conform',
      createdAt: '2026-11-22T00:00:00Z',
      replays: 1,
      resamples: 200,
      permutations: 200,
    });
    expect(conforms(CompareSessionSchema, session)).toEqual([]);
    expect(conforms(CompareSessionSchema, hostileSession())).toEqual([]);
  });
});
