import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compiledCli, REPO } from './helpers/dist.js';

const out = mkdtempSync(join(tmpdir(), 'rgate-overall-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** `rgate run` as a user runs it: the compiled CLI in a child process, NO_COLOR set. */
function rgate(args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [compiledCli(), 'run', ...args], {
    cwd: REPO,
    env: { ...process.env, NO_COLOR: '1' },
    encoding: 'utf8',
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

function verdictsIn(dir: string): Map<string, string> {
  const m = new Map<string, string>();
  for (const run of readdirSync(join(dir, 'runs'))) {
    const r = JSON.parse(readFileSync(join(dir, 'runs', run, 'report.json'), 'utf8')) as {
      suite: string;
      gate: { verdict: string };
    };
    m.set(r.suite, r.gate.verdict);
  }
  return m;
}

describe('rgate run: the overall last line (real CLI)', () => {
  it('ends with every suite verdict and the exit code meaning, worst first, no colour under NO_COLOR', () => {
    const dir = join(out, 'both');
    const r = rgate(['context-load', 'semantic', '--replays', '1', '--no-store', '--out-dir', dir]);
    const lines = r.stdout.trimEnd().split('\n');
    const last = lines.at(-1)!;
    const v = verdictsIn(dir);
    expect([...v.keys()].sort()).toEqual(['context-load', 'semantic']);
    const failed = [...v.values()].includes('FAIL');
    expect(r.code).toBe(failed ? 1 : 0);
    const rank = (s: string) => (s === 'FAIL' ? 0 : s === 'WATCH' ? 1 : 2);
    const parts = [...v.entries()]
      .sort((a, b) => rank(a[1]) - rank(b[1]) || (a[0] < b[0] ? 1 : -1))
      .map(([s, x]) => `${s} ${x}`);
    expect(last).toBe(
      `rgate: ${parts.join(', ')} -> exit ${r.code} (${failed ? 'a gate failed' : 'every gate passed'})`,
    );
    // the row just above the overall line is the worst suite, never a PASS above a failing exit
    if (failed) expect(lines.at(-2)).not.toMatch(/^\s+PASS /);
    expect(r.stdout).not.toContain('\u001b[');
  });

  it('says exit 0 for passing suites, and goes to stderr under --json', () => {
    const r = rgate([
      'context-load',
      '--replays',
      '1',
      '--no-store',
      '--json',
      '--out-dir',
      join(out, 'json'),
    ]);
    expect(r.code).toBe(0);
    expect(() => JSON.parse(r.stdout) as unknown).not.toThrow();
    expect(r.stderr.trimEnd().split('\n').at(-1)).toBe(
      'rgate: context-load PASS -> exit 0 (every gate passed)',
    );
  });
});
