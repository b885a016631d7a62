import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compiledCli } from '../../test/helpers/dist.js';

/** A child that writes `bytes` bytes to stdout with writeAll, then says on stderr how that went. */
function writer(bytes: number): string {
  const fdIo = join(compiledCli(), '..', 'fd-io.cjs');
  return (
    `const { writeAll } = require(${JSON.stringify(fdIo)});` +
    `const ok = writeAll(1, 'x'.repeat(${bytes - 1}) + '\\n');` +
    `process.stderr.write(ok ? 'written' : 'reader gone');`
  );
}

describe('writing straight to the descriptors', () => {
  it('writes everything through a pipe much larger than its buffer', () => {
    const p = spawnSync(process.execPath, ['-e', writer(4 << 20)], { maxBuffer: 8 << 20 });
    expect(p.status).toBe(0);
    expect(p.stdout.length).toBe(4 << 20);
    expect(p.stderr.toString()).toBe('written');
  });

  it('stops, without an error, once the reader has gone', () => {
    const p = spawnSync(
      'bash',
      [
        '-c',
        `${JSON.stringify(process.execPath)} -e "$W" | head -c 10 >/dev/null; echo " exit \${PIPESTATUS[0]}" >&2`,
      ],
      { env: { ...process.env, W: writer(4 << 20) }, encoding: 'utf8' },
    );
    expect(p.stderr).toBe('reader gone exit 0\n');
  });
});

describe('isTerminal', () => {
  /** A child that prints, on stderr, isTerminal(1), tty.isatty(1) (afterwards) and whether node:tty had been loaded before. */
  const probe = (): string => {
    const fdIo = join(compiledCli(), '..', 'fd-io.cjs');
    return (
      `const { isTerminal } = require(${JSON.stringify(fdIo)});` +
      `const ours = isTerminal(1);` +
      `const loaded = process.moduleLoadList.includes('NativeModule tty');` +
      `process.stderr.write(JSON.stringify({ ours, isatty: require('node:tty').isatty(1), loaded }) + '\\n');`
    );
  };
  const run = (redirect: string): { ours: boolean; isatty: boolean; loaded: boolean } => {
    const p = spawnSync('bash', ['-c', `${JSON.stringify(process.execPath)} -e "$P" ${redirect}`], {
      env: { ...process.env, P: probe() },
      encoding: 'utf8',
    });
    expect(p.status).toBe(0);
    return JSON.parse(p.stderr) as { ours: boolean; isatty: boolean; loaded: boolean };
  };

  it('says no for a file, a pipe and /dev/null without loading node:tty', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'rgate-tty-')), 'out');
    for (const redirect of [`> ${file}`, '| cat', '> /dev/null']) {
      expect(run(redirect), redirect).toEqual({ ours: false, isatty: false, loaded: false });
    }
  });

  it('says yes on a terminal, as tty.isatty does', () => {
    // util-linux `script` runs the probe with a pseudo-terminal as its stdout
    const p = spawnSync('script', ['-qec', `${JSON.stringify(process.execPath)} -e "$P" 2>&3`, '/dev/null'], {
      env: { ...process.env, P: probe() },
      encoding: 'utf8',
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    });
    if (p.error) throw p.error;
    const line = (p.output[3] as string | null) ?? '';
    expect(JSON.parse(line)).toEqual({ ours: true, isatty: true, loaded: true });
  });
});
