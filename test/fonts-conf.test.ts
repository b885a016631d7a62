/**
 * The browser tests' fonts (test/fonts/fonts.conf, Chromium's FONTCONFIG_FILE through
 * test/helpers/chromium.ts) are exactly the files of the Debian packages .ci/run installs for them:
 * fontconfig, read through that file, lists no other font, whatever else the machine has.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FONTCONFIG_FILE } from './helpers/chromium.js';
import { REPO } from './helpers/dist.js';

/** The packages of .ci/run's `FONTS="..."` line. */
function ciFontPackages(): string[] {
  const line = /^FONTS="([^"]+)"$/m.exec(readFileSync(join(REPO, '.ci', 'run'), 'utf8'));
  expect(line, '.ci/run has no FONTS="..." line').not.toBeNull();
  return line![1]!.split(' ');
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8', env });
  if (r.error || r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.error ?? r.stderr}`);
  return r.stdout;
}

describe('the fonts the browser tests see', () => {
  it('names folders only, no user or local configuration', () => {
    const conf = readFileSync(FONTCONFIG_FILE, 'utf8');
    const dirs = [...conf.matchAll(/<dir>([^<]+)<\/dir>/g)].map((m) => m[1]);
    expect(dirs).toEqual(['/usr/share/fonts/truetype/dejavu', '/usr/share/fonts/truetype/liberation']);
    const includes = [...conf.matchAll(/<include[^>]*>([^<]+)<\/include>/g)].map((m) => m[1]!);
    expect(includes.length).toBeGreaterThan(0);
    for (const i of includes) {
      expect(i, 'one rule file, not a folder of them').toMatch(/\.conf$/);
      expect(i).not.toMatch(/50-user|51-local|conf\.d/);
    }
  });

  it("are exactly the font files of .ci/run's font packages", () => {
    const packaged = ciFontPackages()
      .flatMap((p) => run('dpkg', ['-L', p]).split('\n'))
      .filter((f) => /\.(ttf|otf)$/.test(f))
      .sort();
    const seen = run('fc-list', ['--format', '%{file}\n'], { ...process.env, FONTCONFIG_FILE })
      .split('\n')
      .filter((f) => f !== '')
      .sort();
    expect(seen).toEqual(packaged);
  });
});
