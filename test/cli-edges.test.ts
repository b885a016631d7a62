import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { captureIo } from './helpers/cli-io.js';
import { runCli } from '../src/cli/program.js';
import { compiledCli, REPO } from './helpers/dist.js';

/** Where the CLI meets a closed pipe, a broken history file, or a subfolder of the project. */
const tmp = mkdtempSync(join(tmpdir(), 'rgate-edges-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Run the compiled CLI, read one chunk of stdout and close the pipe, as `| head -1` does. */
function readOneChunkThenClose(
  args: string[],
): Promise<{ code: number | null; stderr: string; first: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [compiledCli(), ...args], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let first = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.once('data', (d: Buffer) => {
      first = d.toString();
      child.stdout.destroy();
    });
    child.on('error', fail);
    child.on('close', (code) => done({ code, stderr, first }));
  });
}

describe('a closed stdout pipe', () => {
  it('`rgate score ... | head` ends without an EPIPE stack trace and with its normal exit code', async () => {
    // a run large enough that the reader is gone long before rgate is done writing
    const qrels = join(tmp, 'big.qrels');
    const run = join(tmp, 'big.run');
    const q: string[] = [];
    const r: string[] = [];
    for (let t = 1; t <= 400; t++) {
      for (let d = 1; d <= 50; d++) {
        q.push(`${t} 0 d${d} ${d % 3 === 0 ? 1 : 0}`);
        r.push(`${t} Q0 d${d} ${d} ${100 - d} run`);
      }
    }
    writeFileSync(qrels, q.join('\n') + '\n');
    writeFileSync(run, r.join('\n') + '\n');
    const res = await readOneChunkThenClose(['score', '-q', '-m', 'all_trec', qrels, run]);
    expect(res.first).toMatch(/^\S+\s+\d+\s+/);
    expect(res.stderr).not.toMatch(/EPIPE|\n\s+at .+:\d+:\d+/);
    expect(res.code).toBe(0);
  });
});

describe('a history file that is not one', () => {
  it('is an input error naming the file (exit 2), for reading and for running', async () => {
    const bad = join(tmp, 'corrupt.sqlite');
    writeFileSync(bad, 'this is not a database, just text that happens to be here\n'.repeat(200));
    const before = readFileSync(bad);
    for (const argv of [
      ['history', '--store', bad],
      ['run', 'context-load', '--replays', '1', '--store', bad],
    ]) {
      const o = captureIo(REPO);
      expect(await runCli(argv, o)).toBe(2);
      expect(o.stderr.join('\n')).toContain(`run history ${bad} is not an SQLite database`);
      expect(o.stderr.join('\n')).toContain('hint: point --store at another file');
    }
    expect(readFileSync(bad)).toEqual(before);
  });
});

describe('.rgate/ lives beside rgate.config.json', () => {
  it('a run from a subfolder writes to, and history reads from, the config folder', async () => {
    const proj = join(tmp, 'proj');
    mkdirSync(join(proj, 'deep', 'er'), { recursive: true });
    const config = JSON.parse(readFileSync(join(REPO, 'rgate.config.json'), 'utf8')) as {
      suites: Record<string, { fixture: string; gate?: string | null }>;
      default_suites?: string[];
    };
    const suite = config.suites['context-load']!;
    // the fixture and gate are copied in, so their relative names resolve beside this config
    cpSync(join(REPO, 'fixtures', suite.fixture), join(proj, 'fixtures', suite.fixture), { recursive: true });
    cpSync(join(REPO, 'gates', `${suite.gate}.gate.json`), join(proj, 'gates', `${suite.gate}.gate.json`));
    writeFileSync(
      join(proj, 'rgate.config.json'),
      JSON.stringify({ suites: { 'context-load': suite } }, null, 2),
    );
    const sub = join(proj, 'deep', 'er');
    const o = captureIo(sub);
    expect(await runCli(['run', 'context-load', '--replays', '1'], o)).toBe(0);
    expect(existsSync(join(proj, '.rgate', 'history.sqlite'))).toBe(true);
    expect(existsSync(join(sub, '.rgate'))).toBe(false);
    const h = captureIo(join(proj, 'deep'));
    expect(await runCli(['history', 'context-load'], h)).toBe(0);
    expect(h.stdout.join('\n')).toContain('1 complete run(s)');
    // an explicit --out-dir is still relative to the cwd
    const o2 = captureIo(sub);
    expect(await runCli(['run', 'context-load', '--replays', '1', '--out-dir', 'here'], o2)).toBe(0);
    expect(existsSync(join(sub, 'here', 'history.sqlite'))).toBe(true);
  });
});

describe('exit codes as documented', () => {
  it('a system that is down: the run stops early, says so, and exits 3 (not a gate FAIL of 1)', async () => {
    const proj = join(tmp, 'down');
    mkdirSync(proj, { recursive: true });
    const config = {
      suites: {
        dead: {
          fixture: join(REPO, 'fixtures', 'context-load'),
          system: { type: 'command', argv: [join(proj, 'missing-retriever'), '{query}'], contract: 'rgate' },
          gate: null,
          replays: 5,
        },
      },
    };
    writeFileSync(join(proj, 'rgate.config.json'), JSON.stringify(config));
    const o = captureIo(proj);
    expect(await runCli(['run', 'dead'], o)).toBe(3);
    const err = o.stderr.join('\n');
    expect(err).toContain(
      'suite dead: the system under test is down: 10 of 630 requests failed and none succeeded',
    );
    expect(err).toContain('missing-retriever');
    expect(o.stdout.join('\n')).toContain('system under test down');
  });
});

describe('usage mistakes are named', () => {
  it('bare `rgate` lists its commands; a number that is not one is named as typed, never NaN', async () => {
    const bare = captureIo(REPO);
    expect(await runCli([], bare)).toBe(2);
    const text = bare.stderr.join('\n');
    for (const c of ['rgate run', 'rgate merge', 'rgate score', 'rgate report']) expect(text).toContain(c);
    expect(text).toContain('Name a command (see the list above).');
    for (const [argv, message] of [
      [['run', '--replays', 'abc'], '--replays "abc": not a number'],
      [['score', '-l', 'x', 'q', 'r'], '-l "x": not an integer'],
      [['run', '--concurrency=1.5x'], '--concurrency "1.5x": not a number'],
    ] as const) {
      const o = captureIo(REPO);
      expect(await runCli([...argv], o)).toBe(2);
      expect(o.stderr.join('\n')).toContain(message);
      expect(o.stderr.join('\n')).not.toContain('NaN');
    }
  });
});
