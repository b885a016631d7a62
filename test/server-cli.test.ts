import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/program.js';
import { savePending, uploadOf } from '../src/cli/upload-client.js';
import { SqliteRunStore } from '../src/store/sqlite-store.js';
import { captureIo } from './helpers/cli-io.js';
import { call, createProject, localProject, startServer, type RunningServer } from './helpers/server.js';

/** The client side against a real server: rgate upload, run --upload, merge --upload, pending uploads. */
let project: Awaited<ReturnType<typeof localProject>>;
let srv: RunningServer;
let token = '';
const data = mkdtempSync(join(tmpdir(), 'rgate-srv-cli-'));

beforeAll(async () => {
  project = await localProject();
  srv = await startServer(join(data, 'server'), { rateLimit: 0 });
  token = await createProject(srv.base, 'ci');
});
afterAll(async () => {
  await srv.stop();
  project.cleanup();
  rmSync(data, { recursive: true, force: true });
});

async function cli(args: string[], env: Record<string, string> = { RGATE_SERVER_TOKEN: token }) {
  const io = captureIo(project.dir, env);
  const code = await runCli(args, io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

async function serverRuns(): Promise<string[]> {
  const r = await call(srv.base, 'GET', '/api/projects/ci/runs', { token });
  return (r.body.runs as { run_id: string }[]).map((x) => x.run_id);
}

describe('rgate upload', () => {
  it('sends a stored run and prints its URL; again, the server says it has it (one run)', async () => {
    const first = await cli(['upload', 'latest', '--server', srv.base, '--project', 'ci']);
    expect(first.code, first.err).toBe(0);
    expect(first.out).toBe(`uploaded run ${project.runId}: ${srv.base}/p/ci/runs/${project.runId}`);
    const again = await cli(['upload', project.runId.slice(0, 12), '--server', srv.base, '--project', 'ci']);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toContain('already on the server (nothing new stored)');
    expect(await serverRuns()).toEqual([project.runId]);
    const page = await call(srv.base, 'GET', `/p/ci/runs/${project.runId}`, { token });
    expect(page.status).toBe(200);
  });

  it('says what is missing before sending anything: no token, no project, not a URL (exit 2)', async () => {
    const noToken = await cli(['upload', 'latest', '--server', srv.base, '--project', 'ci'], {});
    expect([noToken.code, noToken.err]).toEqual([
      2,
      "rgate: error: no upload token: environment variable RGATE_SERVER_TOKEN is not set\n  hint: export RGATE_SERVER_TOKEN=<the project's upload token>, or name another variable with --token-env",
    ]);
    expect((await cli(['upload', 'latest', '--server', srv.base])).err).toContain('needs --project');
    expect((await cli(['upload', 'latest', '--server', 'ftp://x', '--project', 'ci'])).code).toBe(2);
    const refused = await cli(
      ['upload', 'latest', '--server', srv.base, '--project', 'ci', '--token-env', 'WRONG'],
      {
        WRONG: 'rgate_up_wrong',
      },
    );
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('refused run');
    expect(refused.err).not.toContain('rgate_up_wrong');
    // a refused upload is kept too: nothing is lost while a token is fixed
    const pending = join(project.dir, '.rgate', 'pending-uploads');
    expect(readdirSync(pending)).toHaveLength(1);
    rmSync(pending, { recursive: true });
  });
});

describe('rgate run --upload, an unreachable server, rgate upload --pending', () => {
  it('prints the URL; with the server down the gate still decides the exit code and the run waits in pending-uploads', async () => {
    const up = await cli(['run', '--upload', srv.base, '--project', 'ci']);
    expect(up.code, up.err).toBe(0);
    const url = /uploaded run (\S+): (\S+)/.exec(up.out);
    expect(url?.[2]).toBe(`${srv.base}/p/ci/runs/${url?.[1]}`);

    // a port nothing listens on: a server started and stopped
    const gone = await startServer(join(data, 'gone'));
    const deadBase = gone.base;
    await gone.stop();
    const down = await cli(['run', '--upload', deadBase, '--project', 'ci', '--retries', '1']);
    expect(down.code, down.err).toBe(0);
    expect(down.err).toMatch(
      /warning: http:\/\/127\.0\.0\.1:\d+ could not take run \S+ \(ECONNREFUSED\); kept in \.rgate\/pending-uploads\/\S+\.json: send it later with rgate upload --pending/,
    );
    const pendingDir = join(project.dir, '.rgate', 'pending-uploads');
    expect(readdirSync(pendingDir)).toHaveLength(1);

    // later: the server is back (here: the pending upload is pointed at the live one)
    const sent = await cli(['upload', '--pending', '--server', srv.base]);
    expect(sent.code, sent.err).toBe(0);
    expect(sent.err).toMatch(/^uploaded: run \S+: http/);
    expect(readdirSync(pendingDir)).toEqual([]);
    const again = await cli(['upload', '--pending']);
    expect([again.code, again.out]).toEqual([0, 'no pending uploads in .rgate']);
    expect(await serverRuns()).toHaveLength(3);
  });
});

describe('rgate merge --upload', () => {
  it('a merge and a re-merge of the same shards are one run on the server', async () => {
    const shards = join(project.dir, 'shards');
    for (const i of ['1/2', '2/2']) {
      const r = await cli(['run', 'retrieval', '--shard', i, '--shard-out', join(shards, `s${i[0]}.json`)]);
      expect(r.code, r.err).toBe(0);
    }
    const files = [join(shards, 's1.json'), join(shards, 's2.json')];
    const before = (await serverRuns()).length;
    const m1 = await cli(['merge', ...files, '--upload', srv.base, '--project', 'ci']);
    expect(m1.code, m1.err).toBe(0);
    expect(m1.out).toMatch(/uploaded run \S+: http/);
    const m2 = await cli(['merge', ...files, '--upload', srv.base, '--project', 'ci']);
    expect(m2.code, m2.err).toBe(0);
    expect(m2.out).toContain('already on the server');
    expect(await serverRuns()).toHaveLength(before + 1);
    expect(existsSync(join(project.dir, '.rgate', 'pending-uploads'))).toBe(true);
  });
});

describe('git recorded when the run is made; pending uploads the server already has', () => {
  const pendingDir = () => join(project.dir, '.rgate', 'pending-uploads');

  it('the run keeps the commit and branch it was made on; an upload from another checkout sends those, and again is the same run', async () => {
    const made = await cli(['run'], { GITHUB_SHA: 'a'.repeat(40), GITHUB_REF_NAME: 'main' });
    expect(made.code, made.err).toBe(0);
    const store = new SqliteRunStore(join(project.dir, '.rgate', 'history.sqlite'));
    const row = store.listRuns({ limit: 1 })[0]!;
    store.close();
    expect(row.git).toEqual({ commit: 'a'.repeat(40), branch: 'main' });

    const later = { RGATE_SERVER_TOKEN: token, GITHUB_SHA: 'b'.repeat(40), GITHUB_REF_NAME: 'other' };
    const first = await cli(['upload', row.run_id, '--server', srv.base, '--project', 'ci'], later);
    expect(first.code, first.err).toBe(0);
    const stored = await call(srv.base, 'GET', `/api/projects/ci/runs/${row.run_id}`, { token });
    expect((stored.body.run as { git: unknown }).git).toEqual({ commit: 'a'.repeat(40), branch: 'main' });
    const again = await cli(['upload', row.run_id, '--server', srv.base, '--project', 'ci'], {
      ...later,
      GITHUB_SHA: 'c'.repeat(40),
    });
    expect(again.code, again.err).toBe(0);
    expect(again.out).toContain('already on the server (nothing new stored)');
  });

  it('a pending file of a run the server has (same content) is cleared; one with other content is reported once and set aside', async () => {
    const store = new SqliteRunStore(join(project.dir, '.rgate', 'history.sqlite'));
    const row = store.listRuns({ limit: 1 })[0]!;
    const same = uploadOf(store, row.run_id);
    store.close();
    savePending(join(project.dir, '.rgate'), { server: srv.base, project: 'ci' }, same);
    const cleared = await cli(['upload', '--pending']);
    expect(cleared.code, cleared.err).toBe(0);
    expect(cleared.err).toBe(`already on the server: run ${row.run_id}: ${srv.base}/p/ci/runs/${row.run_id}`);
    expect(readdirSync(pendingDir())).toEqual([]);

    const other = structuredClone(same);
    other.meta.git = { commit: 'd'.repeat(40) };
    savePending(join(project.dir, '.rgate'), { server: srv.base, project: 'ci' }, other);
    const clash = await cli(['upload', '--pending']);
    expect(clash.code).toBe(2);
    expect(clash.err).toBe(
      `rgate: run ${row.run_id} not sent: HTTP 409: run ${row.run_id} is already stored in project ci with other content; the server keeps its copy. Moved out of the queue to .rgate/pending-uploads/conflicts/${row.run_id}--ci.json (rgate upload --pending skips it from now on): compare it with the server's, then delete it`,
    );
    const next = await cli(['upload', '--pending']);
    expect([next.code, next.out]).toEqual([0, 'no pending uploads in .rgate']);
    expect(readdirSync(join(pendingDir(), 'conflicts'))).toEqual([`${row.run_id}--ci.json`]);
  });
});
