/**
 * rgate as a team installs it (issue 23): `npm pack` of this checkout, the tarball installed into an
 * empty project, then `rgate init` on a small BEIR set with a command system and `rgate run` there,
 * all through node_modules/.bin/rgate. Nothing may resolve against this checkout: the project is a
 * temp folder, and the bundled gates, templates and schemas must come from the installed package.
 *
 * better-sqlite3 is installed with --ignore-scripts and its compiled addon copied from this
 * checkout's node_modules (same version, from the same lockfile): compiling it is npm's and
 * node-gyp's job, not rgate's, and took 13 minutes on the shared CI machine. What this test checks
 * is rgate's package.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { madeFrom } from '../src/cli/bundle-stamp.cjs';
import { compiledCli, REPO } from './helpers/dist.js';

const work = mkdtempSync(join(tmpdir(), 'rgate-pkg-'));
// the README's reader: an empty repository beside a checkout of rgate (this one, as ../rgate)
const team = join(work, 'readme-team');
const project = join(work, 'team-retriever');
const rgateBin = join(project, 'node_modules', '.bin', 'rgate');
afterAll(() => rmSync(work, { recursive: true, force: true }));

function sh(
  cmd: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): SpawnSyncReturns<string> {
  const r = spawnSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', npm_config_audit: 'false', npm_config_fund: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return r;
}

function rgate(args: string[], cwd = project): SpawnSyncReturns<string> {
  return sh(rgateBin, args, cwd);
}

/** The commands of README "Gate your own retriever", in order. */
function readmeCommands(): string[] {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const block = /<!-- gate-your-own:begin -->\n```sh\n([\s\S]*?)```\n<!-- gate-your-own:end -->/.exec(readme);
  expect(block).not.toBeNull();
  return block![1]!.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#'));
}
const commands = readmeCommands();
/** The README's setup: everything up to and including the install of the tarball. */
const installAt = commands.findIndex((c) => c.startsWith('npm install -D '));
const BUILD_CHECKOUT = '(cd ../rgate && npm ci) && ';

beforeAll(() => {
  compiledCli(); // the tarball packs dist/: it must have been built
  symlinkSync(REPO, join(work, 'rgate'), 'dir');
  mkdirSync(team);
  expect(installAt, 'README: npm install -D <the tarball>').toBeGreaterThan(0);
  const version = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string })
    .version;
  expect(commands[installAt], 'README installs the version this checkout packs').toContain(
    `rgate-${version}.tgz`,
  );
  for (const cmd of commands.slice(0, installAt + 1)) {
    // the checkout is built (npm test builds it first); a `prepare` here would rebuild dist/ under
    // the other test files, and compiling better-sqlite3 is npm's and node-gyp's job, not rgate's
    if (cmd.includes('npm ci')) expect(cmd).toContain(BUILD_CHECKOUT);
    const r = sh('bash', ['-c', cmd.replace(BUILD_CHECKOUT, '')], team, {
      npm_config_ignore_scripts: 'true',
      npm_config_prefer_offline: 'true',
    });
    expect(r.status, `${cmd}\n${r.stdout}\n${r.stderr}`).toBe(0);
  }
  cpSync(
    join(REPO, 'node_modules', 'better-sqlite3', 'build'),
    join(team, 'node_modules', 'better-sqlite3', 'build'),
    { recursive: true },
  );
  // a second project on the same install, for the checks that are not the README's
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'team-retriever', private: true }));
  symlinkSync(join(team, 'node_modules'), join(project, 'node_modules'), 'dir');
  cpSync(join(REPO, 'test', 'sut', 'term-overlap.mjs'), join(project, 'search.mjs'));
}, 900_000);

describe('the packed package, installed into an empty project', () => {
  it('ships what a user needs and nothing of the checkout', () => {
    const pkg = join(project, 'node_modules', 'rgate');
    for (const f of [
      'dist/src/cli/bin.cjs',
      'dist/bundle/score-main.cjs',
      'dist/schemas/rgate.config.schema.json',
      'gates/semantic-retrieval-v1.gate.json',
      'reports/run/templates/report.hbs',
      'reports/dashboard/templates/layout.hbs',
      'dist/reports/dashboard/pages.js',
      'templates/github-workflow.yml',
      'templates/gitlab-ci.yml',
      'fixtures/context-load/freeze.json',
      'action.yml',
    ])
      expect(existsSync(join(pkg, f)), f).toBe(true);
    for (const f of [
      'test',
      'benchmarks',
      'dist/test',
      'dist/benchmarks',
      'fixtures/cacm',
      'rgate.config.json',
    ])
      expect(existsSync(join(pkg, f)), f).toBe(false);
    expect(readdirSync(join(pkg, 'dist', 'src', 'cli')).some((f) => f.endsWith('.test.js'))).toBe(false);
    expect(existsSync(join(pkg, 'dist', 'src', 'engine', 'test-helpers.js'))).toBe(false);
    // npm extracts with its own times, in tarball order: the bundles and the laid-out help are
    // still the installed modules' (by content), so they are used
    const cli = join(pkg, 'dist', 'src', 'cli');
    for (const [made, compiled] of [
      [join(pkg, 'dist', 'bundle', 'score-main.cjs'), join(cli, 'score-main.js')],
      [join(cli, 'program-bundle.cjs'), join(cli, 'program.js')],
      [join(cli, 'help', 'locales.json'), join(cli, 'program.js')],
      [join(cli, 'commands', 'run-bundle.cjs'), join(cli, 'commands', 'run.js')],
    ])
      expect(madeFrom(made!, compiled!), made).toBe(true);
  }, 600_000);

  it('rgate run without a config says how to start', () => {
    const r = rgate(['run']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('start one with `rgate init`');
  }, 600_000);

  it('rgate init on a BEIR set and a command system, then rgate run: a verdict and its reports', () => {
    const init = rgate([
      'init',
      '--from',
      'beir',
      join(REPO, 'test', 'data', 'beir-mini'),
      '--system',
      'command',
      '--contract',
      'rgate',
      '--ci',
      'github',
      '--',
      'node',
      'search.mjs',
      '{corpus_dir}',
      '{k}',
      '{query}',
    ]);
    expect(init.status, init.stderr).toBe(0);
    expect(init.stdout).toContain('npx rgate run');
    for (const f of ['rgate.config.json', 'gates/retrieval.gate.json', '.github/workflows/rgate.yml'])
      expect(existsSync(join(project, f)), f).toBe(true);
    expect(existsSync(join(project, 'fixtures', 'retrieval', 'freeze.json'))).toBe(true);

    // a second init refuses to overwrite
    const again = rgate(['init', '--from', 'beir', join(REPO, 'test', 'data', 'beir-mini')]);
    expect(again.status).toBe(2);
    expect(again.stderr).toContain('rgate.config.json already has a suite named retrieval');

    const run = rgate(['run']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe(
      'rgate: retrieval PASS -> exit 0 (every gate passed)',
    );
    const runs = readdirSync(join(project, '.rgate', 'runs'));
    expect(runs).toHaveLength(1);
    const dir = join(project, '.rgate', 'runs', runs[0]!);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as {
      gate: { verdict: string; gate_id: string };
      queries: unknown[];
    };
    expect(report.gate).toMatchObject({ verdict: 'PASS', gate_id: 'retrieval' });
    expect(report.queries).toHaveLength(6);
    expect(readFileSync(join(dir, 'report.xml'), 'utf8')).toContain('<testsuite');
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toMatch(/^<!DOCTYPE html>/i);
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toContain('PASS');
  }, 600_000);

  it('a bundled gate and demo set are named by id from the project', () => {
    const demo = join(project, 'demo');
    mkdirSync(demo);
    writeFileSync(
      join(demo, 'rgate.config.json'),
      JSON.stringify({
        suites: {
          demo: {
            fixture: 'context-load',
            system: { type: 'builtin', mode: 'context-load' },
            config: { mode: 'context-load' },
            gate: 'context-load-contract-v0',
            replays: 1,
          },
        },
      }),
    );
    const r = rgate(['run', '--no-store'], demo);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('rgate: demo PASS -> exit 0 (every gate passed)');
  }, 600_000);

  it('README "Gate your own retriever": every command, in order, from an empty folder', () => {
    expect(commands.length - installAt - 1).toBeGreaterThanOrEqual(5);
    expect(readJson(join(team, 'package.json'))).toMatchObject({
      devDependencies: { rgate: expect.stringMatching(/^file:vendor\/rgate-.*\.tgz$/) as unknown },
    });
    // what the reader brings: their data and their retriever
    mkdirSync(join(team, 'data'), { recursive: true });
    cpSync(join(REPO, 'test', 'data', 'beir-mini'), join(team, 'data', 'my-set'), { recursive: true });
    cpSync(join(REPO, 'test', 'sut', 'term-overlap.mjs'), join(team, 'search.mjs'));
    const outputs: string[] = [];
    for (const cmd of commands.slice(installAt + 1)) {
      const r = sh('bash', ['-c', cmd], team);
      expect(r.status, `${cmd}\n${r.stdout}\n${r.stderr}`).toBe(0);
      outputs.push(r.stdout);
    }
    expect(existsSync(join(team, '.github', 'workflows', 'rgate.yml'))).toBe(true);
    const runs = outputs.filter((o) => o.includes('rgate: retrieval '));
    expect(runs).toHaveLength(2);
    for (const o of runs)
      expect(o.trimEnd().split('\n').at(-1)).toBe('rgate: retrieval PASS -> exit 0 (every gate passed)');
    expect(outputs.at(-1)).toContain('Newest run');
  }, 600_000);

  it("the README's package figures are npm pack's, within 5% in files and 10% in size", () => {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    const m =
      /rgate-<version>\.tgz`:\s+([\d.]+)\s+(kB|MB),\s+(\d+)\s+files,\s+([\d.]+)\s+(kB|MB)\s+unpacked/.exec(
        readme,
      );
    expect(m, 'README: "<size> MB, <n> files, <size> MB unpacked"').not.toBeNull();
    const bytes = (n: string, unit: string) => Number(n) * (unit === 'MB' ? 1e6 : 1e3);
    const packed = sh('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], REPO);
    expect(packed.status, packed.stderr).toBe(0);
    const real = (
      JSON.parse(packed.stdout) as { size: number; unpackedSize: number; entryCount: number }[]
    )[0]!;
    const near = (said: number, is: number, tolerance: number, what: string) =>
      expect(
        Math.abs(said - is) / is,
        `README says ${what} ${said}, npm pack gives ${is}: update README "Gate your own retriever"`,
      ).toBeLessThanOrEqual(tolerance);
    near(Number(m![3]), real.entryCount, 0.05, 'files');
    near(bytes(m![1]!, m![2]!), real.size, 0.1, 'size');
    near(bytes(m![4]!, m![5]!), real.unpackedSize, 0.1, 'unpacked size');
  }, 600_000);
});

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'));
}
