import Database from 'better-sqlite3';
import pg from 'pg';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MetricEntry, Observation, StoredPlan } from '../documents/index.js';
import { MemoryRunStore } from './memory-store.js';
import { MIGRATIONS } from './migrations.js';
import { SqliteRunStore } from './sqlite-store.js';
import { asAsync, type AsyncRunStore } from './async-store.js';
import { packJson } from './packed-json.js';
import type { RunImport } from './types.js';
import { PgRunStore } from './pg-store.js';
import { ARTIFACTS, SETTINGS } from '../../test/helpers/run-rows.js';
import { sampleReport } from '../../test/fixtures/sample-report.js';
import { postgresUnavailable, startPgCluster, type PgCluster } from '../../test/helpers/postgres.js';

function obs(query_id: string, replay: number, ok = true): Observation {
  return {
    query_id,
    replay,
    ok,
    ranked: [{ id: `d-${query_id}`, source_path: `p/${query_id}.md`, score: 1.5 }],
    fallback: { triggered: false },
    usage: { files: 1, chars: 10, tokens: 3 },
    latency_ms: 1,
    contract: { name: 'rgate', valid: true, errors: [] },
    fingerprint: `sha256:${query_id}${replay}`,
  };
}

/**
 * 5,000 queries x 2 replays as a run writes them (replay 2 in another order): most replays agree but
 * for the latency, some answer another ranking, some fail, some carry optional fields in another key
 * order.
 */
function tenThousand(): Observation[] {
  const out: Observation[] = [];
  for (const replay of [1, 2]) {
    for (let k = 0; k < 5000; k++) {
      const i = replay === 1 ? k : (k * 7919) % 5000;
      const q = `q${String(i).padStart(4, '0')}`;
      const o: Observation = {
        ...obs(q, replay),
        ranked: Array.from({ length: 10 }, (_, r) => ({
          id: `doc-${(i * 31 + r * (replay === 2 && i % 97 === 0 ? 7 : 1)) % 3000}`,
          source_path: `docs/${i % 8}/doc-${(i * 31 + r) % 3000}.md`,
          score: 1 / (r + 1 + i / 10_000),
        })),
        latency_ms: (i % 13) + replay / 1000 + 0.1,
        fingerprint: `sha256:${q}${replay === 2 && i % 97 === 0 ? 'b' : 'a'}`,
      };
      if (i % 50 === 0) {
        o.ok = false;
        o.error = { kind: 'timeout', message: `timed out after ${1000 + replay} ms` };
      }
      if (i % 40 === 0) {
        const { fingerprint, ...rest } = o;
        out.push({
          fingerprint,
          profile: 'small',
          ...rest,
          budgets: { max_files: 3, max_chars_per_file: 10, tokens: 9 },
        });
        continue;
      }
      out.push(o);
    }
  }
  return out;
}

const metric: MetricEntry = {
  id: 'top1_useful_rate',
  value: { kind: 'rate', numerator: 41, denominator: 50, rate: 0.82, wilson95: [0.69, 0.9] },
  help: 'benchmark queries whose replay-1 top-1 is useful / benchmark queries with a judgment',
};

/** A finished run as an upload carries it. */
function uploaded(run_id = 'u1'): RunImport {
  return {
    meta: {
      run_id,
      suite: 'semantic',
      started_at: '2026-11-22T00:00:00Z',
      artifacts: ARTIFACTS,
      settings: SETTINGS,
    },
    observations: [obs('q2', 1), obs('q1', 1, false), obs('q1', 2)],
    result: {
      status: 'complete',
      finished_at: '2026-11-22T00:05:00Z',
      gate_id: 'semantic-retrieval-v1',
      verdict: 'PASS',
      metrics: [metric],
      report: { schema: 'report', run_id },
    },
  };
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function sqliteFactory(): Promise<AsyncRunStore> {
  const d = mkdtempSync(join(tmpdir(), 'rgate-store-'));
  dirs.push(d);
  return Promise.resolve(asAsync(new SqliteRunStore(join(d, 'history.sqlite'))));
}

// PostgreSQL: a throwaway cluster of its own (test/helpers/postgres.ts), a fresh database per test
const pgSkip = postgresUnavailable();
let cluster: PgCluster | undefined;
if (pgSkip) console.warn(`PostgreSQL store tests skipped: ${pgSkip}`);
else {
  beforeAll(async () => {
    cluster = await startPgCluster();
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
  });
}
async function pgFactory(): Promise<AsyncRunStore> {
  if (!cluster) throw new Error('no PostgreSQL cluster');
  return PgRunStore.open(await cluster.createDatabase());
}

const factories: [string, () => Promise<AsyncRunStore>][] = [
  ['sqlite', sqliteFactory],
  ['memory', () => Promise.resolve(asAsync(new MemoryRunStore()))],
  [pgSkip ? `postgres (skipped: ${pgSkip})` : 'postgres', pgFactory],
];

/** A test of the contract, skipped (and saying why) for PostgreSQL when no server can be started here. */
function itOn(store: string, title: string, body: () => Promise<void>): void {
  (store.startsWith('postgres') && pgSkip ? it.skip : it)(title, body, 60_000);
}

/** One contract, every implementation, through the async contract the server uses. */
describe.each(factories)('RunStore contract: %s', (name, make) => {
  itOn(
    name,
    'keeps observations written before the run finished (an interrupted run loses nothing)',
    async () => {
      const s = await make();
      await s.beginRun({
        run_id: 'r1',
        suite: 'semantic',
        started_at: '2026-11-22T00:00:00Z',
        artifacts: ARTIFACTS,
        settings: SETTINGS,
      });
      await s.addObservation('r1', obs('q2', 1));
      await s.addObservation('r1', obs('q1', 1, false));
      await s.addObservation('r1', obs('q1', 2));
      const row = await s.getRun('r1');
      expect(row?.status).toBe('running');
      expect(row?.observation_count).toBe(3);
      expect((await s.getObservations('r1')).map((o) => `${o.replay}:${o.query_id}:${o.ok}`)).toEqual([
        '1:q1:false',
        '1:q2:true',
        '2:q1:true',
      ]);
      await s.close();
    },
  );

  itOn(name, 'keeps NONE for a run no gate judged, also when an older rgate sent PASS for it', async () => {
    const s = await make();
    for (const [run_id, verdict] of [
      ['n1', 'NONE'],
      ['n2', 'PASS'],
    ] as const) {
      await s.beginRun({
        run_id,
        suite: 'cacm',
        started_at: `2026-11-22T00:00:0${run_id.slice(1)}Z`,
        artifacts: ARTIFACTS,
        settings: SETTINGS,
      });
      await s.finishRun(run_id, {
        status: 'complete',
        finished_at: '2026-11-22T00:01:00Z',
        gate_id: 'measures-only',
        verdict,
        metrics: [metric],
      });
      expect((await s.getRun(run_id))?.verdict, run_id).toBe('NONE');
    }
    await s.close();
  });

  itOn(name, 'finishes a run with its measures, verdict and report', async () => {
    const s = await make();
    await s.beginRun({
      run_id: 'r1',
      suite: 'semantic',
      started_at: '2026-11-22T00:00:00Z',
      artifacts: ARTIFACTS,
      settings: { ...SETTINGS, replays: 5 },
    });
    await s.finishRun('r1', {
      status: 'complete',
      finished_at: '2026-11-22T00:01:00Z',
      gate_id: 'semantic-retrieval-v1',
      verdict: 'WATCH',
      metrics: [metric],
      report: { hello: 'world' },
    });
    const row = await s.getRun('r1');
    expect(row).toMatchObject({
      status: 'complete',
      verdict: 'WATCH',
      gate_id: 'semantic-retrieval-v1',
      settings: { ...SETTINGS, replays: 5 },
    });
    expect(await s.getMetrics('r1')).toEqual([metric]);
    expect(await s.getReport('r1')).toEqual({ hello: 'world' });
    await s.close();
  });

  itOn(
    name,
    'reads the measures of many runs at once, each as getMetrics reads it, in the order asked',
    async () => {
      const s = await make();
      const second: MetricEntry = {
        id: 'error_rate',
        value: { kind: 'rate', numerator: 1, denominator: 50, rate: 0.02, wilson95: [0, 0.1] },
        help: 'failed requests / requests',
      };
      for (const [run_id, metrics] of [
        ['m-b', [metric, second]],
        ['m-a', [second]],
        ['m-none', []],
      ] as const) {
        await s.beginRun({
          run_id,
          suite: 'x',
          started_at: run_id,
          artifacts: ARTIFACTS,
          settings: SETTINGS,
        });
        await s.finishRun(run_id, { status: 'complete', finished_at: 't', metrics: [...metrics] });
      }
      const ids = ['m-a', 'no-such-run', 'm-none', 'm-b', 'm-a'];
      const each = await Promise.all(ids.map((id) => s.getMetrics(id)));
      expect(await s.getMetricsOf(ids)).toEqual(each);
      expect(each[3]!.map((m) => m.id)).toEqual(['error_rate', 'top1_useful_rate']);
      expect(await s.getMetricsOf([])).toEqual([]);
      await s.close();
    },
  );

  itOn(name, 'lists runs newest first, filtered by suite, with a total order', async () => {
    const s = await make();
    for (const [id, suite, t] of [
      ['a', 'x', '2026-01-01T00:00:00Z'],
      ['b', 'y', '2026-01-02T00:00:00Z'],
      ['c', 'x', '2026-01-03T00:00:00Z'],
      ['d', 'x', '2026-01-03T00:00:00Z'],
    ] as const) {
      await s.beginRun({ run_id: id, suite, started_at: t, artifacts: ARTIFACTS, settings: SETTINGS });
    }
    expect((await s.listRuns()).map((r) => r.run_id)).toEqual(['d', 'c', 'b', 'a']);
    expect((await s.listRuns({ suite: 'x', limit: 2 })).map((r) => r.run_id)).toEqual(['d', 'c']);
    await s.close();
  });

  itOn(
    name,
    'lists a window from a run on (inclusive), by status and branch, without the newer runs',
    async () => {
      const s = await make();
      for (const [id, suite, t, branch] of [
        ['a', 'x', '2026-01-01T00:00:00Z', 'main'],
        ['b', 'y', '2026-01-02T00:00:00Z', 'main'],
        ['c', 'x', '2026-01-03T00:00:00Z', 'dev'],
        ['d', 'x', '2026-01-03T00:00:00Z', undefined],
        ['e', 'x', '2026-01-04T00:00:00Z', 'main'],
      ] as const) {
        await s.beginRun({
          run_id: id,
          suite,
          started_at: t,
          artifacts: ARTIFACTS,
          settings: SETTINGS,
          ...(branch ? { git: { commit: `c-${id}`, branch } } : {}),
        });
      }
      await s.finishRun('c', { status: 'complete', finished_at: '2026-01-03T00:01:00Z', metrics: [] });
      await s.finishRun('a', { status: 'complete', finished_at: '2026-01-01T00:01:00Z', metrics: [] });
      await s.finishRun('e', { status: 'failed', finished_at: '2026-01-04T00:01:00Z', metrics: [] });
      const ids = async (f: Parameters<AsyncRunStore['listRuns']>[0]) =>
        (await s.listRuns(f)).map((r) => r.run_id);
      // d and c share started_at: d is newer by run_id, so the window from c leaves d out
      expect(await ids({ suite: 'x', from: 'd' })).toEqual(['d', 'c', 'a']);
      expect(await ids({ suite: 'x', from: 'c' })).toEqual(['c', 'a']);
      expect(await ids({ suite: 'x', from: 'd', limit: 2 })).toEqual(['d', 'c']);
      expect(await ids({ from: 'c' })).toEqual(['c', 'b', 'a']);
      // a run the filter leaves out, or none of that id: nothing, not its neighbours
      expect(await ids({ suite: 'x', from: 'b' })).toEqual([]);
      expect(await ids({ suite: 'x', from: 'nope' })).toEqual([]);
      expect(await ids({ suite: 'x', status: 'complete', from: 'd' })).toEqual([]);
      expect(await ids({ suite: 'x', status: 'complete' })).toEqual(['c', 'a']);
      expect(await ids({ suite: 'x', status: 'complete', limit: 1 })).toEqual(['c']);
      expect(await ids({ status: 'failed' })).toEqual(['e']);
      expect(await ids({ branch: 'main' })).toEqual(['e', 'b', 'a']);
      expect(await ids({ branch: 'main', suite: 'x', from: 'e', limit: 5 })).toEqual(['e', 'a']);
      expect(await s.runFacets()).toEqual({ suites: ['x', 'y'], branches: ['dev', 'main'] });
      expect(await s.summarizeRuns({ suite: 'x' })).toEqual({
        run_count: 4,
        newest: { run_id: 'e', suite: 'x', started_at: '2026-01-04T00:00:00Z', verdict: null },
      });
      expect(await s.summarizeRuns({ suite: 'none' })).toEqual({ run_count: 0, newest: null });
      await s.close();
    },
  );

  itOn(
    name,
    'sorts a listing by a column, a verdict or a measure (the missing last), filters by verdict and a measure range, pages by offset',
    async () => {
      const s = await make();
      const rate = (v: number): MetricEntry[] => [
        {
          ...metric,
          value: { kind: 'rate', numerator: v * 100, denominator: 100, rate: v, wilson95: [0, 1] },
        },
      ];
      // f: no verdict, no measure (running); a and c measure the same (ties broken newest first)
      for (const [id, t, branch, verdict, value] of [
        ['a', '2026-01-01T00:00:00Z', 'main', 'PASS', 0.5],
        ['b', '2026-01-02T00:00:00Z', undefined, 'FAIL', 0.25],
        ['c', '2026-01-03T00:00:00Z', 'dev', 'WATCH', 0.5],
        ['d', '2026-01-04T00:00:00Z', 'main', 'NONE', 0.75],
        ['e', '2026-01-05T00:00:00Z', 'Main', 'PASS', 1],
        ['f', '2026-01-06T00:00:00Z', 'dev', undefined, undefined],
      ] as const) {
        await s.beginRun({
          run_id: id,
          suite: 'x',
          started_at: t,
          artifacts: ARTIFACTS,
          settings: SETTINGS,
          ...(branch ? { git: { commit: `c-${id}`, branch } } : {}),
        });
        if (verdict === undefined) continue;
        await s.finishRun(id, {
          status: 'complete',
          finished_at: t,
          gate_id: verdict === 'NONE' ? 'measures-only' : 'nightly',
          verdict,
          metrics: rate(value!),
        });
      }
      const ids = async (f: Parameters<AsyncRunStore['listRuns']>[0]) =>
        (await s.listRuns(f)).map((r) => r.run_id).join('');
      const m = 'top1_useful_rate';
      expect(await ids({ sort: { by: 'metric', metric: m, order: 'asc' } })).toBe('bcadef');
      expect(await ids({ sort: { by: 'metric', metric: m, order: 'desc' } })).toBe('edcabf');
      expect(await ids({ sort: { by: 'metric', metric: 'not_measured', order: 'asc' } })).toBe('fedcba');
      expect(await ids({ sort: { by: 'verdict', order: 'desc' } })).toBe('bceadf');
      expect(await ids({ sort: { by: 'verdict', order: 'asc' } })).toBe('deacbf');
      // byte order: 'Main' before 'dev' before 'main'; b has no branch
      expect(await ids({ sort: { by: 'branch', order: 'asc' } })).toBe('efcdab');
      expect(await ids({ sort: { by: 'branch', order: 'desc' } })).toBe('dafceb');
      expect(await ids({ sort: { by: 'started_at', order: 'asc' } })).toBe('abcdef');
      expect(await ids({ sort: { by: 'status', order: 'asc' } })).toBe('edcbaf');
      expect(await ids({ sort: { by: 'commit', order: 'desc' } })).toBe('fedcab');
      expect(await ids({ verdict: 'PASS' })).toBe('ea');
      expect(await ids({ metricRange: { metric: m, min: 0.5 } })).toBe('edca');
      expect(await ids({ metricRange: { metric: m, min: 0.25, max: 0.5 } })).toBe('cba');
      expect(await ids({ metricRange: { metric: m, max: 0.4999 } })).toBe('b');
      expect(await ids({ metricRange: { metric: 'not_measured', min: 0 } })).toBe('');
      const byValue = { sort: { by: 'metric', metric: m, order: 'asc' } } as const;
      expect(await ids({ ...byValue, limit: 2, offset: 2 })).toBe('ad');
      expect(await ids({ ...byValue, offset: 5 })).toBe('f');
      expect(await ids({ ...byValue, offset: 6 })).toBe('');
      expect(await ids({ limit: 2, offset: 1 })).toBe('ed');
      expect(
        await ids({ ...byValue, branch: 'main', verdict: 'PASS', metricRange: { metric: m, max: 0.5 } }),
      ).toBe('a');
      await s.close();
    },
  );

  itOn(
    name,
    'lists and counts the runs whose id starts with a prefix, wildcards and case as typed',
    async () => {
      const s = await make();
      const ids = ['r_1', 'rx1', 'r%2', 'R_3', 'r\\4', 'q1'];
      for (const [i, id] of ids.entries()) {
        await s.beginRun({
          run_id: id,
          suite: 'x',
          started_at: `2026-01-0${i + 1}T00:00:00Z`,
          artifacts: ARTIFACTS,
          settings: SETTINGS,
        });
      }
      const listed = async (idPrefix: string, limit?: number) =>
        (await s.listRuns({ idPrefix, ...(limit !== undefined ? { limit } : {}) })).map((r) => r.run_id);
      // newest first, as every listing; `R_3` differs in case, `q1` in its first letter
      expect(await listed('r')).toEqual(['r\\4', 'r%2', 'rx1', 'r_1']);
      expect(await listed('r', 2)).toEqual(['r\\4', 'r%2']);
      // `_` and `%` are characters here, not LIKE's wildcards; so is the escape character
      expect(await listed('r_')).toEqual(['r_1']);
      expect(await listed('r%')).toEqual(['r%2']);
      expect(await listed('r\\')).toEqual(['r\\4']);
      expect(await listed('R')).toEqual(['R_3']);
      expect(await listed('r_1x')).toEqual([]);
      expect(await s.summarizeRuns({ idPrefix: 'r' })).toMatchObject({
        run_count: 4,
        newest: { run_id: 'r\\4' },
      });
      expect(await s.summarizeRuns({ idPrefix: '%' })).toEqual({ run_count: 0, newest: null });
      await s.close();
    },
  );

  itOn(
    name,
    "a comparison's variant run is not nightly history: neither listed nor counted, yet getRun finds it",
    async () => {
      const s = await make();
      const nightly = uploaded('n1');
      nightly.meta.suite = 'x';
      nightly.meta.started_at = '2026-01-01T00:00:00Z';
      await s.importRun(nightly);
      const variant = uploaded('cmp-1-v2');
      variant.meta.suite = 'x';
      variant.meta.started_at = '2026-01-02T00:00:00Z';
      variant.meta.compare_session = 'cmp-1';
      expect(await s.importRun(variant)).toBe('stored');
      expect(await s.importRun(variant)).toBe('exists');
      expect((await s.listRuns()).map((r) => r.run_id)).toEqual(['n1']);
      expect((await s.listRuns({ suite: 'x' })).map((r) => r.run_id)).toEqual(['n1']);
      expect(await s.summarizeRuns()).toMatchObject({ run_count: 1, newest: { run_id: 'n1' } });
      expect(await s.summarizeRuns({ suite: 'x' })).toMatchObject({ run_count: 1, newest: { run_id: 'n1' } });
      expect(await s.listRuns({ suite: 'x', from: 'cmp-1-v2' })).toEqual([]);
      expect((await s.runFacets()).suites).toEqual(['x']);
      expect(await s.getRun('cmp-1-v2')).toMatchObject({ compare_session: 'cmp-1', verdict: 'PASS' });
      await s.close();
    },
  );

  itOn(name, 'summarizes its runs as listRuns would: the count and the newest with its verdict', async () => {
    const s = await make();
    expect(await s.summarizeRuns()).toEqual({ run_count: 0, newest: null });
    for (const [id, suite, t] of [
      ['b', 'y', '2026-01-03T00:00:00Z'],
      ['B-1', 'x', '2026-01-03T00:00:00Z'],
      ['a', 'x', '2026-01-01T00:00:00Z'],
    ] as const) {
      await s.beginRun({ run_id: id, suite, started_at: t, artifacts: ARTIFACTS, settings: SETTINGS });
    }
    const summary = async () => {
      const rows = await s.listRuns();
      const first = rows[0]!;
      const expected = {
        run_count: rows.length,
        newest: {
          run_id: first.run_id,
          suite: first.suite,
          started_at: first.started_at,
          verdict: first.verdict,
        },
      };
      expect(await s.summarizeRuns()).toEqual(expected);
      return expected;
    };
    // a running run counts, without a verdict; byte order breaks the started_at tie ('b' after 'B-1')
    expect(await summary()).toEqual({
      run_count: 3,
      newest: { run_id: 'b', suite: 'y', started_at: '2026-01-03T00:00:00Z', verdict: null },
    });
    await s.finishRun('b', {
      status: 'complete',
      finished_at: '2026-01-03T00:01:00Z',
      gate_id: 'g',
      verdict: 'FAIL',
      metrics: [metric],
    });
    const older = uploaded('u1');
    await s.importRun({ ...older, meta: { ...older.meta, started_at: '2026-01-02T00:00:00Z' } });
    expect((await summary()).newest).toMatchObject({ run_id: 'b', verdict: 'FAIL' });
    await s.importRun({
      ...uploaded('u2'),
      meta: { ...uploaded('u2').meta, started_at: '2026-02-01T00:00:00Z' },
    });
    expect(await summary()).toEqual({
      run_count: 5,
      newest: { run_id: 'u2', suite: 'semantic', started_at: '2026-02-01T00:00:00Z', verdict: 'PASS' },
    });
    await s.close();
  });

  itOn(name, 'records a baseline per suite', async () => {
    const s = await make();
    await s.beginRun({ run_id: 'r1', suite: 'x', started_at: 't', artifacts: ARTIFACTS, settings: SETTINGS });
    expect(await s.getBaseline('x')).toBeUndefined();
    await s.setBaseline('x', 'r1', 'first frozen baseline');
    expect(await s.getBaseline('x')).toEqual({ run_id: 'r1', note: 'first frozen baseline' });
    await s.close();
  });

  itOn(name, 'keeps comparison sessions, lists them newest first and returns their documents', async () => {
    const s = await make();
    const row = (id: string, suite: string, t: string) => ({
      session_id: id,
      suite,
      created_at: t,
      kind: 'variants',
      variant_count: 2,
      summary: `v1 a | v2 b (${id})`,
    });
    expect(await s.listCompareSessions()).toEqual([]);
    expect(await s.getCompareSession('nope')).toBeUndefined();
    await s.saveCompareSession(row('c1', 'x', '2026-01-01T00:00:00Z'), { schema: 'rgate-compare/1', n: 1 });
    await s.saveCompareSession(row('c2', 'y', '2026-01-02T00:00:00Z'), { n: 2 });
    await s.saveCompareSession(row('c3', 'x', '2026-01-02T00:00:00Z'), { n: 3 });
    expect((await s.listCompareSessions()).map((r) => r.session_id)).toEqual(['c3', 'c2', 'c1']);
    expect(await s.listCompareSessions({ suite: 'x', limit: 1 })).toEqual([
      row('c3', 'x', '2026-01-02T00:00:00Z'),
    ]);
    expect(await s.getCompareSession('c1')).toEqual({ schema: 'rgate-compare/1', n: 1 });
    // an id is kept once: another document under it changes nothing and gets the stored one back
    expect(await s.saveCompareSession(row('c4', 'x', '2026-01-03T00:00:00Z'), { n: 4 })).toBeUndefined();
    expect(await s.saveCompareSession(row('c1', 'z', '2026-01-09T00:00:00Z'), { n: 'other' })).toEqual({
      schema: 'rgate-compare/1',
      n: 1,
    });
    expect(await s.getCompareSession('c1')).toEqual({ schema: 'rgate-compare/1', n: 1 });
    expect((await s.listCompareSessions({ suite: 'z' })).length).toBe(0);
    await s.close();
  });

  itOn(name, 'keeps one run per content key and finds it by that key', async () => {
    const s = await make();
    const key = `sha256:${'a'.repeat(64)}`;
    await s.beginRun({
      run_id: 'm1',
      suite: 'x',
      started_at: 't',
      artifacts: ARTIFACTS,
      settings: SETTINGS,
      content_key: key,
    });
    expect((await s.findRunByContentKey(key))?.run_id).toBe('m1');
    expect(await s.findRunByContentKey(`sha256:${'b'.repeat(64)}`)).toBeUndefined();
    await expect(
      s.beginRun({
        run_id: 'm2',
        suite: 'x',
        started_at: 't',
        artifacts: ARTIFACTS,
        settings: SETTINGS,
        content_key: key,
      }),
    ).rejects.toThrow();
    expect(await s.getRun('m2')).toBeUndefined();
    await s.close();
  });

  itOn(name, 'imports a finished run whole: row, observations, measures, verdict, report', async () => {
    const s = await make();
    expect(await s.importRun(uploaded())).toBe('stored');
    expect(await s.getRun('u1')).toMatchObject({
      status: 'complete',
      finished_at: '2026-11-22T00:05:00Z',
      gate_id: 'semantic-retrieval-v1',
      verdict: 'PASS',
      observation_count: 3,
    });
    expect((await s.getObservations('u1')).map((o) => `${o.replay}:${o.query_id}`)).toEqual([
      '1:q1',
      '1:q2',
      '2:q1',
    ]);
    expect(await s.getMetrics('u1')).toEqual([metric]);
    expect(await s.getReport('u1')).toEqual({ schema: 'report', run_id: 'u1' });
    await s.close();
  });

  itOn(name, "keeps a run's git commit and branch (begun or imported), and none when not known", async () => {
    const s = await make();
    const withGit = uploaded('g1');
    withGit.meta.git = { commit: '0123456789abcdef0123456789abcdef01234567', branch: 'feature/x' };
    await s.importRun(withGit);
    await s.beginRun({
      run_id: 'g2',
      suite: 'semantic',
      started_at: '2026-11-22T00:00:00Z',
      artifacts: ARTIFACTS,
      settings: SETTINGS,
      git: { branch: 'main' },
    });
    await s.importRun(uploaded('g3'));
    expect((await s.getRun('g1'))?.git).toEqual(withGit.meta.git);
    expect((await s.getRun('g2'))?.git).toEqual({ branch: 'main' });
    expect((await s.getRun('g3'))?.git).toBeUndefined();
    expect((await s.listRuns()).map((r) => r.git?.branch ?? null)).toEqual([null, 'main', 'feature/x']);
    await s.close();
  });

  itOn(name, 'is idempotent by run id: the same run again (any order) stores nothing more', async () => {
    const s = await make();
    expect(await s.importRun(uploaded())).toBe('stored');
    const again = uploaded();
    again.observations.reverse();
    expect(await s.importRun(again)).toBe('exists');
    expect((await s.listRuns()).map((r) => [r.run_id, r.observation_count])).toEqual([['u1', 3]]);
    await s.close();
  });

  itOn(name, 'refuses other content under a stored run id, and leaves the stored run as it was', async () => {
    const s = await make();
    await s.importRun(uploaded());
    const other = uploaded();
    other.result = { ...other.result, verdict: 'FAIL' };
    await expect(s.importRun(other)).rejects.toThrow(/^run u1 is already stored in .* with other content$/);
    expect((await s.getRun('u1'))?.verdict).toBe('PASS');
    // a run begun here is not an import: an upload under its id is refused too
    await s.beginRun({
      run_id: 'local',
      suite: 'x',
      started_at: 't',
      artifacts: ARTIFACTS,
      settings: SETTINGS,
    });
    await expect(s.importRun(uploaded('local'))).rejects.toThrow(/already stored/);
    expect((await s.getRun('local'))?.status).toBe('running');
    await s.close();
  });

  itOn(name, 'eight imports of one run at once: one stored, seven find it, one run kept', async () => {
    const s = await make();
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => s.importRun(uploaded())));
    expect(outcomes.filter((o) => o === 'stored')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'exists')).toHaveLength(7);
    expect((await s.listRuns()).map((r) => [r.run_id, r.observation_count])).toEqual([['u1', 3]]);
    await s.close();
  });

  if (name !== 'memory') {
    // the memory store checks everything before its first write; a database can refuse midway
    itOn(name, 'an import refused midway (a row the schema rejects) leaves no trace of the run', async () => {
      const s = await make();
      const bad = uploaded();
      bad.observations.push({ ...obs('q9', 1), replay: null } as unknown as Observation);
      await expect(s.importRun(bad)).rejects.toThrow();
      expect(await s.getRun('u1')).toBeUndefined();
      expect(await s.getObservations('u1')).toEqual([]);
      expect(await s.importRun(uploaded())).toBe('stored');
      await s.close();
    });
  }

  itOn(name, "keeps a large run's report exactly (packed as columns where it is stored)", async () => {
    const s = await make();
    const base = sampleReport('fail');
    const queries = Array.from({ length: 1500 }, (_, i) => ({
      ...base.queries[i % base.queries.length]!,
      query_id: `q${String(i).padStart(4, '0')}`,
    }));
    const report = { ...base, queries, failing_queries: queries.filter((_, i) => i % 4 === 0) };
    await s.beginRun({
      run_id: 'big',
      suite: 'semantic',
      started_at: '2026-11-28T00:00:00Z',
      artifacts: ARTIFACTS,
      settings: SETTINGS,
    });
    await s.finishRun('big', { status: 'complete', finished_at: 't', metrics: [], report });
    expect(await s.getReport('big')).toEqual(JSON.parse(JSON.stringify(report)));
    await s.close();
  });

  itOn(
    name,
    'reads 10k observations back exactly (keys in order), written one by one or imported whole',
    async () => {
      const s = await make();
      const written = tenThousand();
      const meta = (run_id: string) => ({
        run_id,
        suite: 'semantic',
        started_at: '2026-11-22T00:00:00Z',
        artifacts: ARTIFACTS,
        settings: SETTINGS,
      });
      await s.beginRun(meta('one-by-one'));
      for (const o of written) await s.addObservation('one-by-one', o);
      await s.finishRun('one-by-one', { status: 'complete', finished_at: 't', metrics: [] });
      await s.importRun({
        meta: meta('imported'),
        observations: written,
        result: { status: 'complete', finished_at: 't', metrics: [] },
      });
      const expected = written
        .slice()
        .sort((a, b) => a.replay - b.replay || (a.query_id < b.query_id ? -1 : 1))
        .map((o) => JSON.stringify(o));
      for (const run of ['one-by-one', 'imported']) {
        const read = (await s.getObservations(run)).map((o) => JSON.stringify(o));
        expect(read.length, run).toBe(expected.length);
        // one assertion over all rows: 10k toEqual calls would take longer than the store
        expect(read.filter((o, i) => o !== expected[i]).slice(0, 3), run).toEqual([]);
        expect((await s.getRun(run))?.observation_count, run).toBe(10_000);
      }
      await s.close();
    },
  );

  itOn(name, 'refuses a duplicate run id', async () => {
    const s = await make();
    await s.beginRun({ run_id: 'r1', suite: 'x', started_at: 't', artifacts: ARTIFACTS, settings: SETTINGS });
    await expect(
      s.beginRun({ run_id: 'r1', suite: 'x', started_at: 't', artifacts: ARTIFACTS, settings: SETTINGS }),
    ).rejects.toThrow();
    await s.close();
  });
});

describe('SqliteRunStore migrations', () => {
  it('records every migration in schema_version and reopens without reapplying', () => {
    const d = mkdtempSync(join(tmpdir(), 'rgate-store-'));
    dirs.push(d);
    const path = join(d, 'h.sqlite');
    new SqliteRunStore(path).close();
    new SqliteRunStore(path).close();
    const db = new Database(path, { readonly: true });
    const versions = db.prepare('SELECT version FROM schema_version ORDER BY version').all() as {
      version: number;
    }[];
    expect(versions.map((v) => v.version)).toEqual(MIGRATIONS.map((m) => m.version));
    expect((db.pragma('journal_mode') as { journal_mode: string }[])[0]?.journal_mode).toBe('wal');
    db.close();
  });

  it('upgrades a store written before the compare_sessions migration and keeps its runs', () => {
    const d = mkdtempSync(join(tmpdir(), 'rgate-store-'));
    dirs.push(d);
    const path = join(d, 'h.sqlite');
    const old = new Database(path);
    old.exec('CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL)');
    old.exec(MIGRATIONS[0]!.sql);
    old.prepare('INSERT INTO schema_version (version, name) VALUES (1, ?)').run(MIGRATIONS[0]!.name);
    old
      .prepare(
        `INSERT INTO runs (run_id, suite, started_at, status, artifacts_json, settings_json) VALUES ('r1', 'x', 't', 'complete', ?, ?)`,
      )
      .run(JSON.stringify(ARTIFACTS), JSON.stringify(SETTINGS));
    old.close();
    const s = new SqliteRunStore(path);
    expect(s.getRun('r1')?.status).toBe('complete');
    s.saveCompareSession(
      { session_id: 'c1', suite: 'x', created_at: 't', kind: 'sweep', variant_count: 3, summary: 's' },
      { ok: true },
    );
    expect(s.getCompareSession('c1')).toEqual({ ok: true });
    s.close();
  });

  it('reads a no-gate run an older rgate stored as PASS as NONE once migrated', () => {
    const d = mkdtempSync(join(tmpdir(), 'rgate-store-'));
    dirs.push(d);
    const path = join(d, 'h.sqlite');
    const old = new Database(path);
    old.exec('CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL)');
    for (const m of MIGRATIONS.filter((x) => x.version < 8)) {
      old.exec(m.sql);
      old.prepare('INSERT INTO schema_version (version, name) VALUES (?, ?)').run(m.version, m.name);
    }
    const insert = old.prepare(
      `INSERT INTO runs (run_id, suite, started_at, status, artifacts_json, settings_json) VALUES (?, 'x', ?, 'complete', ?, ?)`,
    );
    insert.run('r1', 't1', JSON.stringify(ARTIFACTS), JSON.stringify(SETTINGS));
    insert.run('r2', 't2', JSON.stringify(ARTIFACTS), JSON.stringify(SETTINGS));
    old
      .prepare(`INSERT INTO verdicts (run_id, gate_id, verdict) VALUES ('r1', 'measures-only', 'PASS')`)
      .run();
    old.prepare(`INSERT INTO verdicts (run_id, gate_id, verdict) VALUES ('r2', 'g', 'PASS')`).run();
    old.close();
    const s = new SqliteRunStore(path);
    expect([s.getRun('r1')?.verdict, s.getRun('r2')?.verdict]).toEqual(['NONE', 'PASS']);
    s.close();
  });

  it('keeps observation bodies in packs and reports packed, and still reads rows an older rgate wrote as text', () => {
    const d = mkdtempSync(join(tmpdir(), 'rgate-store-'));
    dirs.push(d);
    const path = join(d, 'h.sqlite');
    const s = new SqliteRunStore(path);
    s.beginRun({ run_id: 'r1', suite: 'x', started_at: 't', artifacts: ARTIFACTS, settings: SETTINGS });
    const kept: Observation = {
      ...obs('q1', 1),
      fingerprint: 'f',
      ranked: Array.from({ length: 10 }, (_, i) => ({
        id: `doc-${i}`,
        source_path: `docs/doc-${i}.md`,
        score: 10 - i,
      })),
    };
    s.addObservation('r1', kept);
    s.finishRun('r1', {
      status: 'complete',
      finished_at: 't2',
      metrics: [],
      report: { big: 'x'.repeat(5000) },
    });
    s.close();
    const db = new Database(path);
    const row = db.prepare('SELECT json FROM observations').get() as { json: unknown };
    expect(row.json).toBe(null);
    const pack = db.prepare('SELECT bodies FROM observation_packs').get() as { bodies: unknown };
    expect(Buffer.isBuffer(pack.bodies)).toBe(true);
    expect((pack.bodies as Buffer).length).toBeLessThan(JSON.stringify(kept).length / 2);
    const report = db.prepare('SELECT report_json FROM runs').get() as { report_json: unknown };
    expect((report.report_json as Buffer).length).toBeLessThan(200);
    // a row as an older rgate wrote it: plain JSON text
    db.prepare("UPDATE observations SET json = ? WHERE query_id = 'q1'").run(
      JSON.stringify({ ...kept, fingerprint: 'old' }),
    );
    db.close();
    const again = new SqliteRunStore(path);
    expect(again.getObservations('r1')).toEqual([{ ...kept, fingerprint: 'old' }]);
    expect(again.getReport('r1')).toEqual({ big: 'x'.repeat(5000) });
    again.close();
  });

  it('stores a body once when replays agree, also when another process writes the later replay', () => {
    const d = mkdtempSync(join(tmpdir(), 'rgate-store-'));
    dirs.push(d);
    const path = join(d, 'h.sqlite');
    const meta = { run_id: 'r1', suite: 'x', started_at: 't', artifacts: ARTIFACTS, settings: SETTINGS };
    const first = new SqliteRunStore(path, { batch: 4 });
    first.beginRun(meta);
    for (const q of ['q1', 'q2', 'q3']) first.addObservation('r1', { ...obs(q, 1), latency_ms: 3 });
    first.close();
    // `rgate run --resume` in another process: replay 2 agrees but for the latency, q3 answers otherwise
    const second = new SqliteRunStore(path, { batch: 4 });
    for (const q of ['q1', 'q2'])
      second.addObservation('r1', { ...obs(q, 2), fingerprint: `sha256:${q}1`, latency_ms: 7 });
    second.addObservation('r1', { ...obs('q3', 2), fingerprint: 'sha256:other' });
    second.finishRun('r1', { status: 'complete', finished_at: 't2', metrics: [] });
    second.close();
    const db = new Database(path);
    const bodies = (db.prepare('SELECT bodies FROM observation_packs').all() as { bodies: Buffer }[]).flatMap(
      (p) => brotliDecompressSync(p.bodies).toString('utf8').split('\n'),
    );
    db.close();
    expect(bodies).toHaveLength(4);
    const s = new SqliteRunStore(path);
    expect(s.getObservations('r1').map((o) => [o.replay, o.query_id, o.latency_ms, o.fingerprint])).toEqual([
      [1, 'q1', 3, 'sha256:q11'],
      [1, 'q2', 3, 'sha256:q21'],
      [1, 'q3', 3, 'sha256:q31'],
      [2, 'q1', 7, 'sha256:q11'],
      [2, 'q2', 7, 'sha256:q21'],
      [2, 'q3', 1, 'sha256:other'],
    ]);
    s.close();
  });

  it('reads the observations and report an rgate of schema 8 stored, once migrated', () => {
    const d = mkdtempSync(join(tmpdir(), 'rgate-store-'));
    dirs.push(d);
    const path = join(d, 'h.sqlite');
    const old = new Database(path);
    old.exec('CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL)');
    for (const m of MIGRATIONS.filter((x) => x.version <= 8)) {
      old.exec(m.sql);
      old.prepare('INSERT INTO schema_version (version, name) VALUES (?, ?)').run(m.version, m.name);
    }
    old
      .prepare(
        `INSERT INTO runs (run_id, suite, started_at, status, artifacts_json, settings_json, report_json) VALUES ('r1', 'x', 't', 'complete', ?, ?, ?)`,
      )
      .run(JSON.stringify(ARTIFACTS), JSON.stringify(SETTINGS), packJson({ kept: 'r1' }));
    const insert = old.prepare(
      'INSERT INTO observations (run_id, replay, query_id, ok, fingerprint, json) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const stored = [obs('q2', 1), obs('q1', 1, false), obs('q1', 2)];
    for (const o of stored) insert.run('r1', o.replay, o.query_id, o.ok ? 1 : 0, o.fingerprint, packJson(o));
    old.close();
    const s = new SqliteRunStore(path);
    expect(s.getObservations('r1')).toEqual([stored[1], stored[0], stored[2]]);
    expect(s.getRun('r1')?.observation_count).toBe(3);
    expect(s.getReport('r1')).toEqual({ kept: 'r1' });
    s.close();
  });

  it('refuses a store written by a newer rgate', () => {
    const d = mkdtempSync(join(tmpdir(), 'rgate-store-'));
    dirs.push(d);
    const path = join(d, 'h.sqlite');
    new SqliteRunStore(path).close();
    const db = new Database(path);
    db.prepare('INSERT INTO schema_version (version, name) VALUES (999, ?)').run('future');
    db.close();
    expect(() => new SqliteRunStore(path)).toThrow(/newer than this rgate/);
  });
});

/**
 * The SQL stores, each with a connection of its own beside it: what a hand edit (sqlite3, psql) or
 * another rgate version leaves in a row. `?` placeholders (numbered for PostgreSQL here).
 */
const sqlStores: [
  string,
  () => Promise<{ store: AsyncRunStore; edit: (sql: string, args: unknown[]) => Promise<void> }>,
][] = [
  [
    'sqlite',
    () => {
      const d = mkdtempSync(join(tmpdir(), 'rgate-store-'));
      dirs.push(d);
      const path = join(d, 'history.sqlite');
      const edit = (sql: string, args: unknown[]) => {
        const db = new Database(path);
        db.prepare(sql).run(...args);
        db.close();
        return Promise.resolve();
      };
      return Promise.resolve({ store: asAsync(new SqliteRunStore(path)), edit });
    },
  ],
  [
    pgSkip ? `postgres (skipped: ${pgSkip})` : 'postgres',
    async () => {
      if (!cluster) throw new Error('no PostgreSQL cluster');
      const url = await cluster.createDatabase();
      const edit = async (sql: string, args: unknown[]) => {
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        let n = 0;
        await c.query(
          sql.replace(/\?/g, () => `$${++n}`),
          args,
        );
        await c.end();
      };
      return { store: await PgRunStore.open(url), edit };
    },
  ],
];

describe.each(sqlStores)('a stored run that does not read back: %s', (name, make) => {
  const plan: StoredPlan = {
    spec: { fixture: 'demo', system: { type: 'builtin', mode: 'semantic' } },
    overrides: {},
    system: { name: 'builtin', kind: 'builtin', contract: 'rgate' },
  };
  /** r-ok and r-bad, finished with one observation, one measure and a report each. */
  async function twoRuns() {
    const made = await make();
    for (const run_id of ['r-ok', 'r-bad']) {
      await made.store.beginRun({
        run_id,
        suite: 'x',
        started_at: 't',
        artifacts: ARTIFACTS,
        settings: SETTINGS,
        plan,
      });
      await made.store.addObservation(run_id, obs('q1', 1));
      await made.store.finishRun(run_id, {
        status: 'complete',
        finished_at: 't2',
        metrics: [metric],
        report: { kept: run_id },
      });
    }
    return made;
  }
  /** The refusal every read of a bad row gives: exit 2's code, the run and the store named, a hint. */
  async function refused(read: Promise<unknown>, problem: RegExp) {
    let err: unknown;
    try {
      await read;
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: 'input_invalid' });
    const { message, hint } = err as { message: string; hint: string };
    expect(message).toMatch(/^run r-bad in \S+ is not a run this rgate can read: /);
    expect(message).toMatch(problem);
    expect(hint).toMatch(/DELETE FROM runs WHERE run_id ?= ?'r-bad'/);
  }

  itOn(
    name,
    'a plan that does not parse or does not match the schema names the run; the others still read',
    async () => {
      const { store, edit } = await twoRuns();
      await edit('UPDATE runs SET plan_json = ? WHERE run_id = ?', ['{', 'r-bad']);
      expect((await store.getRun('r-ok'))?.plan).toEqual(plan);
      await refused(store.getRun('r-bad'), /plan_json is not JSON/);
      await refused(store.listRuns({ suite: 'x' }), /plan_json is not JSON/);
      await edit('UPDATE runs SET plan_json = ? WHERE run_id = ?', [
        JSON.stringify({ ...plan, spec: { ...plan.spec, replays: 'five' } }),
        'r-bad',
      ]);
      await refused(store.getRun('r-bad'), /\/plan\/spec\/replays: must be integer/);
      await store.close();
    },
  );

  itOn(name, 'settings or an owner that do not parse name the run', async () => {
    const { store, edit } = await twoRuns();
    await edit('UPDATE runs SET settings_json = ? WHERE run_id = ?', ['{"replays":', 'r-bad']);
    await refused(store.getRun('r-bad'), /settings_json is not JSON/);
    await store.close();
  });

  itOn(
    name,
    'an observation that does not match, or does not parse, names the run (never a cast)',
    async () => {
      const { store, edit } = await twoRuns();
      await edit('UPDATE observations SET json = ? WHERE run_id = ?', [packJson({ query_id: 5 }), 'r-bad']);
      expect(await store.getObservations('r-ok')).toEqual([obs('q1', 1)]);
      await refused(store.getObservations('r-bad'), /observation 1: \/\w+: /);
      await edit('UPDATE observations SET json = ? WHERE run_id = ?', [Buffer.from('not deflated'), 'r-bad']);
      await refused(store.getObservations('r-bad'), /observation 1 is not JSON/);
      await store.close();
    },
  );

  itOn(name, 'a measure that does not match, or does not parse, names the run', async () => {
    const { store, edit } = await twoRuns();
    await edit('UPDATE measures SET json = ? WHERE run_id = ?', ['{"id":"top1_useful_rate"}', 'r-bad']);
    expect(await store.getMetrics('r-ok')).toEqual([metric]);
    await refused(store.getMetrics('r-bad'), /measure 1: \/help: is required/);
    expect(await store.getMetricsOf(['r-ok'])).toEqual([[metric]]);
    await refused(store.getMetricsOf(['r-ok', 'r-bad']), /run r-bad .* measure 1: \/help: is required/);
    await edit('UPDATE measures SET json = ? WHERE run_id = ?', ['{', 'r-bad']);
    await refused(store.getMetrics('r-bad'), /measure 1 is not JSON/);
    // the many-run read takes a run's rows as one array: a row that is no JSON on its own (JSON5,
    // a trailing comma that an array would take) is still named as the row-by-row read names it
    await refused(store.getMetricsOf(['r-ok', 'r-bad']), /run r-bad .* measure 1 is not JSON/);
    await edit('UPDATE measures SET json = ? WHERE run_id = ?', [
      `{id:'top1_useful_rate',value:${JSON.stringify(metric.value)},help:'x'}`,
      'r-bad',
    ]);
    await refused(store.getMetricsOf(['r-bad']), /measure 1 is not JSON/);
    await edit('UPDATE measures SET json = ? WHERE run_id = ?', [`${JSON.stringify(metric)},`, 'r-bad']);
    await refused(store.getMetricsOf(['r-bad', 'r-ok']), /measure 1 is not JSON/);
    await store.close();
  });

  itOn(name, 'a report that does not parse names the run (its readers check what it says)', async () => {
    const { store, edit } = await twoRuns();
    await edit('UPDATE runs SET report_json = ? WHERE run_id = ?', [Buffer.from('{'), 'r-bad']);
    expect(await store.getReport('r-ok')).toEqual({ kept: 'r-ok' });
    await refused(store.getReport('r-bad'), /report_json is not JSON/);
    await store.close();
  });
});
