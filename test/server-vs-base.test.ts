import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/program.js';
import type { GitRef, RunUpload } from '../src/documents/index.js';
import { captureIo } from './helpers/cli-io.js';
import { postgresUnavailable, startPgCluster } from './helpers/postgres.js';
import { ADMIN, call, localProject, startServer, withRunId, type RunningServer } from './helpers/server.js';

/**
 * A branch against its base on `rgate server` (issue 35, item 1): the project's base branch and
 * repository URL set at creation and by PATCH, base-branch runs and a pull request's run uploaded,
 * the upload answer's vs_base link and the page it names, over real SQLite files and PostgreSQL.
 */
let project: Awaited<ReturnType<typeof localProject>>;
const data = mkdtempSync(join(tmpdir(), 'rgate-srv-vsbase-'));
beforeAll(async () => {
  project = await localProject('rgate-srv-vsbase-proj-');
});
afterAll(() => {
  project.cleanup();
  rmSync(data, { recursive: true, force: true });
});

const MERGE_BASE = 'a'.repeat(40);

function runOn(id: string, startedAt: string, git: GitRef): RunUpload {
  const u = withRunId(project.upload, id);
  u.meta.started_at = startedAt;
  u.meta.git = git;
  return u;
}

/** What both stores must do: returns the upload token of project "ci". */
async function branchVsBase(srv: RunningServer): Promise<string> {
  const created = await call(srv.base, 'POST', '/api/projects', {
    token: ADMIN,
    body: { slug: 'ci', base_branch: 'develop', repository_url: 'https://git.example.org/r/commit/{commit}' },
  });
  expect(created.status, created.text).toBe(201);
  expect(created.body).toMatchObject({
    base_branch: 'develop',
    repository_url: 'https://git.example.org/r/commit/{commit}',
  });
  const token = created.body.token as string;

  // the admin changes the settings later; nobody else may, and a bad one changes nothing
  const patch = (body: unknown, t = ADMIN, slug = 'ci') =>
    call(srv.base, 'PATCH', `/api/projects/${slug}`, { token: t, body });
  expect((await patch({ repository_url: 'https://git.example.org/r/-/{commit}' })).body).toMatchObject({
    project: { slug: 'ci', base_branch: 'develop', repository_url: 'https://git.example.org/r/-/{commit}' },
  });
  expect((await patch({ base_branch: 'develop' }, token)).status).toBe(403);
  expect((await patch({ base_branch: 'x' }, ADMIN, 'nope')).status).toBe(404);
  const bad = await patch({ repository_url: 'javascript:alert(1)' });
  expect(bad.status).toBe(400);
  expect(bad.body.path).toBe('/repository_url');
  expect((await patch({})).status).toBe(400);
  const listed = await call(srv.base, 'GET', '/api/projects', { token: ADMIN });
  expect(listed.body.projects).toEqual([
    expect.objectContaining({
      slug: 'ci',
      base_branch: 'develop',
      repository_url: 'https://git.example.org/r/-/{commit}',
    }),
  ]);

  const upload = (u: RunUpload) => call(srv.base, 'POST', '/api/projects/ci/runs', { token, body: u });
  // base-branch runs: no comparison of their own
  const b1 = await upload(runOn('base-1', '2026-01-01T00:00:00Z', { branch: 'develop', commit: MERGE_BASE }));
  expect(b1.status, b1.text).toBe(201);
  expect(b1.body).toEqual({ run_id: 'base-1', stored: true, url: '/p/ci/runs/base-1' });
  expect(
    (await upload(runOn('base-2', '2026-01-02T00:00:00Z', { branch: 'develop', commit: 'b'.repeat(40) })))
      .status,
  ).toBe(201);
  // a run on main is no base run here: the project's base branch is develop
  expect((await upload(runOn('main-1', '2026-01-02T12:00:00Z', { branch: 'main' }))).status).toBe(201);

  const pr = await upload(
    runOn('pr-1', '2026-01-03T00:00:00Z', {
      branch: 'feature',
      commit: 'c'.repeat(40),
      pr: 9,
      merge_base: MERGE_BASE,
    }),
  );
  expect(pr.body).toEqual({
    run_id: 'pr-1',
    stored: true,
    url: '/p/ci/runs/pr-1',
    vs_base: '/p/ci/runs/pr-1/vs-base',
  });
  const page = await call(srv.base, 'GET', '/p/ci/runs/pr-1/vs-base', { token });
  expect(page.status, page.text).toBe(200);
  expect(page.text).toContain(
    `Run pr-1 against base run base-1 (the reference; merge-base run): the run of the merge-base commit ${MERGE_BASE.slice(0, 12)} on develop.`,
  );

  // no merge base named: the newest develop run before it, and the page says so
  await upload(runOn('pr-2', '2026-01-04T00:00:00Z', { branch: 'feature' }));
  const newest = await call(srv.base, 'GET', '/p/ci/runs/pr-2/vs-base', { token });
  expect(newest.status).toBe(200);
  expect(newest.text).toContain(
    'Run pr-2 against base run base-2 (the reference; newest base-branch run): the newest run of develop before this run (the upload named no merge-base commit).',
  );
  // a base run has none; a private project's page without a token is as missing as a missing one
  const none = await call(srv.base, 'GET', '/p/ci/runs/base-1/vs-base', { token });
  expect(none.status).toBe(404);
  expect(none.text).toContain('run base-1 is a run of the base branch develop itself');
  expect((await call(srv.base, 'GET', '/p/ci/runs/pr-1/vs-base')).status).toBe(404);
  // the runs list links each commit by the project's repository URL template
  const runs = await call(srv.base, 'GET', '/p/ci/runs', { token });
  expect(runs.status).toBe(200);
  expect(runs.text).toContain(`href="https://git.example.org/r/-/${'c'.repeat(40)}"`);
  return token;
}

describe('branch vs base over SQLite', () => {
  it('project settings, the upload answer, the vs-base page; rgate run --upload prints the link', async () => {
    const srv = await startServer(join(data, 'server'), { rateLimit: 0 });
    const summary = join(data, 'step-summary.md');
    try {
      const token = await branchVsBase(srv);
      // a pull request's run in CI: the CLI reads the PR from GitHub's variables and prints the link
      const io = captureIo(project.dir, {
        RGATE_SERVER_TOKEN: token,
        GITHUB_SHA: 'd'.repeat(40),
        GITHUB_HEAD_REF: 'feature',
        GITHUB_REF: 'refs/pull/9/merge',
        GITHUB_BASE_REF: 'develop',
        RGATE_MERGE_BASE: MERGE_BASE,
        GITHUB_STEP_SUMMARY: summary,
      });
      const code = await runCli(['run', '--upload', srv.base, '--project', 'ci'], io);
      expect(code, io.stderr.join('\n')).toBe(0);
      const out = io.stdout.join('\n');
      const id = /uploaded run (\S+):/.exec(out)?.[1];
      expect(id, out).toBeDefined();
      expect(out).toContain(`run ${id} against its base branch: ${srv.base}/p/ci/runs/${id}/vs-base`);
      // the job's step summary links both pages
      expect(readFileSync(summary, 'utf8')).toBe(
        `- rgate run \`${id}\` on the dashboard: ${srv.base}/p/ci/runs/${id}\n` +
          `- against its base branch: ${srv.base}/p/ci/runs/${id}/vs-base\n`,
      );
      const row = await call(srv.base, 'GET', `/api/projects/ci/runs/${id}`, { token });
      expect((row.body.run as { git: GitRef }).git).toEqual({
        commit: 'd'.repeat(40),
        branch: 'feature',
        pr: 9,
        base_branch: 'develop',
        merge_base: MERGE_BASE,
      });
      const page = await call(srv.base, 'GET', `/p/ci/runs/${id}/vs-base`, { token });
      expect(page.text).toContain(`Run ${id} against base run base-1 (the reference; merge-base run)`);
    } finally {
      await srv.stop();
    }
  });
});

const pgSkip = postgresUnavailable();
describe.skipIf(pgSkip !== undefined)(
  `branch vs base over PostgreSQL${pgSkip ? ` (skipped: ${pgSkip})` : ''}`,
  () => {
    it('the same answers and pages', async () => {
      const cluster = await startPgCluster();
      const srv = await startServer(await cluster.createDatabase(), { rateLimit: 0 });
      try {
        await branchVsBase(srv);
      } finally {
        await srv.stop();
        await cluster.stop();
      }
    });
  },
);
