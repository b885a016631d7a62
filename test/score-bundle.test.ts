import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdtempSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../src/cli/command.js';
import { runScoreCli } from '../src/cli/score-main.js';
import { madeFrom } from '../src/cli/bundle-stamp.cjs';
import { compiledCli, REPO } from './helpers/dist.js';

/**
 * `rgate score` runs from the one-file bundle the build writes (dist/bundle), so a 50-query score is
 * not mostly module loading. These hold the bundle to the modules it is made from, and the CLI to the
 * bundle only while it is current.
 */
const fixtures = join(REPO, 'fixtures', 'trec_eval');
const tmp = mkdtempSync(join(tmpdir(), 'rgate-score-bundle-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function inProcess(argv: string[]): Promise<string> {
  let out = '';
  const io: CliIo = {
    out: (t) => (out += t.endsWith('\n') ? t : t + '\n'),
    err: (t) => (out += t.endsWith('\n') ? t : t + '\n'),
    color: false,
    isTty: false,
    cwd: fixtures,
    env: {},
  };
  const code = await runScoreCli(argv, io);
  return `${out}exit ${code}\n`;
}

function compiled(bin: string, argv: string[]): string {
  try {
    return `${execFileSync(process.execPath, [bin, 'score', ...argv], { cwd: fixtures, encoding: 'utf8', stdio: 'pipe' })}exit 0\n`;
  } catch (e) {
    const x = e as { stdout: string; stderr: string; status: number };
    return `${x.stdout}${x.stderr}exit ${x.status}\n`;
  }
}

describe('rgate score from the bundle', () => {
  it('the build wrote it next to its worker, and it prints what the modules print', async () => {
    const bundle = join(REPO, 'dist', 'bundle');
    expect(existsSync(join(bundle, 'score-main.cjs'))).toBe(true);
    // run-read.ts starts its worker from its own folder: in the bundle that is dist/bundle
    expect(existsSync(join(bundle, 'run-read-worker.js'))).toBe(true);
    expect(madeFrom(join(bundle, 'score-main.cjs'), join(REPO, 'dist', 'src', 'cli', 'score-main.js'))).toBe(
      true,
    );
    for (const argv of [
      ['-q', '-m', 'all_trec', 'qrels.test', 'results.test'],
      ['-qcJn', '-mrelstring.5', '-M20', 'qrels.test', 'results.trunc'],
      ['--format', 'json', '-l2', 'qrels.rel_level', 'results.test'],
      ['--mesure', 'map', 'qrels.test', 'results.test'],
      ['qrels.test', 'missing.run'],
    ]) {
      expect(compiled(compiledCli(), argv)).toBe(await inProcess(argv));
    }
  });

  it("is used only while it was made from score-main.js as it is, whatever the files' mtimes", () => {
    // a copy of dist whose bundle says where it ran from
    const dist = join(tmp, 'dist');
    cpSync(join(REPO, 'dist', 'src'), join(dist, 'src'), { recursive: true });
    cpSync(join(REPO, 'dist', 'bundle'), join(dist, 'bundle'), { recursive: true });
    const marker = join(dist, 'bundle', 'score-main.cjs');
    writeFileSync(
      marker,
      [
        "exports.runScoreCli = async () => { process.stdout.write('from the bundle\\n'); return 0; };",
        'exports.defaultIo = () => ({});',
        '',
      ].join('\n'),
    );
    const bin = join(dist, 'src', 'cli', 'bin.cjs');
    const module = join(dist, 'src', 'cli', 'score-main.js');
    const modules = statSync(module).mtime;
    // older than the module, as npm's extraction can leave it: still the bundle of that module
    utimesSync(marker, modules, new Date(modules.getTime() - 1000));
    expect(compiled(bin, ['-m', 'map', 'qrels.test', 'results.test'])).toBe('from the bundle\nexit 0\n');
    // the module changed since (tsc alone): the bundle is stale and the modules answer, however
    // new the bundle looks
    appendFileSync(module, '// changed\n');
    utimesSync(marker, modules, new Date(modules.getTime() + 60_000));
    const fresh = compiled(bin, ['-m', 'map', 'qrels.test', 'results.test']);
    expect(fresh).toMatch(/^map\s+all\s+0\.1785\nexit 0\n$/);
    // and without a bundle at all
    rmSync(join(dist, 'bundle'), { recursive: true });
    expect(compiled(bin, ['-m', 'map', 'qrels.test', 'results.test'])).toBe(fresh);
  });
});
