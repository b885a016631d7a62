import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { savePending, uploadOf } from '../src/cli/upload-client.js';
import { SqliteRunStore } from '../src/store/sqlite-store.js';
import { call, clientAgainstServer, startServer, withRunId } from './helpers/server.js';

/** The client side against a real server: rgate upload, run --upload, merge --upload, pending uploads. */
const w = clientAgainstServer('rgate-srv-cli-');

async function serverRuns(): Promise<string[]> {
  const r = await call(w.srv.base, 'GET', '/api/projects/ci/runs', { token: w.token });
  return (r.body.runs as { run_id: string }[]).map((x) => x.run_id);
}

describe('rgate upload', () => {
  it('sends a stored run and prints its URL; again, the server says it has it (one run)', async () => {
    const first = await w.cli(['upload', 'latest', '--server', w.srv.base, '--project', 'ci']);
    expect(first.code, first.err).toBe(0);
    expect(first.out).toBe(`uploaded run ${w.project.runId}: ${w.srv.base}/p/ci/runs/${w.project.runId}`);
    const again = await w.cli([
      'upload',
      w.project.runId.slice(0, 12),
      '--server',
      w.srv.base,
      '--project',
      'ci',
    ]);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toContain('already on the server (nothing new stored)');
    expect(await serverRuns()).toEqual([w.project.runId]);
    const page = await call(w.srv.base, 'GET', `/p/ci/runs/${w.project.runId}`, { token: w.token });
    expect(page.status).toBe(200);
  });

  it('says what is missing before sending anything: no token, no project, not a URL (exit 2)', async () => {
    const noToken = await w.cli(['upload', 'latest', '--server', w.srv.base, '--project', 'ci'], {});
    expect([noToken.code, noToken.err]).toEqual([
      2,
      "rgate: error: no upload token: environment variable RGATE_SERVER_TOKEN is not set\n  hint: export RGATE_SERVER_TOKEN=<the project's upload token>, or name another variable with --token-env",
    ]);
    expect((await w.cli(['upload', 'latest', '--server', w.srv.base])).err).toContain('needs --project');
    expect((await w.cli(['upload', 'latest', '--server', 'ftp://x', '--project', 'ci'])).code).toBe(2);
    const refused = await w.cli(
      ['upload', 'latest', '--server', w.srv.base, '--project', 'ci', '--token-env', 'WRONG'],
      {
        WRONG: 'rgate_up_wrong',
      },
    );
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('refused run');
    expect(refused.err).not.toContain('rgate_up_wrong');
    // a refused upload is kept too: nothing is lost while a token is fixed
    const pending = join(w.project.dir, '.rgate', 'pending-uploads');
    expect(readdirSync(pending)).toHaveLength(1);
    rmSync(pending, { recursive: true });
  });
});

describe('rgate run --upload, an unreachable server, rgate upload --pending', () => {
  it('prints the URL; with the server down the gate still decides the exit code and the run waits in pending-uploads', async () => {
    const up = await w.cli(['run', '--upload', w.srv.base, '--project', 'ci']);
    expect(up.code, up.err).toBe(0);
    const url = /uploaded run (\S+): (\S+)/.exec(up.out);
    expect(url?.[2]).toBe(`${w.srv.base}/p/ci/runs/${url?.[1]}`);

    // a port nothing listens on: a server started and stopped
    const gone = await startServer(join(w.data, 'gone'));
    const deadBase = gone.base;
    await gone.stop();
    const down = await w.cli(['run', '--upload', deadBase, '--project', 'ci', '--retries', '1']);
    expect(down.code, down.err).toBe(0);
    expect(down.err).toMatch(
      /warning: http:\/\/127\.0\.0\.1:\d+ could not take run \S+ \(ECONNREFUSED\); kept in \.rgate\/pending-uploads\/\S+\.json: send it later with rgate upload --pending/,
    );
    const pendingDir = join(w.project.dir, '.rgate', 'pending-uploads');
    expect(readdirSync(pendingDir)).toHaveLength(1);

    // later: the server is back (here: the pending upload is pointed at the live one)
    const sent = await w.cli(['upload', '--pending', '--server', w.srv.base]);
    expect(sent.code, sent.err).toBe(0);
    expect(sent.err).toMatch(/^uploaded: run \S+: http/);
    expect(readdirSync(pendingDir)).toEqual([]);
    const again = await w.cli(['upload', '--pending']);
    expect([again.code, again.out]).toEqual([0, 'no pending uploads in .rgate']);
    expect(await serverRuns()).toHaveLength(3);
  });
});

describe('rgate merge --upload', () => {
  it('a merge and a re-merge of the same shards are one run on the server', async () => {
    const shards = join(w.project.dir, 'shards');
    for (const i of ['1/2', '2/2']) {
      const r = await w.cli(['run', 'retrieval', '--shard', i, '--shard-out', join(shards, `s${i[0]}.json`)]);
      expect(r.code, r.err).toBe(0);
    }
    const files = [join(shards, 's1.json'), join(shards, 's2.json')];
    const before = (await serverRuns()).length;
    const m1 = await w.cli(['merge', ...files, '--upload', w.srv.base, '--project', 'ci']);
    expect(m1.code, m1.err).toBe(0);
    expect(m1.out).toMatch(/uploaded run \S+: http/);
    const m2 = await w.cli(['merge', ...files, '--upload', w.srv.base, '--project', 'ci']);
    expect(m2.code, m2.err).toBe(0);
    expect(m2.out).toContain('already on the server');
    expect(await serverRuns()).toHaveLength(before + 1);
    expect(existsSync(join(w.project.dir, '.rgate', 'pending-uploads'))).toBe(true);
  });
});

describe('git recorded when the run is made; pending uploads the server already has', () => {
  const pendingDir = () => join(w.project.dir, '.rgate', 'pending-uploads');

  it('the run keeps the commit and branch it was made on; an upload from another checkout sends those, and again is the same run', async () => {
    const made = await w.cli(['run'], { GITHUB_SHA: 'a'.repeat(40), GITHUB_REF_NAME: 'main' });
    expect(made.code, made.err).toBe(0);
    const store = new SqliteRunStore(join(w.project.dir, '.rgate', 'history.sqlite'));
    const row = store.listRuns({ limit: 1 })[0]!;
    store.close();
    expect(row.git).toEqual({ commit: 'a'.repeat(40), branch: 'main' });

    const later = { RGATE_SERVER_TOKEN: w.token, GITHUB_SHA: 'b'.repeat(40), GITHUB_REF_NAME: 'other' };
    const first = await w.cli(['upload', row.run_id, '--server', w.srv.base, '--project', 'ci'], later);
    expect(first.code, first.err).toBe(0);
    const stored = await call(w.srv.base, 'GET', `/api/projects/ci/runs/${row.run_id}`, { token: w.token });
    expect((stored.body.run as { git: unknown }).git).toEqual({ commit: 'a'.repeat(40), branch: 'main' });
    const again = await w.cli(['upload', row.run_id, '--server', w.srv.base, '--project', 'ci'], {
      ...later,
      GITHUB_SHA: 'c'.repeat(40),
    });
    expect(again.code, again.err).toBe(0);
    expect(again.out).toContain('already on the server (nothing new stored)');
  });

  it('a pending file of a run the server has (same content) is cleared; one with other content is reported once and set aside', async () => {
    const store = new SqliteRunStore(join(w.project.dir, '.rgate', 'history.sqlite'));
    const row = store.listRuns({ limit: 1 })[0]!;
    const same = uploadOf(store, row.run_id);
    store.close();
    savePending(join(w.project.dir, '.rgate'), { server: w.srv.base, project: 'ci' }, same);
    const cleared = await w.cli(['upload', '--pending']);
    expect(cleared.code, cleared.err).toBe(0);
    expect(cleared.err).toBe(
      `already on the server: run ${row.run_id}: ${w.srv.base}/p/ci/runs/${row.run_id}`,
    );
    expect(readdirSync(pendingDir())).toEqual([]);

    const other = structuredClone(same);
    other.meta.git = { commit: 'd'.repeat(40) };
    savePending(join(w.project.dir, '.rgate'), { server: w.srv.base, project: 'ci' }, other);
    const clash = await w.cli(['upload', '--pending']);
    expect(clash.code).toBe(2);
    expect(clash.err).toBe(
      `rgate: run ${row.run_id} not sent: HTTP 409: run ${row.run_id} is already stored in project ci with other content; the server keeps its copy. Moved out of the queue to .rgate/pending-uploads/conflicts/${row.run_id}--ci.json (rgate upload --pending skips it from now on): compare it with the server's, then delete it`,
    );
    const next = await w.cli(['upload', '--pending']);
    expect([next.code, next.out]).toEqual([0, 'no pending uploads in .rgate']);
    expect(readdirSync(join(pendingDir(), 'conflicts'))).toEqual([`${row.run_id}--ci.json`]);
  });
});

describe('rgate upload --pending with the server gone (#33)', () => {
  it('exits non-zero with the count of what stays unsent, and sends it all once a server answers', async () => {
    // a port nothing listens on: a server started and stopped
    const gone = await startServer(join(w.data, 'gone-pending'));
    const deadBase = gone.base;
    await gone.stop();
    const outDir = join(w.project.dir, '.rgate');
    const ids = ['20991231T000001Z-aaaaaa', '20991231T000002Z-bbbbbb', '20991231T000003Z-cccccc'];
    for (const id of ids)
      savePending(outDir, { server: deadBase, project: 'ci' }, withRunId(w.project.upload, id));
    savePending(
      outDir,
      { server: w.srv.base, project: 'ci' },
      withRunId(w.project.upload, '20991231T000004Z-dddddd'),
    );

    const r = await w.cli(['upload', '--pending', '--retries', '0']);
    expect(r.code, r.err).toBe(3);
    expect(r.err.split('\n').at(-1)).toBe(
      'rgate: 3 of 4 pending uploads still unsent (1 sent); they stay in .rgate/pending-uploads: run rgate upload --pending again once the server answers',
    );
    // (conflicts/ is the set-aside folder an earlier test left)
    const queued = () => readdirSync(join(outDir, 'pending-uploads')).filter((n) => n.endsWith('.json'));
    expect(queued().sort(), r.err).toEqual(ids.map((id) => `${id}--ci.json`));

    const sent = await w.cli(['upload', '--pending', '--server', w.srv.base]);
    expect(sent.code, sent.err).toBe(0);
    expect(sent.err).not.toContain('unsent');
    expect(queued()).toEqual([]);
    expect(await serverRuns()).toEqual(expect.arrayContaining([...ids, '20991231T000004Z-dddddd']));
  });
});
