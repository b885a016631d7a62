import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../test/helpers/dist.js';

/** bin.cts's guard, as built: a node process whose command promise never settles (#33). */
function exitOf(promise: string): { status: number | null; stderr: string } {
  const guard = join(REPO, 'dist', 'src', 'cli', 'unsettled.cjs');
  const script = `require(${JSON.stringify(guard)}).exitWithCommand(${promise})`;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  return { status: r.status, stderr: r.stderr };
}

describe('a command that cannot finish never exits 0 in silence', () => {
  it('a pending promise with nothing left to wait on: exit 3, said on stderr', () => {
    const r = exitOf('new Promise(() => {})');
    expect(r.status).toBe(3);
    expect(r.stderr).toContain('rgate: error: the command stopped before it finished');
  });

  it("a command that returns keeps its code and says nothing; an explicit exit is the caller's", () => {
    expect(exitOf('Promise.resolve(2)')).toEqual({ status: 2, stderr: '' });
    expect(exitOf('new Promise((r) => setTimeout(() => r(0), 50))')).toEqual({ status: 0, stderr: '' });
    expect(exitOf('new Promise(() => process.exit(0))')).toEqual({ status: 0, stderr: '' });
  });
});
