import {
  appendFileSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { madeFrom } from './bundle-stamp.cjs';

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rgate-stamp-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A compiled module and a bundle made from it, stamped as the build stamps it, in `folder`. */
function built(folder: string): { module: string; bundle: string } {
  const module = join(folder, 'run.js');
  const bundle = join(folder, 'run-bundle.cjs');
  writeFileSync(module, 'export const x = 1;\n');
  writeFileSync(bundle, 'exports.x = 1;\n');
  copyFileSync(module, `${bundle}.from`);
  return { module, bundle };
}

describe('a bundle is current by content, not by mtime', () => {
  it('follows the compiled module: touched older or newer changes nothing, an edit does', () => {
    const { module, bundle } = built(dir);
    for (const [m, b] of [
      [1000, 2000], // the bundle newer, as a build leaves it
      [2000, 1000], // the bundle older, as npm's extraction can leave it
    ]) {
      utimesSync(module, m!, m!);
      utimesSync(bundle, b!, b!);
      expect(madeFrom(bundle, module, false), `module ${m}, bundle ${b}`).toBe(true);
    }
    appendFileSync(module, '// tsc again, another source\n');
    utimesSync(bundle, 9000, 9000);
    expect(madeFrom(bundle, module, false)).toBe(false);
  });

  it('in a source checkout, a bundle older than its module is stale even when the module reads the same', () => {
    // tsc alone after an edit deeper down: the entry module's bytes are the same, its time is new
    const { module, bundle } = built(dir);
    utimesSync(bundle, 1000, 1000);
    utimesSync(module, 2000, 2000);
    expect(madeFrom(bundle, module, true)).toBe(false);
    expect(madeFrom(bundle, module, false)).toBe(true);
    utimesSync(bundle, 3000, 3000);
    expect(madeFrom(bundle, module, true)).toBe(true);
  });

  it('knows a checkout (package.json with tsconfig.json) from an installed package', () => {
    writeFileSync(join(dir, 'package.json'), '{}');
    writeFileSync(join(dir, 'tsconfig.json'), '{}');
    mkdirSync(join(dir, 'dist', 'cli'), { recursive: true });
    const { module, bundle } = built(join(dir, 'dist', 'cli'));
    utimesSync(bundle, 1000, 1000);
    utimesSync(module, 2000, 2000);
    expect(madeFrom(bundle, module)).toBe(false);
    // the same files in a package as npm installs it (no tsconfig.json): content decides
    rmSync(join(dir, 'tsconfig.json'));
    expect(madeFrom(bundle, module)).toBe(true);
  });

  it('is never current without its bundle, its stamp or its module', () => {
    const module = join(dir, 'p.js');
    const bundle = join(dir, 'p.cjs');
    writeFileSync(module, 'x\n');
    expect(madeFrom(bundle, module)).toBe(false);
    writeFileSync(bundle, '');
    expect(madeFrom(bundle, module)).toBe(false);
    copyFileSync(module, `${bundle}.from`);
    expect(madeFrom(bundle, module)).toBe(true);
    rmSync(module);
    expect(madeFrom(bundle, module)).toBe(false);
  });
});
