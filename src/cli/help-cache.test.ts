import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cachedTopHelp, helpWidthOf, isTopHelp, yargsSpeaksEnglish } from './help-cache.cjs';

const TRANSLATED = ['de', 'fr', 'pt', 'pt_BR', 'uk_UA'];

describe('the top-level help from the build', () => {
  it('answers `--help` or `-h` alone, nothing else', () => {
    expect(isTopHelp(['--help'])).toBe(true);
    expect(isTopHelp(['-h'])).toBe(true);
    expect(isTopHelp([])).toBe(false);
    expect(isTopHelp(['run', '--help'])).toBe(false);
    expect(isTopHelp(['--help', '--debug'])).toBe(false);
    expect(isTopHelp(['--version'])).toBe(false);
  });

  it('takes the width as program.ts does: terminal, $COLUMNS, 80; at most 120', () => {
    expect(helpWidthOf(100, { COLUMNS: '60' })).toBe(100);
    expect(helpWidthOf(undefined, { COLUMNS: '60' })).toBe(60);
    expect(helpWidthOf(undefined, { COLUMNS: 'wide' })).toBe(80);
    expect(helpWidthOf(undefined, {})).toBe(80);
    expect(helpWidthOf(300, {})).toBe(120);
  });

  it('knows when yargs would translate its headings', () => {
    expect(yargsSpeaksEnglish({}, TRANSLATED)).toBe(true);
    expect(yargsSpeaksEnglish({ LANG: 'C.UTF-8' }, TRANSLATED)).toBe(true);
    expect(yargsSpeaksEnglish({ LANG: 'en_GB.UTF-8' }, TRANSLATED)).toBe(true);
    expect(yargsSpeaksEnglish({ LANG: 'xx_YY' }, TRANSLATED)).toBe(true);
    expect(yargsSpeaksEnglish({ LANG: 'de_AT.UTF-8' }, TRANSLATED)).toBe(false);
    expect(yargsSpeaksEnglish({ LANG: 'pt_BR' }, TRANSLATED)).toBe(false);
    expect(yargsSpeaksEnglish({ LANG: 'uk_UA.UTF-8' }, TRANSLATED)).toBe(false);
    // the first one set and not empty wins, as in yargs
    expect(yargsSpeaksEnglish({ LC_ALL: '', LANG: 'fr_FR' }, TRANSLATED)).toBe(false);
    expect(yargsSpeaksEnglish({ LC_ALL: 'C', LANG: 'fr_FR' }, TRANSLATED)).toBe(true);
    expect(yargsSpeaksEnglish({ LANG: '/tmp/x' }, TRANSLATED)).toBe(false);
    // yargs drops everything from the first dot: this one is the empty locale, English
    expect(yargsSpeaksEnglish({ LANG: '../../x' }, TRANSLATED)).toBe(true);
  });

  describe('the files', () => {
    let dir = '';
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    /** A cli folder as the build leaves it, each file's mtime (seconds) given. */
    function cliDir(times: { program: number; bundle: number; help: number; locales: number }): string {
      dir = mkdtempSync(join(tmpdir(), 'rgate-help-cache-'));
      mkdirSync(join(dir, 'help'));
      const files: [string, string, number][] = [
        ['program.js', '', times.program],
        ['program-bundle.cjs', '', times.bundle],
        ['help/80.txt', 'the help at 80\n', times.help],
        ['help/locales.json', JSON.stringify(TRANSLATED), times.locales],
      ];
      for (const [name, text, t] of files) {
        writeFileSync(join(dir, name), text);
        utimesSync(join(dir, name), t, t);
      }
      return dir;
    }

    it('serves the width it has, when made after the bundle made after the program', () => {
      const d = cliDir({ program: 1000, bundle: 2000, help: 3000, locales: 3000 });
      expect(cachedTopHelp(d, undefined, {})).toBe('the help at 80\n');
      expect(cachedTopHelp(d, 100, {})).toBeUndefined();
      expect(cachedTopHelp(d, undefined, { LANG: 'de_DE.UTF-8' })).toBeUndefined();
    });

    it('leaves a stale bundle or stale help to yargs', () => {
      expect(cachedTopHelp(cliDir({ program: 3000, bundle: 2000, help: 4000, locales: 4000 }), 80, {})).toBe(
        undefined,
      );
      rmSync(dir, { recursive: true, force: true });
      expect(cachedTopHelp(cliDir({ program: 1000, bundle: 3000, help: 2000, locales: 4000 }), 80, {})).toBe(
        undefined,
      );
      rmSync(dir, { recursive: true, force: true });
      expect(cachedTopHelp(cliDir({ program: 1000, bundle: 3000, help: 4000, locales: 2000 }), 80, {})).toBe(
        undefined,
      );
    });

    it('leaves widths outside the written range to yargs', () => {
      const d = cliDir({ program: 1000, bundle: 2000, help: 3000, locales: 3000 });
      expect(cachedTopHelp(d, 39, {})).toBeUndefined();
      expect(cachedTopHelp(d, undefined, { COLUMNS: '-5' })).toBeUndefined();
    });
  });
});
