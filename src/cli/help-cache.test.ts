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

    /**
     * A cli folder as the build leaves it: the bundle and the help each stamped as made from a
     * program.js (`bundle`, `help`: the program text they were made from; `program`: the one there
     * now), each file's mtime from `time` (seconds, default 1000): the decision must not depend on it.
     */
    function cliDir(o: {
      program: string;
      bundle: string;
      help: string;
      time?: Record<string, number>;
    }): string {
      dir = mkdtempSync(join(tmpdir(), 'rgate-help-cache-'));
      mkdirSync(join(dir, 'help'));
      const files: [string, string][] = [
        ['program.js', o.program],
        ['program-bundle.cjs', ''],
        ['program-bundle.cjs.from', o.bundle],
        ['help/80.txt', 'the help at 80\n'],
        ['help/locales.json', JSON.stringify(TRANSLATED)],
        ['help/locales.json.from', o.help],
      ];
      for (const [name, text] of files) {
        writeFileSync(join(dir, name), text);
        const t = o.time?.[name] ?? 1000;
        utimesSync(join(dir, name), t, t);
      }
      return dir;
    }

    it('serves the width it has, when help and bundle were made from program.js as it is', () => {
      const d = cliDir({ program: 'v1', bundle: 'v1', help: 'v1' });
      expect(cachedTopHelp(d, undefined, {})).toBe('the help at 80\n');
      expect(cachedTopHelp(d, 100, {})).toBeUndefined();
      expect(cachedTopHelp(d, undefined, { LANG: 'de_DE.UTF-8' })).toBeUndefined();
    });

    it('follows content, not mtimes: an installed package (bundle older than the program) is served', () => {
      // npm extracts in tarball order: the bundle and the help can look older than program.js
      const d = cliDir({
        program: 'v1',
        bundle: 'v1',
        help: 'v1',
        time: {
          'program.js': 3000,
          'program-bundle.cjs': 1000,
          'help/80.txt': 2000,
          'help/locales.json': 2000,
        },
      });
      expect(cachedTopHelp(d, 80, {})).toBe('the help at 80\n');
    });

    it('leaves a stale bundle or stale help to yargs, however new their files look', () => {
      const newer = { 'program-bundle.cjs': 4000, 'help/80.txt': 5000, 'help/locales.json': 5000 };
      // tsc changed program.js after the build
      expect(cachedTopHelp(cliDir({ program: 'v2', bundle: 'v1', help: 'v1', time: newer }), 80, {})).toBe(
        undefined,
      );
      rmSync(dir, { recursive: true, force: true });
      // the help laid out from another program than the bundle
      expect(cachedTopHelp(cliDir({ program: 'v2', bundle: 'v2', help: 'v1', time: newer }), 80, {})).toBe(
        undefined,
      );
      rmSync(dir, { recursive: true, force: true });
      // no stamp beside the help (a build before stamps, or one stopped while laying it out)
      const d = cliDir({ program: 'v1', bundle: 'v1', help: 'v1', time: newer });
      rmSync(join(d, 'help', 'locales.json.from'));
      expect(cachedTopHelp(d, 80, {})).toBeUndefined();
    });

    it('leaves widths outside the written range to yargs', () => {
      const d = cliDir({ program: 'v1', bundle: 'v1', help: 'v1' });
      expect(cachedTopHelp(d, 39, {})).toBeUndefined();
      expect(cachedTopHelp(d, undefined, { COLUMNS: '-5' })).toBeUndefined();
    });
  });
});
