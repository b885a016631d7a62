import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeFreeze } from '../src/snapshot/index.js';
import { SqliteRunStore } from '../src/store/index.js';
import { until } from './helpers/clock.js';
import { compiledCli } from './helpers/dist.js';

const repo = resolve(import.meta.dirname, '..');
const project = mkdtempSync(join(tmpdir(), 'rgate-sigint-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));

const log = join(project, 'calls.log');
const hold = join(project, 'hold');
const calls = (): number => readFileSync(log, 'utf8').split('\n').filter(Boolean).length;

/**
 * A project of its own: one frozen set of 40 queries, and a suite whose system logs each call and
 * holds its answer from the third call on while the `hold` file exists.
 */
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
  const logged = join(repo, 'test', 'sut', 'runner', 'logged.mjs');
  writeFileSync(log, '');
  writeFileSync(hold, '');
  writeFileSync(
    join(project, 'rgate.config.json'),
    JSON.stringify({
      suites: {
        slow: {
          fixture: 'slow',
          system: {
            type: 'command',
            argv: [process.execPath, logged, '{query_id}', '{query}'],
            contract: 'rgate',
            env: { SUT_LOG: log, SUT_HOLD: hold, SUT_HOLD_AFTER: '2' },
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
    const closed = new Promise<number | null>((r) => child.on('close', (c) => r(c)));
    // two requests answered and stored (one at a time), the third in flight: interrupt there, and
    // let the third answer only once rgate has said it is finishing what is in flight
    await until(
      () => calls() === 3,
      () => `the third request (${calls()} made)`,
    );
    child.kill('SIGINT');
    await until(
      () => stderr.includes('interrupted: finishing requests in flight'),
      () => `rgate to take the interrupt; stderr: ${stderr}`,
    );
    rmSync(hold);
    const code = await closed;
    expect(code).toBe(130);
    expect(stderr).toContain('interrupted: finishing requests in flight');
    const kept = /run (\S+) interrupted: (\d+) observations kept/.exec(stderr);
    expect(kept, stderr).not.toBeNull();
    expect(stderr).not.toMatch(/\n\s+at /);
    const store = new SqliteRunStore(join(project, '.rgate', 'history.sqlite'));
    const run = store.getRun(kept![1]!);
    expect(run?.status).toBe('interrupted');
    // the two answered before the interrupt and the one in flight; nothing was asked after it
    expect(Number(kept![2])).toBe(3);
    expect(store.getObservations(kept![1]!)).toHaveLength(3);
    expect(calls()).toBe(3);
    store.close();
  });
});
