import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/program.js';
import { captureIo } from './helpers/cli-io.js';
import { postgresUnavailable, startPgCluster } from './helpers/postgres.js';
import { ADMIN, call, startServer, type RunningServer } from './helpers/server.js';

/**
 * The vs-base gate on `rgate server` (issue 35, item 1): a gate policy's vs_base rule, not evaluated
 * by the run itself, judged by the server on upload against the base branch's run with the vs-base
 * page's paired test. A base-branch run of the builtin BM25 engine, then a pull request's run of a
 * system that ranks every query's relevant document out of the top 10 (a TREC run file answered by
 * examples/trec-run-worker.mjs): a real drop on every query. The PR's `rgate run --upload` exits 1 on
 * the server's FAIL although its own gate passes; a PR run without the drop passes. Real SQLite files
 * and PostgreSQL, real HTTP, the CLI in process.
 */
const BEIR_MINI = resolve(import.meta.dirname, 'data', 'beir-mini');
const WORKER = resolve(import.meta.dirname, '..', 'examples', 'trec-run-worker.mjs');
const MERGE_BASE = 'a'.repeat(40);
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A project from beir-mini whose gate has a vs_base rule on nDCG@10 and a floor every run here meets. */
async function project(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'rgate-vsbase-gate-'));
  dirs.push(dir);
  const io = captureIo(dir);
  expect(await runCli(['init', '--from', 'beir', BEIR_MINI], io), io.stderr.join('\n')).toBe(0);
  const gateFile = join(dir, 'gates', 'retrieval.gate.json');
  const gate = JSON.parse(readFileSync(gateFile, 'utf8')) as { rules: Record<string, unknown>[] };
  gate.rules = [
    { metric: 'error_rate', max: 0 },
    { metric: 'ndcg_cut.10', min: 0 },
    { metric: 'ndcg_cut.10', vs_base: { max_drop: 0.05 } },
  ];
  writeFileSync(gateFile, JSON.stringify(gate, null, 2));
  // every query's relevant document (beir-mini's qrels) ranked below 10 others: nDCG@10 is 0 for each
  const relevant: Record<string, string> = { q1: 'd1', q2: 'd2', q3: 'd3', q4: 'd4', q5: 'd6', q6: 'd8' };
  const lines: string[] = [];
  for (const [q, rel] of Object.entries(relevant)) {
    for (let i = 1; i <= 10; i++) lines.push(`${q} Q0 junk${i} ${i} ${20 - i} worse`);
    lines.push(`${q} Q0 ${rel} 11 1 worse`);
  }
  writeFileSync(join(dir, 'worse.txt'), `${lines.join('\n')}\n`);
  return dir;
}

/** The suite's system: the builtin BM25 engine, or the TREC run file that ranks every relevant document low. */
function useSystem(dir: string, which: 'bm25' | 'worse'): void {
  const file = join(dir, 'rgate.config.json');
  const config = JSON.parse(readFileSync(file, 'utf8')) as {
    suites: { retrieval: { system: unknown } };
  };
  config.suites.retrieval.system =
    which === 'bm25'
      ? { type: 'builtin', mode: 'bm25' }
      : { type: 'command', worker: true, contract: 'rgate', argv: ['node', WORKER, 'worse.txt'] };
  writeFileSync(file, JSON.stringify(config, null, 2));
}

const PR_ENV = {
  GITHUB_SHA: 'c'.repeat(40),
  GITHUB_HEAD_REF: 'feature',
  GITHUB_REF: 'refs/pull/9/merge',
  GITHUB_BASE_REF: 'main',
  RGATE_MERGE_BASE: MERGE_BASE,
};

async function vsBaseGate(srv: RunningServer): Promise<void> {
  const created = await call(srv.base, 'POST', '/api/projects', { token: ADMIN, body: { slug: 'ci' } });
  expect(created.status, created.text).toBe(201);
  const token = created.body.token as string;
  const dir = await project();
  const run = async (env: Record<string, string>, args: string[] = []) => {
    const io = captureIo(dir, { RGATE_SERVER_TOKEN: token, ...env });
    const code = await runCli(['run', '--upload', srv.base, '--project', 'ci', ...args], io);
    // the terminal report wraps at 80 columns: read as one line
    const out = io.stdout.join('\n').replace(/[ \n]+/g, ' ');
    return { code, out, err: io.stderr.join('\n'), id: /uploaded run (\S+):/.exec(out)?.[1] ?? '' };
  };

  // the base branch's run: its own gate passes; the rule is not evaluated here, nor by the server
  // (a run of the base branch has no base run)
  useSystem(dir, 'bm25');
  const base = await run({ GITHUB_SHA: MERGE_BASE, GITHUB_REF_NAME: 'main' });
  expect(base.code, base.err).toBe(0);
  expect(base.out).toContain(
    "NOT EVALUATED ndcg_cut.10 vs base: judged by the server against the base branch's run on upload",
  );
  expect(base.out).toContain(
    `vs-base gate NOT EVALUATED: no base run: run ${base.id} is a run of the base branch main itself`,
  );
  const md = readFileSync(join(dir, '.rgate', 'runs', base.id, 'report.md'), 'utf8');
  expect(md).toContain('**NOT EVALUATED**');

  // the pull request's run of the worse system: the server finds a significant drop on every query
  useSystem(dir, 'worse');
  const summary = join(dir, 'step-summary.md');
  const pr = await run({ ...PR_ENV, GITHUB_STEP_SUMMARY: summary });
  expect(pr.code, `${pr.out}\n${pr.err}`).toBe(1);
  // its own gate passed: only the server's judgment fails the step
  expect(pr.out).toMatch(/PASS\s+retrieval/);
  const vsBaseUrl = `${srv.base}/p/ci/runs/${pr.id}/vs-base`;
  expect(pr.out).toContain(`run ${pr.id} against its base branch: ${vsBaseUrl}`);
  expect(pr.out).toContain(`vs-base gate FAIL against base run ${base.id}: 1 of 1 rule failed`);
  expect(pr.out).toMatch(
    /FAIL ndcg_cut\.10 vs base: ndcg_cut\.10 0 vs base 1 over 6 queries \(-1, p \.0313\): a drop of 1, more than the maximum drop 0\.05, significant at alpha 0\.05/,
  );
  expect(pr.out).toContain('retrieval PASS, vs base FAIL on the server -> exit 1 (a gate failed)');
  expect(readFileSync(summary, 'utf8')).toContain(
    `- against its base branch: ${vsBaseUrl}\n- vs-base gate FAIL against base run ${base.id}: 1 of 1 rule failed\n  - FAIL ndcg_cut.10 vs base: `,
  );

  // the answer itself, as the API gives it (the same run again: stored before, judged again)
  const upload = await call(srv.base, 'GET', `/api/projects/ci/runs/${pr.id}`, { token });
  expect(upload.status).toBe(200);
  const again = captureIo(dir, { RGATE_SERVER_TOKEN: token });
  const code = await runCli(['upload', pr.id, '--server', srv.base, '--project', 'ci', '--json'], again);
  expect(code).toBe(1);
  const outcome = JSON.parse(again.stdout.join('\n')) as Record<string, unknown>;
  expect(outcome).toMatchObject({
    kind: 'exists',
    vsBase: vsBaseUrl,
    vsBaseGate: {
      verdict: 'FAIL',
      base_run_id: base.id,
      rules: [
        {
          metric: 'ndcg_cut.10',
          base: 1,
          run: 0,
          delta: -1,
          drop: 1,
          n: 6,
          max_drop: 0.05,
          significant: true,
          alpha: 0.05,
          verdict: 'FAIL',
        },
      ],
    },
  });
  expect((outcome.vsBaseGate as { rules: { p: number }[] }).rules[0]!.p).toBeCloseTo(2 / 64, 10);

  // sent late: a server down at upload time keeps the run pending; `upload --pending` is judged alike
  const down = captureIo(dir, { RGATE_SERVER_TOKEN: token });
  const downArgs = ['upload', pr.id, '--server', 'http://127.0.0.1:9', '--project', 'ci', '--retries', '0'];
  expect(await runCli(downArgs, down), down.stderr.join('\n')).toBe(3);
  const late = captureIo(dir, { RGATE_SERVER_TOKEN: token });
  const lateCode = await runCli(['upload', '--pending', '--server', srv.base, '--project', 'ci'], late);
  expect(lateCode, late.stderr.join('\n')).toBe(1);
  expect(late.stderr.join('\n')).toContain(`run ${pr.id} against its base branch: ${vsBaseUrl}`);
  expect(late.stderr.join('\n')).toContain(
    `vs-base gate FAIL against base run ${base.id}: 1 of 1 rule failed`,
  );

  // the vs-base page shows the gate; the run's page links the vs-base page, a base run's does not
  const page = await call(srv.base, 'GET', `/p/ci/runs/${pr.id}/vs-base`, { token });
  expect(page.status, page.text).toBe(200);
  expect(page.text).toContain(`vs-base gate FAIL against base run ${base.id}: 1 of 1 rule failed`);
  const runPage = await call(srv.base, 'GET', `/p/ci/runs/${pr.id}`, { token });
  expect(runPage.status).toBe(200);
  expect(runPage.text).toContain(`<a href="/p/ci/runs/${pr.id}/vs-base">vs base run ${base.id}</a>`);
  const basePage = await call(srv.base, 'GET', `/p/ci/runs/${base.id}`, { token });
  expect(basePage.text).not.toContain('/vs-base');

  // the same system as the base on the branch: no drop, the server's gate passes, exit 0
  useSystem(dir, 'bm25');
  const same = await run(PR_ENV);
  expect(same.code, `${same.out}\n${same.err}`).toBe(0);
  expect(same.out).toContain(`vs-base gate PASS against base run ${base.id}: all 1 rule met`);
  expect(same.out).toMatch(
    /PASS ndcg_cut\.10 vs base: ndcg_cut\.10 1 vs base 1 over 6 queries \(\+0, p 1\): no drop/,
  );
}

describe('the vs-base gate over SQLite', () => {
  it('judged on upload: a drop on every query fails rgate run --upload; the pages show and link it', async () => {
    const data = mkdtempSync(join(tmpdir(), 'rgate-srv-vsbase-gate-'));
    dirs.push(data);
    const srv = await startServer(join(data, 'server'), { rateLimit: 0 });
    try {
      await vsBaseGate(srv);
    } finally {
      await srv.stop();
    }
  });
});

const pgSkip = postgresUnavailable();
describe.skipIf(pgSkip !== undefined)(
  `the vs-base gate over PostgreSQL${pgSkip ? ` (skipped: ${pgSkip})` : ''}`,
  () => {
    it('the same answers, exit codes and pages', async () => {
      const cluster = await startPgCluster();
      const srv = await startServer(await cluster.createDatabase(), { rateLimit: 0 });
      try {
        await vsBaseGate(srv);
      } finally {
        await srv.stop();
        await cluster.stop();
      }
    });
  },
);
