import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/program.js';
import { readFreeze } from '../src/snapshot/index.js';
import { captureIo } from './helpers/cli-io.js';

/**
 * The HTTP embedder end to end: a real server on 127.0.0.1 in this process answers both APIs
 * (Ollama /api/embeddings, OpenAI /v1/embeddings) with vectors derived from the text's sha256, so
 * both give the same vector for the same text. `rgate freeze` pins them; with the server closed,
 * `rgate run` still works and gives identical answers.
 */
const DIMS = 8;
let shift = 0; // a changed model: every vector moves
let mode: 'ok' | 'status500' | 'hang' | 'wrongdims' | 'reset-once' = 'ok';
const calls = { ollama: 0, openai: 0 };

function vector(text: string): number[] {
  const h = createHash('sha256').update(text).digest();
  return Array.from({ length: DIMS }, (_, i) => (h[i]! - 128) / 128 + shift);
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString('utf8')));
  req.on('end', () => {
    if (mode === 'hang') return; // never answers
    if (mode === 'reset-once') {
      mode = 'ok'; // the connection dies under the first request, as a kept-alive socket closed by the server
      req.socket.destroy();
      return;
    }
    if (mode === 'status500') {
      res.writeHead(500).end('model not loaded');
      return;
    }
    const p = JSON.parse(body) as { model: string; prompt?: string; input?: string[] };
    const v = (t: string) => (mode === 'wrongdims' ? vector(t).slice(0, 4) : vector(t));
    res.setHeader('content-type', 'application/json');
    if (req.url === '/api/embeddings') {
      calls.ollama++;
      res.end(JSON.stringify({ embedding: v(p.prompt ?? '') }));
    } else if (req.url === '/v1/embeddings') {
      calls.openai++;
      // answered in reverse order: the client must put them back by index
      const data = (p.input ?? []).map((t, index) => ({ object: 'embedding', index, embedding: v(t) }));
      res.end(JSON.stringify({ object: 'list', data: data.reverse(), model: p.model }));
    } else res.writeHead(404).end();
  });
}

let server: Server;
let url = '';
const root = mkdtempSync(join(tmpdir(), 'rgate-embedder-'));
beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
  rmSync(root, { recursive: true, force: true });
});

const corpus = [
  { id: 'deploy', title: 'Deploy windows', text: 'Deploys happen on Tuesday and Thursday mornings.' },
  { id: 'freeze', title: 'Holiday freeze', text: 'No deploys during the holiday freeze in December.' },
  { id: 'oncall', text: 'The on-call rotation hands over on Mondays at 10:00.' },
  { id: 'retention', text: 'Raw metrics are kept for 30 days, then downsampled.' },
];
const queries = [
  { query_id: 'q1', text: 'when can I deploy', qrels: { deploy: 2 } },
  { query_id: 'q2', text: 'how long do we keep raw metrics', qrels: { retention: 2 } },
  { query_id: 'q3', text: 'who is on call', qrels: { oncall: 1 } },
];

function makeSet(name: string, api: 'ollama' | 'openai', extra: Record<string, unknown> = {}): string {
  const dir = join(root, 'fixtures', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'corpus.jsonl'), corpus.map((r) => JSON.stringify(r)).join('\n') + '\n');
  writeFileSync(join(dir, 'queries.jsonl'), queries.map((q) => JSON.stringify(q)).join('\n') + '\n');
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({
      mode: 'semantic',
      embedding: { dimensions: DIMS },
      embedder: { type: 'http', api, url, model: 'test-embed', ...extra },
      as_of: '2026-11-01T00:00:00Z',
    }),
  );
  return dir;
}

function files(dir: string): string[] {
  return ['corpus.jsonl', 'queries.jsonl', 'config.json'].map((f) => readFileSync(join(dir, f), 'utf8'));
}

async function rgate(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = captureIo(root);
  const code = await runCli(args, io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

describe('HTTP embedder: vectors pinned at freeze time', () => {
  it('refuses with exit 3 and writes nothing on an HTTP error or a timeout; exit 2 on a wrong dimension', async () => {
    for (const [m, extra, code, msg] of [
      ['status500', {}, 3, /HTTP 500: model not loaded/],
      ['hang', { timeout_ms: 300 }, 3, /no answer within 300 ms/],
      ['wrongdims', {}, 2, /dimensions: 8, but test-embed returned 4-dimension vectors/],
    ] as const) {
      mode = m;
      const dir = makeSet(`bad-${m}`, 'ollama', extra);
      const before = files(dir);
      const r = await rgate(['freeze', dir]);
      expect(r.code, r.err).toBe(code);
      expect(r.err).toMatch(msg);
      expect(r.err).not.toMatch(/\n\s+at /);
      expect(files(dir)).toEqual(before);
      expect(existsSync(join(dir, 'freeze.json'))).toBe(false);
    }
    mode = 'ok';
    const refused = await rgate(['freeze', join(root, 'fixtures', 'nowhere')]);
    expect(refused.code, refused.err).toBe(2);
  });

  it('a connection closed under a request is asked again (embedding is idempotent)', async () => {
    mode = 'reset-once';
    const dir = makeSet('emb-reset', 'ollama');
    const r = await rgate(['freeze', dir, '--date', '2026-11-23']);
    expect(r.code, r.err).toBe(0);
    expect(mode).toBe('ok');
    expect(r.out).toContain('pinned: 4 record and 3 query vectors (8 dimensions)');
  });

  it('pins the same vectors through both APIs; after the server is gone, runs work and agree', async () => {
    mode = 'ok';
    const a = makeSet('emb-ollama', 'ollama');
    const b = makeSet('emb-openai', 'openai');
    const fa = await rgate(['freeze', a, '--date', '2026-11-23']);
    const fb = await rgate(['freeze', b, '--date', '2026-11-23']);
    expect(fa.code, fa.err).toBe(0);
    expect(fb.code, fb.err).toBe(0);
    expect(fa.out).toContain('pinned: 4 record and 3 query vectors (8 dimensions)');
    expect(calls.ollama).toBeGreaterThanOrEqual(7);
    expect(calls.openai).toBeGreaterThanOrEqual(1);
    const lines = readFileSync(join(a, 'corpus.jsonl'), 'utf8').trim().split('\n');
    const first = JSON.parse(lines[0]!) as { embedding: number[] };
    expect(first.embedding).toEqual(
      vector('Deploy windows\nDeploys happen on Tuesday and Thursday mornings.'),
    );
    // the same vectors whichever API served them: the corpus and query ids' hashes agree
    const [za, zb] = [readFreeze(a), readFreeze(b)];
    expect(za.corpus_sha256).toBe(zb.corpus_sha256);
    expect(za.query_set_sha256).toBe(zb.query_set_sha256);
    // re-freezing with the same server is a no-op
    expect((await rgate(['freeze', a])).out).toContain('unchanged:');

    writeFileSync(
      join(root, 'rgate.config.json'),
      JSON.stringify({
        suites: {
          emb: {
            fixture: 'emb-ollama',
            system: { type: 'builtin', mode: 'semantic' },
            gate: null,
            replays: 2,
            ranking_measures: ['recip_rank'],
          },
        },
      }),
    );
    const run = async (n: string) => {
      const r = await rgate(['run', 'emb', '--no-store', '--json', '--out-dir', join(root, n)]);
      expect(r.code, r.err).toBe(0);
      const rep = JSON.parse(r.out) as {
        queries: { query_id: string; actual: unknown }[];
        artifacts: unknown;
      };
      return { queries: rep.queries.map((q) => [q.query_id, q.actual]), artifacts: rep.artifacts };
    };
    const online = await run('r1');
    const before = calls.ollama + calls.openai;
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    const offline = await run('r2');
    expect(offline).toEqual(online);
    expect(calls.ollama + calls.openai).toBe(before);
    expect(JSON.stringify(offline.queries)).toContain('"selection_mode"');
    // the engine says which vectors it used
    const one = await rgate([
      'retrieve',
      '--fixture',
      a,
      '--task',
      'a query nobody pinned',
      '--mode',
      'semantic',
      '--json',
    ]);
    expect(one.out + one.err).toMatch(/embedding_not_pinned/);

    // a changed vector is a changed snapshot: the server restarts with another model
    server = createServer(handle);
    await new Promise<void>((r) => server.listen(Number(new URL(url).port), '127.0.0.1', r));
    shift = 0.5;
    const refused = await rgate(['freeze', a]);
    expect(refused.code, refused.err).toBe(2);
    expect(refused.err).toMatch(/changed since/);
    expect(JSON.parse(readFileSync(join(a, 'corpus.jsonl'), 'utf8').split('\n')[0]!)).toEqual({
      ...corpus[0],
      embedding: first.embedding,
    });
    const bumped = await rgate(['freeze', a, '--version', 'v2', '--reset-note', 'new embedding model']);
    expect(bumped.code, bumped.err).toBe(0);
    const z2 = readFreeze(a);
    expect(z2.corpus_id).not.toBe(za.corpus_id);
    expect(z2.corpus_sha256).not.toBe(za.corpus_sha256);
    expect(z2.query_set_sha256).not.toBe(za.query_set_sha256);
    shift = 0;
  });
});
