import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeFreeze } from '../src/snapshot/index.js';
import { SqliteRunStore } from '../src/store/index.js';
import { compiledCli } from './helpers/dist.js';

const repo = resolve(import.meta.dirname, '..');
const project = mkdtempSync(join(tmpdir(), 'rgate-sigint-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));

/** A project of its own: one frozen set, and a suite whose system takes 300 ms per query. */
function setUp(): void {
  const dir = join(project, 'fixtures', 'slow');
  mkdirSync(dir, { recursive: true });
  const doc = {
    id: 'doc-a',
    source_path: 'docs/a.md',
    text: 'alpha',
    kind: 'canonical',
    captured_at: '2026-01-01T00:00:00Z',
  };
  writeFileSync(join(dir, 'corpus.jsonl'), JSON.stringify(doc) + '\n');
  const queries = Array.from({ length: 40 }, (_, i) =>
    JSON.stringify({ query_id: `q${i}`, text: 'slow', qrels: { 'doc-a': 1 } }),
  );
  writeFileSync(join(dir, 'queries.jsonl'), queries.join('\n') + '\n');
  writeFileSync(join(dir, 'config.json'), '{"mode":"semantic"}');
  writeFreeze(dir, { frozenOn: '2026-11-22' });
  const flaky = join(repo, 'test', 'sut', 'runner', 'flaky.mjs');
  writeFileSync(
    join(project, 'rgate.config.json'),
    JSON.stringify({
      suites: {
        slow: {
          fixture: 'slow',
          system: {
            type: 'command',
            argv: [process.execPath, flaky, '{query_id}', '{query}'],
            contract: 'rgate',
          },
          replays: 3,
        },
      },
      default_suites: ['slow'],
    }),
  );
}

describe('Ctrl-C during rgate run', () => {
  it('stops cleanly, says what was kept, keeps it in the store and exits 130', async () => {
    setUp();
    const child = spawn(process.execPath, [compiledCli(), 'run'], {
      cwd: project,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    // wait until a few observations are in, then interrupt
    await new Promise<void>((done) => {
      const poll = setInterval(() => {
        if (/slow replay 1\/3: 40 requests/.test(stderr)) {
          clearInterval(poll);
          setTimeout(() => {
            child.kill('SIGINT');
            done();
          }, 1500);
        }
      }, 50);
    });
    const code = await new Promise<number | null>((r) => child.on('close', (c) => r(c)));
    expect(code).toBe(130);
    expect(stderr).toContain('interrupted: finishing requests in flight');
    const kept = /run (\S+) interrupted: (\d+) observations kept/.exec(stderr);
    expect(kept, stderr).not.toBeNull();
    expect(stderr).not.toMatch(/\n\s+at /);
    const store = new SqliteRunStore(join(project, '.rgate', 'history.sqlite'));
    const run = store.getRun(kept![1]!);
    expect(run?.status).toBe('interrupted');
    expect(store.getObservations(kept![1]!)).toHaveLength(Number(kept![2]));
    expect(Number(kept![2])).toBeGreaterThan(0);
    expect(Number(kept![2])).toBeLessThan(120);
    store.close();
  });
});
