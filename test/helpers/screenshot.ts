import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { REPO } from './dist.js';
import { comparePixels, decodePng, encodePng } from './png.js';

const STORED = join(REPO, 'test', '__screenshots__');

/**
 * The browser context every stored screenshot was taken in (Chromium's newContext options): a page
 * held to its PNG must be drawn the same way.
 */
export const SCREENSHOT_CONTEXT = {
  viewport: { width: 1280, height: 900 },
  deviceScaleFactor: 1,
  colorScheme: 'light',
  reducedMotion: 'reduce',
  timezoneId: 'UTC',
  locale: 'en-US',
} as const;
const OUT = join(REPO, '.rgate', 'screenshots');

/**
 * A page's screenshot held to test/__screenshots__/<name>.png: the same size, and at most 0.2% of its
 * pixels different (font hinting moves a few). A mismatch leaves `<name>.actual.png` and
 * `<name>.diff.png` (differing pixels in magenta) in .rgate/screenshots/. RGATE_UPDATE_SCREENSHOTS=1
 * rewrites the stored one; a missing one is written and the test fails, to be looked at and committed.
 */
export function expectScreenshot(name: string, shot: Buffer): void {
  const stored = join(STORED, `${name}.png`);
  const update = process.env.RGATE_UPDATE_SCREENSHOTS === '1';
  if (update || !existsSync(stored)) {
    mkdirSync(STORED, { recursive: true });
    writeFileSync(stored, shot);
    if (!update) throw new Error(`no stored screenshot ${stored}: written now, check it and commit it`);
    return;
  }
  const actual = decodePng(shot);
  const expected = decodePng(readFileSync(stored));
  const sized = actual.width === expected.width && actual.height === expected.height;
  const d = sized ? comparePixels(expected, actual) : undefined;
  if (!d || d.ratio > 0.002) {
    mkdirSync(OUT, { recursive: true });
    writeFileSync(join(OUT, `${name}.actual.png`), shot);
    if (d) writeFileSync(join(OUT, `${name}.diff.png`), encodePng(d.diff));
  }
  expect(`${actual.width}x${actual.height}`, `${name}: page size changed`).toBe(
    `${expected.width}x${expected.height}`,
  );
  expect(
    d!.ratio,
    `${name}: ${d!.differing} pixels differ (see .rgate/screenshots/${name}.diff.png)`,
  ).toBeLessThanOrEqual(0.002);
}
