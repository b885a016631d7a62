import Database from 'better-sqlite3';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/program.js';
import { SqliteRunStore } from '../src/store/sqlite-store.js';
import { captureIo } from './helpers/cli-io.js';
import { tempDir } from './history-helpers.js';
import { uploadOf } from '../src/cli/upload-client.js';
import { call, createProject, startServer } from './helpers/server.js';

/**
 * Secrets come from the environment (`{env.NAME}` in argv, the command's env, http headers) and never
 * reach a file rgate writes. A secret is planted in the environment; the systems prove they received it
 * (they answer only when it matches), and one query of each fails while echoing the secret back (in
 * stderr, in an HTTP error body) so the recorded failure must be masked. Then every file rgate wrote is
 * searched, inside the SQLite history's deflated blobs too.
 */
const SECRET = 'rg-secret-7f3c91d2a4b8e6f0';
const NAME = 'RGATE_TEST_UPLOAD_SECRET';
const t = tempDir('rgate-secrets-');
let server: http.Server;
let url = '';

async function cli(args: string[]) {
  const io = captureIo(t.dir);
  const code = await runCli(args, io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

const sut = join(t.dir, 'sut.mjs');
writeFileSync(
  sut,
  `const [token, queryId] = process.argv.slice(2);
if (token !== '--token=' + process.env.API_KEY || !process.env.API_KEY) {
  process.stderr.write('token mismatch\\n');
  process.exit(3);
}
if (queryId === 'q2') {
  process.stderr.write('failing on purpose; argv ' + process.argv.slice(2).join(' ') + ' key ' + process.env.API_KEY + '\\n');
  process.exit(1);
}
process.stdout.write(JSON.stringify({ ranked: [{ id: 'doc-1', score: 1 }] }));
`,
);

function writeProject(): void {
  const dir = join(t.dir, 'fixtures', 'demo');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'corpus.jsonl'), '{"id":"doc-1","text":"alpha"}\n{"id":"doc-2","text":"beta"}\n');
  writeFileSync(
    join(dir, 'queries.jsonl'),
    '{"query_id":"q1","text":"alpha","qrels":{"doc-1":1}}\n{"query_id":"q2","text":"beta","qrels":{"doc-2":1}}\n',
  );
  writeFileSync(join(dir, 'config.json'), '{}\n');
  const config = {
    suites: {
      cmd: {
        fixture: 'demo',
        replays: 2,
        system: {
          type: 'command',
          argv: ['node', sut, `--token={env.${NAME}}`, '{query_id}'],
          env: { API_KEY: `{env.${NAME}}` },
          contract: 'rgate',
        },
      },
      web: {
        fixture: 'demo',
        replays: 2,
        system: {
          type: 'http',
          url,
          headers: { Authorization: `Bearer {env.${NAME}}` },
          contract: 'rgate',
        },
      },
    },
  };
  writeFileSync(join(t.dir, 'rgate.config.json'), JSON.stringify(config, null, 2) + '\n');
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const auth = req.headers.authorization ?? '';
      if (auth !== `Bearer ${SECRET}`) {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end('{"error":{"code":"unauthorized","message":"no"}}');
        return;
      }
      if (req.headers['x-rgate-query-id'] === 'q2') {
        // a service that echoes the credential it was given in its error page
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`internal error for ${auth}`);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ranked: [{ id: 'doc-1', score: 1 }] }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/retrieve`;
  writeProject();
  expect((await cli(['freeze', 'demo', '--date', '2026-11-26'])).code).toBe(0);
});

afterAll(async () => {
  delete process.env[NAME];
  await new Promise<void>((r) => server.close(() => r()));
  t.cleanup();
});

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

/** Every value of every table of an SQLite file, deflated blobs inflated. */
function sqliteText(path: string): string {
  const db = new Database(path, { readonly: true });
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
    name: string;
  }[];
  const parts: string[] = [];
  for (const { name } of tables) {
    for (const row of db.prepare(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[]) {
      for (const v of Object.values(row)) {
        if (Buffer.isBuffer(v)) {
          parts.push(v.toString('latin1'));
          try {
            parts.push(inflateRawSync(v).toString('utf8'));
          } catch {
            // not deflated
          }
        } else parts.push(String(v));
      }
    }
  }
  db.close();
  return parts.join('\n');
}

describe('{env.NAME} secrets', () => {
  it('a missing or empty variable stops the run before its first request, naming the line', async () => {
    delete process.env[NAME];
    const r = await cli(['run', 'cmd', 'web', '--no-store']);
    expect(r.code).toBe(2);
    const lines = readFileSync(join(t.dir, 'rgate.config.json'), 'utf8').split('\n');
    const line = lines.findIndex((l) => l.includes('--token=')) + 1;
    expect(r.err).toContain(
      `rgate.config.json:${line} /suites/cmd/system/argv/2: {env.${NAME}} names an environment variable that is not set`,
    );
    process.env[NAME] = '';
    const e = await cli(['run', 'web', '--no-store']);
    expect(e.code).toBe(2);
    expect(e.err).toContain(`{env.${NAME}} names an environment variable that is empty`);
  });

  it('reaches the systems, and is in no file rgate writes: history, reports, shard files, TREC run', async () => {
    process.env[NAME] = SECRET;
    const out = join(t.dir, 'out');
    const r = await cli(['run', 'cmd', 'web', '--out-dir', out, '--trec-run', join(out, 'web.run')]);
    // q2 fails on purpose in both suites: the run is recorded, the gate decides
    expect(r.code, r.err).not.toBe(2);
    const s = await cli([
      'run',
      'web',
      '--out-dir',
      out,
      '--shard',
      '1/2',
      '--shard-out',
      join(out, 'web-1of2.json'),
    ]);
    expect(s.code, s.err).toBe(0);

    const store = new SqliteRunStore(join(out, 'history.sqlite'));
    const runs = store.listRuns();
    expect(runs.map((x) => x.suite).sort()).toEqual(['cmd', 'web']);
    for (const run of runs) {
      const obs = store.getObservations(run.run_id);
      // the secret arrived: q1 succeeded in every replay (the systems refuse a wrong token)
      expect(obs.filter((o) => o.query_id === 'q1').map((o) => o.ok)).toEqual([true, true]);
      const failed = obs.filter((o) => o.query_id === 'q2');
      expect(failed.map((o) => o.ok)).toEqual([false, false]);
      // the echo of the secret is recorded masked, as its template
      const said = JSON.stringify(failed[0]?.error);
      expect(said).toContain(`{env.${NAME}}`);
      // the stored plan keeps the template
      expect(JSON.stringify(run.plan)).toContain(`{env.${NAME}}`);
    }
    store.close();

    const written = files(t.dir).filter((f) => f !== sut);
    expect(written.some((f) => f.endsWith('.html'))).toBe(true);
    expect(written.some((f) => f.endsWith('web-1of2.json'))).toBe(true);
    expect(written.some((f) => f.endsWith('web.run.web'))).toBe(true);
    expect(written.some((f) => f.endsWith('web.run.cmd'))).toBe(true);
    const leaks = written.filter((f) => {
      const bytes = readFileSync(f);
      const text = f.endsWith('.sqlite') ? sqliteText(f) : bytes.toString('utf8');
      return text.includes(SECRET) || bytes.includes(SECRET);
    });
    expect(leaks).toEqual([]);
    expect(`${r.out}\n${r.err}\n${s.out}\n${s.err}`).not.toContain(SECRET);
  });

  it('is in no upload: not in the document sent, not in any file of the server, not in what it answers', async () => {
    process.env[NAME] = SECRET;
    const out = join(t.dir, 'out');
    const srv = await startServer(join(t.dir, 'server-data'), { rateLimit: 0 });
    try {
      const token = await createProject(srv.base, 'secrets');
      const store = new SqliteRunStore(join(out, 'history.sqlite'));
      const ids = store.listRuns().map((x) => x.run_id);
      const bodies = ids.map((id) => JSON.stringify(uploadOf(store, id)));
      store.close();
      expect(ids.length).toBeGreaterThanOrEqual(2);
      // the template travels, the value never does
      expect(bodies.every((b) => b.includes(`{env.${NAME}}`))).toBe(true);
      for (const b of bodies) expect(b).not.toContain(SECRET);
      const said: string[] = [];
      for (const id of ids) {
        const io = captureIo(t.dir, { RGATE_SERVER_TOKEN: token });
        const code = await runCli(
          ['upload', id, '--server', srv.base, '--project', 'secrets', '--out-dir', out],
          io,
        );
        expect(code, io.stderr.join('\n')).toBe(0);
        said.push(...io.stdout, ...io.stderr);
        said.push((await call(srv.base, 'GET', `/api/projects/secrets/runs/${id}`, { token })).text);
        said.push((await call(srv.base, 'GET', `/p/secrets/runs/${id}`, { token })).text);
      }
      said.push((await call(srv.base, 'GET', '/api/projects/secrets/runs', { token })).text);
      expect(said.join('\n')).not.toContain(SECRET);
      await srv.stop();
      const serverFiles = files(join(t.dir, 'server-data'));
      expect(serverFiles.some((f) => f.endsWith(join('projects', 'secrets.sqlite')))).toBe(true);
      const leaks = serverFiles.filter((f) => {
        const bytes = readFileSync(f);
        const text = f.endsWith('.sqlite') ? sqliteText(f) : bytes.toString('utf8');
        return text.includes(SECRET) || bytes.includes(SECRET);
      });
      expect(leaks).toEqual([]);
    } finally {
      await srv.stop().catch(() => undefined);
    }
  });
});
