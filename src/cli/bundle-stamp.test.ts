import { appendFileSync, copyFileSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { madeFrom } from './bundle-stamp.cjs';

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rgate-stamp-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('a bundle is current by content, not by mtime', () => {
  it('follows the compiled module: touched older or newer changes nothing, an edit does', () => {
    const module = join(dir, 'run.js');
    const bundle = join(dir, 'run-bundle.cjs');
    writeFileSync(module, 'export const x = 1;\n');
    writeFileSync(bundle, 'exports.x = 1;\n');
    copyFileSync(module, `${bundle}.from`);
    for (const [m, b] of [
      [1000, 2000], // the bundle newer, as a build leaves it
      [2000, 1000], // the bundle older, as npm's extraction can leave it
    ]) {
      utimesSync(module, m!, m!);
      utimesSync(bundle, b!, b!);
      expect(madeFrom(bundle, module), `module ${m}, bundle ${b}`).toBe(true);
    }
    appendFileSync(module, '// tsc again, another source\n');
    utimesSync(bundle, 9000, 9000);
    expect(madeFrom(bundle, module)).toBe(false);
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
