/**
 * A module system (issue 38): a team's retriever in TypeScript, loaded in-process. The errors a team
 * meets first, through the built CLI (a real process over a real frozen set and real .ts files); what
 * the adapter records for a function that throws, rejects, logs, exits its thread or returns a plain
 * list (the shared contract suite, test/systems-adapters.test.ts, covers the rest).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/core/resolve-config.js';
import type { QueryRecord } from '../src/documents/index.js';
import { createSystem, type ModuleAdapter } from '../src/systems/index.js';
import { runSuite } from '../harness/run-suite.js';
import { MemoryRunStore } from '../src/store/memory-store.js';
import { compiledCli, REPO } from './helpers/dist.js';
import { writeTinySet } from './helpers/tiny-set.js';
import { tempDir } from './history-helpers.js';

let root: string;
let cleanup: () => void;

const SOURCES: Record<string, string> = {
  'retriever.ts': [
    'interface Request { query: string; k: number; params: Record<string, unknown> }',
    "export async function search(req: Request): Promise<string[]> { return ['doc-a', 'doc-b'].slice(0, req.k); }",
    "export function wrongShape(): unknown { return [{ id: 'doc-a', score: 'high' }]; }",
    'export const answer = 42;',
    '',
  ].join('\n'),
  // ties broken by Math.random: the ranking differs between replays
  'random.ts': "export const search = (): string[] => ['doc-a', 'doc-b'].sort(() => Math.random() - 0.5);\n",
  'syntax.ts': 'export function search(q: string): number {\n  const x: number = ;\n  return x;\n}\n',
  'throws.ts': "throw new Error('no index at ./idx');\nexport const search = (): string[] => [];\n",
};

beforeAll(() => {
  ({ dir: root, cleanup } = tempDir('rgate-module-system-'));
  writeTinySet(join(root, 'fixtures', 'tiny'), { queries: 3, frozenOn: '2026-11-26' });
  mkdirSync(join(root, 'src'));
  for (const [name, text] of Object.entries(SOURCES)) writeFileSync(join(root, 'src', name), text);
});
afterAll(() => cleanup());

function rgateRun(system: Record<string, unknown>): { code: number | null; stderr: string; stdout: string } {
  writeFileSync(
    join(root, 'rgate.config.json'),
    JSON.stringify({ suites: { s: { fixture: 'tiny', system: { type: 'module', ...system }, replays: 1 } } }),
  );
  const r = spawnSync(process.execPath, [compiledCli(), 'run', 's', '--no-store', '--json'], {
    cwd: root,
    encoding: 'utf8',
  });
  return { code: r.status, stderr: r.stderr, stdout: r.stdout };
}

describe('module system: the first errors are one clear line each (exit 2, no stack)', () => {
  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    [
      'a path that does not exist',
      { path: './src/retreiver.ts', export: 'search' },
      /\/suites\/s\/system\/path: \.\/src\/retreiver\.ts: no such file/,
    ],
    [
      'an export that is not a function',
      { path: './src/retriever.ts', export: 'answer' },
      /system\/export: \.\/src\/retriever\.ts's export "answer" is a number, not a function/,
    ],
    [
      'an export that is not there',
      { path: './src/retriever.ts', export: 'serach' },
      /system\/export: \.\/src\/retriever\.ts has no export "serach" \(its exports: answer, search, wrongShape\)/,
    ],
    [
      'a module that throws at import',
      { path: './src/throws.ts', export: 'search' },
      /\.\/src\/throws\.ts threw while loading: Error: no index at \.\/idx/,
    ],
    [
      'a TypeScript syntax error (file, line, column)',
      { path: './src/syntax.ts', export: 'search' },
      /\.\/src\/syntax\.ts:2:20: syntax error: Unexpected token/,
    ],
  ];
  for (const [label, system, line] of cases) {
    it(label, () => {
      const r = rgateRun(system);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(line);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    });
  }

  it('a function returning the wrong shape: every request fails with the JSON path in what it returned', () => {
    const r = rgateRun({ path: './src/retriever.ts', export: 'wrongShape' });
    const report = JSON.parse(r.stdout) as { errors?: unknown };
    expect(JSON.stringify(report)).toContain('/0/score: must be number');
  });

  it('a plain list of ids is a ranking: the run measures it', () => {
    const r = rgateRun({ path: './src/retriever.ts', export: 'search' });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { metrics: Array<{ id: string; value: { mean?: number } }> };
    // doc-a, the one useful document, is first: every query's reciprocal rank is 1
    expect(report.metrics.find((m) => m.id === 'recip_rank')?.value.mean).toBe(1);
  });
});

describe('rgate init --system module <path>#<export>', () => {
  const init = (...args: string[]) =>
    spawnSync(process.execPath, [compiledCli(), 'init', '--fixture', 'tiny', '--force', ...args], {
      cwd: root,
      encoding: 'utf8',
    });

  it('writes the module system, its path as given, relative to rgate.config.json', () => {
    const r = init('--system', 'module', './src/retriever.ts#search');
    expect(r.status, r.stderr).toBe(0);
    const config = JSON.parse(readFileSync(join(root, 'rgate.config.json'), 'utf8')) as {
      suites: Record<string, { system: unknown }>;
    };
    expect(Object.values(config.suites).map((s) => s.system)).toContainEqual({
      type: 'module',
      path: './src/retriever.ts',
      export: 'search',
    });
  });

  it('refuses a module that is not there, in one line', () => {
    const r = init('--system', 'module', './src/retreiver.ts#search');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /--system module \.\/src\/retreiver\.ts#search: \.\/src\/retreiver\.ts: no such file/,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('module system: what a request records', () => {
  let adapter: ModuleAdapter;
  const config = resolveConfig({ mode: 'bm25', k: 10 });
  const ctx = { replay: 1, config, fixtureDir: '.' };
  const q = (text: string): QueryRecord => ({ query_id: `q-${text}`, text });

  beforeAll(async () => {
    adapter = createSystem(
      { type: 'module', path: 'test/sut/module/behaviour.ts', export: 'search' },
      { corpus: [], config, dir: '.', baseDir: REPO },
    ) as ModuleAdapter;
    await adapter.start();
  });
  afterAll(() => adapter.close());

  it('a thrown error and a rejected promise are exceptions of that request; the thread lives on', async () => {
    const thrown = await adapter.request(q('throw'), ctx);
    expect(thrown.ok).toBe(false);
    expect(thrown.error?.kind).toBe('exception');
    expect(thrown.error?.message).toBe('Error: index shard 3 unreachable');
    const rejected = await adapter.request(q('reject'), ctx);
    expect(rejected.error).toMatchObject({
      kind: 'exception',
      message: 'TypeError: embedding service said 503',
    });
    // the same thread answers on: no new one was started
    const next = await adapter.request(q('counter'), ctx);
    expect(next.ranked[0]?.source_path).toBe('served:3');
  });

  it("console output is the request's warnings, not rgate's output", async () => {
    const o = await adapter.request(q('log'), ctx);
    expect(o.ok).toBe(true);
    expect(o.warnings).toEqual(['cache miss for q-log', 'slow shard']);
  });

  it('a thread that exits is a crash of that request; a fresh thread (fresh state) takes the next', async () => {
    const o = await adapter.request(q('exit'), ctx);
    expect(o.error?.kind).toBe('crash');
    expect(o.error?.message).toContain('exited with code 7');
    const next = await adapter.request(q('counter'), ctx);
    expect(next.ok).toBe(true);
    expect(next.ranked[0]?.source_path).toBe('served:1');
  });
});

describe('module system: determinism, as for every system', () => {
  it('a retriever using Math.random shows divergent replays in the proof', async () => {
    const { report } = await runSuite({
      name: 's',
      root,
      spec: {
        fixture: 'tiny',
        system: { type: 'module', path: './src/random.ts', export: 'search' },
        // 8 replays of 3 queries: the chance that every one comes out in the same order is 2^-21
        replays: 8,
      },
      store: new MemoryRunStore(),
      runId: 'random',
      startedAt: '2026-11-26T00:00:00Z',
    });
    expect(report.replay_proof.identical).toBe(false);
    expect(report.replay_proof.status).toBe('divergent');
  });
});
