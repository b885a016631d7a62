/**
 * The dashboard over PostgreSQL, the store `rgate server --db postgres://...` keeps: the project's
 * runs copied whole (importRun, as an upload stores them) from the SQLite project into a throwaway
 * cluster (test/helpers/postgres.ts), and every view built from either store is the same document.
 * Skipped, saying why, where Debian's postgresql is not installed (never in CI: .ci/run installs it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  compareSessionView,
  diffView,
  projectSummary,
  projectView,
  runPageView,
  runsListView,
  suiteTrendView,
} from '../history/dashboard-views.js';
import { PgRunStore } from '../src/store/index.js';
import type { RunStatus } from '../src/documents/index.js';
import { postgresUnavailable, startPgCluster, type PgCluster } from './helpers/postgres.js';
import { fillProject, projectStore, type Project } from './dashboard-helpers.js';

const skip = postgresUnavailable();
if (skip) console.warn(`dashboard over PostgreSQL skipped: ${skip}`);

let cluster: PgCluster | undefined;
let p: Project;
let pgStore: PgRunStore;

describe.skipIf(skip)(`dashboard views over PostgreSQL${skip ? ` (skipped: ${skip})` : ''}`, () => {
  beforeAll(async () => {
    p = projectStore();
    await fillProject(p);
    cluster = await startPgCluster();
    pgStore = await PgRunStore.open(await cluster.createDatabase());
    // oldest first, as they were uploaded
    for (const row of [...p.sync.listRuns()].reverse()) {
      const { status, finished_at, gate_id, verdict, observation_count: _n, ...meta } = row;
      const outcome = await pgStore.importRun({
        meta,
        observations: p.sync.getObservations(row.run_id),
        result: {
          status: status as Exclude<RunStatus, 'running' | 'abandoned'>,
          finished_at: finished_at ?? row.started_at,
          ...(gate_id !== null ? { gate_id } : {}),
          ...(verdict !== null ? { verdict } : {}),
          metrics: p.sync.getMetrics(row.run_id),
          report: p.sync.getReport(row.run_id),
        },
      });
      expect(outcome).toBe('stored');
    }
    await pgStore.setBaseline('nightly', 'n-2', 'accepted after review');
    for (const s of p.sync.listCompareSessions())
      await pgStore.saveCompareSession(s, p.sync.getCompareSession(s.session_id));
  }, 240_000);
  afterAll(async () => {
    await pgStore?.close();
    await cluster?.stop();
    p?.cleanup();
  });

  it('builds the same documents as over SQLite', async () => {
    const sqlite = p.store;
    expect(await projectSummary(pgStore, 'search', 'Search')).toEqual(
      await projectSummary(sqlite, 'search', 'Search'),
    );
    expect(await projectView(pgStore, 'search')).toEqual(await projectView(sqlite, 'search'));
    expect(await suiteTrendView(pgStore, 'search', 'nightly')).toEqual(
      await suiteTrendView(sqlite, 'search', 'nightly'),
    );
    expect(await runsListView(pgStore, 'search', { limit: 3, before: 'n-6' })).toEqual(
      await runsListView(sqlite, 'search', { limit: 3, before: 'n-6' }),
    );
    expect(await runPageView(pgStore, 'search', 'ctx-2')).toEqual(
      await runPageView(sqlite, 'search', 'ctx-2'),
    );
    expect(await diffView(pgStore, 'search', 'ctx-1', 'ctx-2')).toEqual(
      await diffView(sqlite, 'search', 'ctx-1', 'ctx-2'),
    );
    expect(await compareSessionView(pgStore, 'search', 'cmp-nightly')).toEqual(
      await compareSessionView(sqlite, 'search', 'cmp-nightly'),
    );
  });
});
