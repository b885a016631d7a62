import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { captureIo } from './helpers/cli-io.js';
import { buildCloseout } from '../history/closeout.js';
import { parseResiduals } from '../history/closeout-residuals.js';
import { setSuiteBaseline } from '../history/baseline.js';
import { loadGatePolicy } from '../gates/index.js';
import { renderCloseoutHtml, renderCloseoutMarkdown } from '../reports/history/closeout.js';
import { runCli } from '../src/cli/program.js';
import { loadFixtureSet, writeFreeze } from '../src/snapshot/index.js';
import { SqliteRunStore } from '../src/store/index.js';
import { mean, outcome, rate, report, storeRun, tempDir } from './history-helpers.js';

const REPO = resolve(import.meta.dirname, '..');
const GATE_C = 'context-load-gate-c-v0';
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** A real fixture folder, frozen as v1 by the real freeze writer. */
function frozenFixture(): { root: string; dir: string } {
  const t = tempDir('rgate-closeout-');
  cleanups.push(t.cleanup);
  const dir = join(t.dir, 'fixtures', 'ctx');
  mkdirSync(dir, { recursive: true });
  const corpus = [
    {
      id: 'doc-a',
      source_path: 'docs/a.md',
      text: 'alpha retrieval contract',
      kind: 'canonical',
      captured_at: '2026-01-01T00:00:00Z',
    },
    {
      id: 'doc-b',
      source_path: 'docs/b.md',
      text: 'beta budget notes',
      kind: 'tactical',
      captured_at: '2026-01-02T00:00:00Z',
    },
  ];
  writeFileSync(join(dir, 'corpus.jsonl'), corpus.map((c) => JSON.stringify(c)).join('\n') + '\n');
  writeFileSync(
    join(dir, 'queries.jsonl'),
    JSON.stringify({ query_id: 'q1', text: 'alpha', qrels: { 'doc-a': 1 } }) + '\n',
  );
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ mode: 'context-load', k: 10 }));
  writeFreeze(dir, { frozenOn: '2026-11-01' });
  return { root: t.dir, dir };
}

/** A stored run of the suite on the fixture as it is now, with Gate C's measures. */
function storeGateCRun(
  store: SqliteRunStore,
  root: string,
  runId: string,
  startedAt: string,
  ndcg: number,
  variant = false,
) {
  const pinned = loadFixtureSet('ctx', { root });
  // a `--set` variant of the frozen config: the change a closeout reviews against its baseline
  const artifacts = variant
    ? {
        ...pinned.artifacts,
        config_id: `${pinned.artifacts.config_id}+overrides`,
        config_sha256: `sha256:${'c'.repeat(64)}`,
      }
    : pinned.artifacts;
  storeRun(
    store,
    report({
      runId,
      suite: 'ctx',
      artifacts,
      replays: 30,
      queries: [
        outcome('q1', { measures: { 'ndcg_cut.5': ndcg, 'recall.10': 1 } }),
        outcome('q2', { top1: 'not_useful' }),
      ],
      metrics: [
        mean('ndcg_cut.5', ndcg, 60),
        mean('recall.10', 0.9, 60),
        rate('replay_determinism', 60, 60),
        rate('budget_compliance', 1800, 1800),
      ],
    }),
    { startedAt },
  );
}

describe('Gate C closeout', () => {
  it('binds the run to the verified freeze and cites the reset note when the fixture version changed', () => {
    const { root, dir } = frozenFixture();
    const store = new SqliteRunStore(join(root, 'h.sqlite'));
    storeGateCRun(store, root, 'base', '2026-11-01T00:00:00Z', 0.5);
    setSuiteBaseline(store, 'ctx', 'base', 'uniform weighting, frozen for Gate C');
    // the query set changes: the real freeze writer demands a version bump AND a reset note
    appendFileSync(
      join(dir, 'queries.jsonl'),
      JSON.stringify({ query_id: 'q2', text: 'beta', qrels: { 'doc-b': 1 } }) + '\n',
    );
    expect(() => writeFreeze(dir, { frozenOn: '2026-11-10', version: 'v2' })).toThrow(
      /needs a baseline reset note/,
    );
    writeFreeze(dir, {
      frozenOn: '2026-11-10',
      version: 'v2',
      resetNote: 'added q2 (budget notes); baseline re-measured',
    });
    storeGateCRun(store, root, 'cand', '2026-11-20T00:00:00Z', 0.6);

    const doc = buildCloseout({
      suite: 'ctx',
      policy: loadGatePolicy(GATE_C, REPO),
      pinned: loadFixtureSet('ctx', { root }),
      store,
      residuals: [
        { id: 'R1', risk: 'latency not measured on the large profile', owner: 'mara', due: '2026-12-15' },
      ],
    });
    store.close();
    expect(doc.run.run_id).toBe('cand');
    expect(doc.freeze).toMatchObject({ verified: true, artifact_id: 'ctx-fixture', version: 'v2' });
    expect(doc.baseline).toMatchObject({
      run_id: 'base',
      version: 'v1',
      version_changed: true,
      reset_note: 'v2: added q2 (budget notes); baseline re-measured',
    });
    const uplift = doc.gate.rules.find((r) => r.metric === 'ndcg_cut.5')!;
    expect(uplift.observed).toBeCloseTo(0.2, 10);
    expect(uplift.status).toBe('pass');
    const md = renderCloseoutMarkdown(doc);
    expect(md).toContain(
      '**Baseline reset note** (fixture `v1` → `v2`): v2: added q2 (budget notes); baseline re-measured',
    );
    expect(md).toContain('| R1 | latency not measured on the large profile | mara | 2026-12-15 |');
    expect(md).toContain('## 8. Sign-off');
    const page = renderCloseoutHtml(doc);
    expect(page).toContain('Baseline reset note');
    expect(page).not.toMatch(/<script src=/);
  });

  it('refuses a fixture changed without a version bump and reset note (rgate closeout, exit 2)', async () => {
    const { root, dir } = frozenFixture();
    writeFileSync(
      join(root, 'rgate.config.json'),
      JSON.stringify({
        suites: {
          ctx: {
            fixture: 'ctx',
            system: { type: 'builtin' },
            gate: join(REPO, 'gates', `${GATE_C}.gate.json`),
          },
        },
      }),
    );
    const store = new SqliteRunStore(join(root, '.rgate', 'history.sqlite'));
    storeGateCRun(store, root, 'base', '2026-11-01T00:00:00Z', 0.5);
    setSuiteBaseline(store, 'ctx', 'base');
    storeGateCRun(store, root, 'cand', '2026-11-02T00:00:00Z', 0.6);
    store.close();
    // a query edited in place: no version bump, no reset note
    writeFileSync(
      join(dir, 'queries.jsonl'),
      JSON.stringify({ query_id: 'q1', text: 'alpha contract', qrels: { 'doc-a': 1 } }) + '\n',
    );
    const io = captureIo(root);
    expect(await runCli(['closeout', 'ctx', '--out', 'out'], io)).toBe(2);
    expect(io.stderr.join('\n')).toMatch(/queries\.jsonl/);
    expect(existsSync(join(root, 'out'))).toBe(false);
  });

  it('names the queries behind a failing nDCG uplift, and says so when the baseline report is unreadable', () => {
    const { root } = frozenFixture();
    const store = new SqliteRunStore(join(root, 'h.sqlite'));
    storeGateCRun(store, root, 'base', '2026-11-01T00:00:00Z', 0.5);
    setSuiteBaseline(store, 'ctx', 'base');
    storeGateCRun(store, root, 'cand', '2026-11-02T00:00:00Z', 0.3, true);
    const close = () =>
      buildCloseout({
        suite: 'ctx',
        policy: loadGatePolicy(GATE_C, REPO),
        pinned: loadFixtureSet('ctx', { root }),
        store,
        residuals: [],
      });
    const doc = close();
    expect(doc.ranking_evidence).toEqual([
      {
        metric: 'ndcg_cut.5',
        rule: 'ndcg_cut.5 vs baseline',
        kind: 'vs_baseline',
        baseline_run_id: 'base',
        n: 1,
        improved: 0,
        tied: 0,
        dropped: 1,
        unpaired: 0,
        // one query that moved: either sign is as extreme, p 1
        p_value: 1,
        p_exact: true,
        queries: [{ query_id: 'q1', text: 'query q1', value: 0.3, baseline: 0.5, delta: 0.3 - 0.5 }],
      },
    ]);
    expect(renderCloseoutMarkdown(doc)).toContain('| `q1` | query q1 | 0.3 | 0.5 | -0.2 |');

    // a baseline stored by an older rgate: its metrics still gate, its queries cannot be compared
    store.beginRun({
      run_id: 'old',
      suite: 'ctx',
      started_at: '2026-10-01T00:00:00Z',
      artifacts: doc.baseline!.artifacts,
      settings: doc.run.settings,
    });
    store.finishRun('old', {
      status: 'complete',
      finished_at: '2026-10-01T00:00:00Z',
      gate_id: 'g',
      verdict: 'PASS',
      metrics: [mean('ndcg_cut.5', 0.5, 60), mean('recall.10', 0.9, 60)],
      report: { schema_version: 'rgate-report/0' },
    });
    setSuiteBaseline(store, 'ctx', 'old');
    const older = close();
    store.close();
    expect(older.ranking_evidence).toEqual([
      expect.objectContaining({ rule: 'ndcg_cut.5 vs baseline', n: 0, baseline_run_id: 'old', queries: [] }),
    ]);
    expect(renderCloseoutMarkdown(older)).toContain(
      '`ndcg_cut.5 vs baseline`: the stored report of baseline run old cannot be read (a run stored by an older rgate), so its queries cannot be compared one by one.',
    );
  });

  it('refuses a run made before the fixture changed, and a Gate C closeout without a baseline', () => {
    const { root, dir } = frozenFixture();
    const store = new SqliteRunStore(join(root, 'h.sqlite'));
    storeGateCRun(store, root, 'old', '2026-11-01T00:00:00Z', 0.5);
    const policy = loadGatePolicy(GATE_C, REPO);
    expect(() =>
      buildCloseout({ suite: 'ctx', policy, pinned: loadFixtureSet('ctx', { root }), store, residuals: [] }),
    ).toThrow(/compares against a baseline and suite "ctx" has none/);
    appendFileSync(
      join(dir, 'queries.jsonl'),
      JSON.stringify({ query_id: 'q2', text: 'beta', qrels: { 'doc-b': 1 } }) + '\n',
    );
    writeFreeze(dir, { frozenOn: '2026-11-10', version: 'v2', resetNote: 'q2 added' });
    setSuiteBaseline(store, 'ctx', 'old');
    expect(() =>
      buildCloseout({ suite: 'ctx', policy, pinned: loadFixtureSet('ctx', { root }), store, residuals: [] }),
    ).toThrow(/run old was made on ctx-fixture v1 .* the frozen fixture is now v2/);
    store.close();
  });
});

describe('residual risks', () => {
  it('refuses a residual without an owner or a due date, naming the JSON path', () => {
    expect(() =>
      parseResiduals(
        {
          residuals: [
            { risk: 'a', owner: 'x', due: '2026-12-01' },
            { risk: 'b', due: '2026-12-01' },
          ],
        },
        'residuals.json',
      ),
    ).toThrow('residuals.json /residuals/1/owner: every residual risk needs an owner');
    expect(() => parseResiduals([{ risk: 'a', owner: 'x' }], 'r.json')).toThrow(
      'r.json /0/due: every residual risk needs a due date',
    );
    expect(() => parseResiduals([{ risk: 'a', owner: 'x', due: '2026-02-30' }], 'r.json')).toThrow(
      'r.json /0/due: "2026-02-30" is not a date',
    );
    expect(parseResiduals([{ description: 'a', owner: ' x ', due: '2026-12-01' }], 'r.json')).toEqual([
      { id: 'R1', risk: 'a', owner: 'x', due: '2026-12-01' },
    ]);
  });

  it('rgate closeout refuses a residuals file missing an owner with exit 2 and no document written', async () => {
    const { root } = frozenFixture();
    writeFileSync(
      join(root, 'rgate.config.json'),
      JSON.stringify({
        suites: {
          ctx: {
            fixture: 'ctx',
            system: { type: 'builtin' },
            gate: join(REPO, 'gates', `${GATE_C}.gate.json`),
          },
        },
      }),
    );
    writeFileSync(
      join(root, 'residuals.json'),
      JSON.stringify({ residuals: [{ id: 'R9', risk: 'unowned', due: '2026-12-01' }] }),
    );
    const io = captureIo(root);
    const code = await runCli(['closeout', 'ctx', '--residuals', 'residuals.json'], io);
    expect(code).toBe(2);
    expect(io.stderr.join('\n')).toContain(
      'residuals.json /residuals/0/owner: every residual risk needs an owner',
    );
  });

  it('rgate closeout writes the Markdown, HTML and JSON documents end to end', async () => {
    const { root } = frozenFixture();
    writeFileSync(
      join(root, 'rgate.config.json'),
      JSON.stringify({
        suites: {
          ctx: {
            fixture: 'ctx',
            system: { type: 'builtin' },
            gate: join(REPO, 'gates', `${GATE_C}.gate.json`),
          },
        },
      }),
    );
    const store = new SqliteRunStore(join(root, '.rgate', 'history.sqlite'));
    storeGateCRun(store, root, 'base', '2026-11-01T00:00:00Z', 0.5);
    storeGateCRun(store, root, 'cand', '2026-11-02T00:00:00Z', 0.4, true);
    store.close();
    const io = captureIo(root);
    expect(await runCli(['baseline', 'set', 'ctx', 'base', '--note', 'frozen'], io)).toBe(0);
    const code = await runCli(['closeout', 'ctx', '--out', 'out'], io);
    // nDCG@5 fell 20% against the baseline: the closeout is written and says FAIL (exit 1)
    expect(io.stderr).toEqual([]);
    expect(code).toBe(1);
    const md = readFileSync(join(root, 'out', 'closeout.md'), 'utf8');
    expect(md).toContain('**Verdict: FAIL**');
    expect(md).toContain('The baseline ran on the same frozen fixture version: no reset note required.');
    expect(readFileSync(join(root, 'out', 'closeout.html'), 'utf8')).toContain('<canvas id="rules"');
    expect(JSON.parse(readFileSync(join(root, 'out', 'closeout.json'), 'utf8')).schema).toBe(
      'rgate-closeout/1',
    );
  });
});
