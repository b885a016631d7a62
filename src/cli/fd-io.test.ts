import { spawnSync } from 'node:child_process';
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
