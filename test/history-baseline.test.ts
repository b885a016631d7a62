import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { setSuiteBaseline, showBaseline } from '../history/baseline.js';
import { resolveBaseline, storedBaselineFor } from '../harness/run-baseline.js';
import { checkSnapshotChange } from '../src/snapshot/snapshot-change.js';
import { RgateError } from '../src/core/errors.js';
import type { FreezeHistoryEntry } from '../src/documents/index.js';
import { SqliteRunStore } from '../src/store/index.js';
import { artifacts, outcome, rate, report, storeRun, tempDir } from './history-helpers.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function store(): SqliteRunStore {
  const t = tempDir('rgate-baseline-');
  cleanups.push(t.cleanup);
  return new SqliteRunStore(join(t.dir, 'history.sqlite'));
}

function entry(version: string, reset_note?: string): FreezeHistoryEntry {
  const a = artifacts(version);
  return {
    version,
    frozen_on: '2026-11-01',
    corpus_id: a.corpus_id,
    query_set_id: a.query_set_id,
    config_id: a.config_id,
    ...(reset_note ? { reset_note } : {}),
  };
}

describe('checkSnapshotChange (seed 000 Fixture Freeze Binding)', () => {
  it('accepts the same pinned ids, and a config-override variant of the same frozen config', () => {
    expect(checkSnapshotChange(artifacts('v1'), artifacts('v1'), [entry('v1')])).toEqual({ same: true });
    const variant = artifacts('v1', {
      config_id: `${artifacts('v1').config_id}+overrides`,
      config_sha256: 'sha256:x',
    });
    expect(checkSnapshotChange(artifacts('v1'), variant, [entry('v1')]).same).toBe(true);
  });

  it('refuses a version change without a reset note, naming both ids (exit 2)', () => {
    let err: unknown;
    try {
      checkSnapshotChange(artifacts('v1'), artifacts('v2'), [entry('v1'), entry('v2')], 'baseline run R1');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(RgateError);
    const e = err as RgateError;
    expect(e.exitCode).toBe(2);
    expect(e.message).toContain(
      'query_set_id ctx/queries@v1#bbbbbbbbbbbbbbbb (baseline run R1) vs ctx/queries@v2#bbbbbbbbbbbbbbbb (this run)',
    );
    expect(e.message).toContain('no baseline reset note for v2');
  });

  it('returns the reset notes of every version step since the baseline', () => {
    const c = checkSnapshotChange(artifacts('v1'), artifacts('v3'), [
      entry('v1'),
      entry('v2', 'added 12 probe queries'),
      entry('v3', 'profile budgets changed'),
    ]);
    expect(c).toMatchObject({
      same: false,
      reset_note: 'v2 (2026-11-01): added 12 probe queries; v3 (2026-11-01): profile budgets changed',
    });
    // one step missing its note is enough to refuse
    expect(() =>
      checkSnapshotChange(artifacts('v1'), artifacts('v3'), [
        entry('v1'),
        entry('v2'),
        entry('v3', 'profile budgets changed'),
      ]),
    ).toThrow(/no baseline reset note for v2/);
  });

  it('refuses another fixture set, a version that went down, and a version missing from history', () => {
    expect(() =>
      checkSnapshotChange(artifacts('v1', { artifact_id: 'other' }), artifacts('v2'), [entry('v2', 'n')]),
    ).toThrow(/different fixture sets/);
    expect(() =>
      checkSnapshotChange(artifacts('v2'), artifacts('v1'), [entry('v1'), entry('v2', 'n')]),
    ).toThrow(/did not go up/);
    expect(() => checkSnapshotChange(artifacts('v1'), artifacts('v2'), [entry('v1')])).toThrow(
      /no entry for version v2/,
    );
  });
});

describe('baselines in the run store', () => {
  it('sets the newest complete run by default, refuses incomplete or foreign runs, and shows it', () => {
    const s = store();
    storeRun(s, report({ runId: 'r1', queries: [outcome('q1')], metrics: [rate('recall.10', 8, 10)] }), {
      startedAt: '2026-11-01T00:00:00Z',
    });
    storeRun(s, report({ runId: 'r2', queries: [outcome('q1')] }), {
      startedAt: '2026-11-02T00:00:00Z',
      status: 'interrupted',
    });
    storeRun(s, report({ runId: 'o1', suite: 'other', queries: [] }), { startedAt: '2026-11-03T00:00:00Z' });
    expect(setSuiteBaseline(s, 'ctx', undefined, 'frozen Gate C baseline').run_id).toBe('r1');
    expect(() => setSuiteBaseline(s, 'ctx', 'r2')).toThrow(/interrupted, not complete/);
    expect(() => setSuiteBaseline(s, 'ctx', 'o1')).toThrow(/belongs to suite "other"/);
    expect(() => setSuiteBaseline(s, 'ctx', 'nope')).toThrow(/no run nope/);
    const shown = showBaseline(s, 'ctx');
    expect(shown.run.run_id).toBe('r1');
    expect(shown.note).toBe('frozen Gate C baseline');
    expect(() => showBaseline(s, 'other')).toThrow(/has no baseline/);
    s.close();
  });

  it('resolveBaseline hands runSuite the stored metrics, and the reset note across a version bump', () => {
    const s = store();
    expect(resolveBaseline(s, 'ctx', artifacts('v1'), { history: [entry('v1')] })).toBeUndefined();
    storeRun(s, report({ runId: 'r1', queries: [], metrics: [rate('recall.10', 8, 10)] }), {
      startedAt: '2026-11-01T00:00:00Z',
    });
    setSuiteBaseline(s, 'ctx', 'r1', 'first');
    const same = resolveBaseline(s, 'ctx', artifacts('v1'), { history: [entry('v1')] })!;
    expect(same).toEqual({
      metrics: [rate('recall.10', 8, 10)],
      source: 'history baseline r1',
      run_id: 'r1',
      artifacts: artifacts('v1'),
      note: 'first',
    });
    const bumped = resolveBaseline(s, 'ctx', artifacts('v2'), {
      history: [entry('v1'), entry('v2', 'queries re-judged')],
    })!;
    expect(bumped.reset_note).toBe('v2: queries re-judged');
    expect(() => resolveBaseline(s, 'ctx', artifacts('v2'), { history: [entry('v1'), entry('v2')] })).toThrow(
      RgateError,
    );
    s.close();
  });
});

describe('storedBaselineFor (what rgate run calls)', () => {
  it('reads the baseline only for gates with vs_baseline rules', () => {
    const s = store();
    storeRun(s, report({ runId: 'r1', queries: [], metrics: [rate('recall.10', 8, 10)] }), {
      startedAt: 't1',
    });
    setSuiteBaseline(s, 'ctx', 'r1');
    const history = { history: [entry('v1'), entry('v2')] };
    // a stale baseline (v1, no reset note for v2) does not block a gate that never compares
    expect(
      storedBaselineFor(s, 'ctx', { rules: [{ metric: 'recall.10', min: 0.8 }] }, artifacts('v2'), history),
    ).toBeUndefined();
    expect(storedBaselineFor(s, 'ctx', undefined, artifacts('v2'), history)).toBeUndefined();
    const gateC = { rules: [{ metric: 'recall.10', min: 0, vs_baseline: 'not_below' as const }] };
    expect(() => storedBaselineFor(s, 'ctx', gateC, artifacts('v2'), history)).toThrow(
      /no baseline reset note for v2/,
    );
    expect(storedBaselineFor(s, 'ctx', gateC, artifacts('v1'), history)?.run_id).toBe('r1');
    s.close();
  });
});
