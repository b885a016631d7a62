/**
 * A command that starts a shell (`sh -c`, the ordinary way to add a pipe) must not get query text
 * pasted into its script: query sets come from imported collections nobody on the team wrote. The
 * queries here are the ones such a set could hold; the shell is the machine's real /bin/sh, run by the
 * built CLI. The safe forms (the value after the script, or in an env value read as "$Q") answer every
 * query with its text intact and run none of it; the unsafe form is refused, at its line in the
 * config, before any request (its script would leave a file behind for each request it served), and
 * so is `rgate init` writing one.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFreeze } from '../src/snapshot/index.js';
import { compiledCli } from './helpers/dist.js';
import { tempDir } from './history-helpers.js';

const QUERIES = ['$(touch pwned) ; touch pwned2', 'it\'s `touch pwned3` "$HOME" ; touch pwned4 #'];
const t = tempDir('rgate-shell-scripts-');

function rgate(args: string[]) {
  const r = spawnSync(process.execPath, [compiledCli(), ...args], { cwd: t.dir, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** What a run left in the project besides what the test wrote and rgate's own output folder. */
function leftBehind(): string[] {
  const ours = new Set(['fixtures', 'sut.mjs', 'safe.json', 'unsafe.json', '.rgate']);
  return readdirSync(t.dir)
    .filter((f) => !ours.has(f))
    .sort();
}

function writeConfig(file: string, suites: Record<string, unknown>): string {
  const text = JSON.stringify({ suites }, null, 2) + '\n';
  writeFileSync(join(t.dir, file), text);
  return text;
}

const suite = (system: Record<string, unknown>) => ({
  fixture: 'demo',
  replays: 1,
  system: { type: 'command', contract: 'rgate', ...system },
});

beforeAll(() => {
  const set = join(t.dir, 'fixtures', 'demo');
  mkdirSync(set, { recursive: true });
  writeFileSync(join(set, 'corpus.jsonl'), '{"id":"doc-1","text":"alpha"}\n{"id":"doc-2","text":"beta"}\n');
  writeFileSync(
    join(set, 'queries.jsonl'),
    QUERIES.map((text, i) => JSON.stringify({ query_id: `q${i + 1}`, text, qrels: { 'doc-1': 1 } })).join(
      '\n',
    ) + '\n',
  );
  writeFileSync(join(set, 'config.json'), '{}\n');
  writeFreeze(set, { frozenOn: '2026-11-26' });
  // answers only a query that arrived as it was written: a mangled one is a failed request
  writeFileSync(
    join(t.dir, 'sut.mjs'),
    `const expected = ${JSON.stringify(QUERIES)};
if (!expected.includes(process.argv[2])) {
  process.stderr.write('query arrived changed: ' + JSON.stringify(process.argv[2]) + '\\n');
  process.exit(1);
}
process.stdout.write(JSON.stringify({ ranked: [{ id: 'doc-1', score: 1 }] }));
`,
  );
});
afterAll(() => t.cleanup());

describe('a shell in a command system', () => {
  it('runs no query text through the safe forms, and every query arrives intact', () => {
    writeConfig('safe.json', {
      positional: suite({ argv: ['sh', '-c', 'node sut.mjs "$1"', 'sh', '{query}'] }),
      env: suite({ argv: ['/bin/sh', '-ec', 'node sut.mjs "$Q"'], env: { Q: '{query}' } }),
    });
    const r = rgate(['run', 'positional', 'env', '--config', 'safe.json', '--no-store']);
    expect(r.err).not.toContain('query arrived changed');
    expect(r.code).toBe(0);
    expect(r.out.match(/error_rate\s+0\/2\s/g)).toHaveLength(2);
    expect(leftBehind()).toEqual([]);
  });

  it('refuses a placeholder in the script, at its config line, before any request', () => {
    const text = writeConfig('unsafe.json', {
      unsafe: suite({ argv: ['sh', '-c', "touch ran-{query_id}; node sut.mjs '{query}'"] }),
    });
    const line = text.split('\n').findIndex((l) => l.includes('touch ran-')) + 1;
    const r = rgate(['run', 'unsafe', '--config', 'unsafe.json', '--no-store']);
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      `unsafe.json:${line} /suites/unsafe/system/argv/2: {query_id} is inside the script sh runs: sh parses the filled-in text as code`,
    );
    expect(r.err).toContain('["sh","-c","mytool --q \\"$1\\"","sh","{query_id}"]');
    expect(r.err).not.toMatch(/\n\s+at /);
    expect(leftBehind()).toEqual([]);
  });

  it('is refused by rgate init, which writes nothing', () => {
    const r = rgate([
      'init',
      '--fixture',
      'demo',
      '--system',
      'command',
      '--contract',
      'rgate',
      '--',
      'bash',
      '-lc',
      'node sut.mjs {query} | cat',
    ]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      'rgate init --system command: system/argv/2: {query} is inside the script bash runs',
    );
    expect(existsSync(join(t.dir, 'rgate.config.json'))).toBe(false);
    expect(leftBehind()).toEqual([]);
  });
});
