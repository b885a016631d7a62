import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADMIN, call, clientAgainstServer, startServer } from './helpers/server.js';
import { UPLOAD_RUN_ID_PATTERN } from '../src/documents/index.js';

/**
 * A suite's baseline on `rgate server`: `rgate baseline set --upload` against a real server on
 * 127.0.0.1 over real SQLite files, and the API route it uses, validated as uploads are.
 */
const w = clientAgainstServer('rgate-srv-base-');
const SUITE = 'retrieval';

describe('rgate baseline set --upload', () => {
  it('the trend page names the command before; after it (and a newer run uploaded), the baseline is marked', async () => {
    const before = await w.cli(['run', '--upload', w.srv.base, '--project', 'ci']);
    expect(before.code, before.err).toBe(0);
    const none = await call(w.srv.base, 'GET', `/p/ci/suites/${SUITE}`, { token: w.token });
    expect(none.text).toContain(
      `rgate baseline set ${SUITE} &lt;run-id&gt; --upload &lt;server-url&gt; --project ci`,
    );

    // the run was never uploaded: baseline set sends it first
    const set = await w.cli([
      'baseline',
      'set',
      SUITE,
      w.project.runId,
      '--note',
      'Gate C <frozen>',
      '--upload',
      w.srv.base,
      '--project',
      'ci',
    ]);
    expect(set.code, set.err).toBe(0);
    expect(set.out.split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^baseline of suite ${SUITE}: run ${w.project.runId} \\(`)),
      `baseline of suite ${SUITE} on ${w.srv.base}: run ${w.project.runId}: ${w.srv.base}/p/ci/suites/${SUITE}`,
    ]);
    expect(set.err).toContain(`uploaded run ${w.project.runId}`);

    const after = await w.cli(['run', '--upload', w.srv.base, '--project', 'ci']);
    expect(after.code, after.err).toBe(0);
    const page = await call(w.srv.base, 'GET', `/p/ci/suites/${SUITE}`, { token: w.token });
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('No baseline set');
    expect(page.text).toContain(
      `Baseline: <a href="/p/ci/runs/${w.project.runId}"><code>${w.project.runId}</code></a>`,
    );
    expect(page.text).toContain('(Gate C &lt;frozen&gt;)');
    // the local baseline is the same run
    const shown = await w.cli(['baseline', 'show', SUITE, '--json']);
    expect((JSON.parse(shown.out) as { run: { run_id: string } }).run.run_id).toBe(w.project.runId);
  });

  it('says what is missing before changing anything (exit 2): no token, no project, show with --upload', async () => {
    const noToken = await w.cli(['baseline', 'set', SUITE, '--upload', w.srv.base, '--project', 'ci'], {});
    expect(noToken.code).toBe(2);
    expect(noToken.err).toContain('no upload token: environment variable RGATE_SERVER_TOKEN is not set');
    expect((await w.cli(['baseline', 'set', SUITE, '--upload', w.srv.base])).err).toContain(
      'needs --project',
    );
    const show = await w.cli(['baseline', 'show', SUITE, '--upload', w.srv.base, '--project', 'ci']);
    expect([show.code, show.err.split('\n')[0]]).toEqual([
      2,
      'rgate: error: baseline show reads the local history: --upload is for baseline set',
    ]);
  });

  it('a server that cannot be reached: the local baseline is set, the command says so and exits 3', async () => {
    const gone = await startServer(join(w.data, 'gone'));
    const dead = gone.base;
    await gone.stop();
    const r = await w.cli(['baseline', 'set', SUITE, '--upload', dead, '--project', 'ci', '--retries', '0']);
    expect(r.code).toBe(3);
    expect(r.err).toContain(
      `rgate: error: the baseline was not set on ${dead}: the local baseline is set; run this command again once the server can take it`,
    );
  });
});

describe('PUT /api/projects/:project/baselines/:suite', () => {
  const put = (body: unknown, opts: { token?: string; suite?: string; raw?: string } = {}) =>
    call(w.srv.base, 'PUT', `/api/projects/ci/baselines/${opts.suite ?? SUITE}`, {
      ...(opts.raw !== undefined ? { raw: opts.raw } : { body }),
      ...(opts.token !== undefined ? { token: opts.token } : { token: w.token }),
    });

  it('an upload token sets it (200, the suite page URL); the same again is the same answer', async () => {
    const r = await put({ run_id: w.project.runId });
    expect([r.status, r.body]).toEqual([
      200,
      { suite: SUITE, run_id: w.project.runId, note: null, url: `/p/ci/suites/${SUITE}` },
    ]);
    expect((await put({ run_id: w.project.runId })).status).toBe(200);
  });

  it('a bad body is 400 with its JSON path; a run the project lacks is 409 naming what to do', async () => {
    // the body is a document (src/documents/server-requests.ts): errors as an upload's, path first
    const cases: [unknown, string, string][] = [
      [[1], '/', '/: must be object'],
      [{}, '/run_id', '/run_id: is required'],
      [{ run_id: '../x' }, '/run_id', `/run_id: must match pattern "${UPLOAD_RUN_ID_PATTERN}"`],
      [{ run_id: w.project.runId, note: 7 }, '/note', '/note: must be string'],
      [
        { run_id: w.project.runId, note: 'x'.repeat(2001) },
        '/note',
        '/note: must NOT have more than 2000 characters',
      ],
      [{ run_id: w.project.runId, extra: 1 }, '/extra', '/extra: is not a known field'],
    ];
    for (const [body, path, error] of cases) {
      const r = await put(body);
      expect([r.status, r.body], JSON.stringify(body)).toEqual([400, { error, path }]);
    }
    const other = await put({ run_id: w.project.runId }, { suite: 'other-suite' });
    expect([other.status, other.body.error]).toEqual([
      400,
      `/run_id: run ${w.project.runId} belongs to suite "${SUITE}", not "other-suite"`,
    ]);
    const missing = await put({ run_id: 'no-such-run' });
    expect([missing.status, missing.body.path]).toEqual([409, '/run_id']);
    expect(missing.body.error).toContain('upload it first');
  });

  it('refuses a missing or unknown token, and a read token', async () => {
    expect((await put({ run_id: w.project.runId }, { token: '' })).status).toBe(401);
    expect((await put({ run_id: w.project.runId }, { token: 'rgate_up_fake' })).status).toBe(403);
    const read = await call(w.srv.base, 'POST', '/api/projects/ci/tokens', {
      token: ADMIN,
      body: { kind: 'read' },
    });
    expect((await put({ run_id: w.project.runId }, { token: read.body.token as string })).status).toBe(403);
  });
});
