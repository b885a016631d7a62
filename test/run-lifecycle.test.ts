import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { captureIo } from './helpers/cli-io.js';
import { runCli } from '../src/cli/program.js';
import { compiledCli } from './helpers/dist.js';
import { calls, deterministicPart, loggedProject } from './helpers/logged-project.js';

/**
 * A run's life at its edges, through the real CLI: the shape of `--json`, and a run split over a CI
 * matrix of shards merged back into one run, which must report exactly what an uninterrupted run
 * reports. (Killed with SIGKILL and resumed: run-sigkill.test.ts, an end-to-end test.)
 */
const tmp = mkdtempSync(join(tmpdir(), 'rgate-lifecycle-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('rgate run --json: the shape follows the command line', () => {
  it('one suite named prints an object; the default suites an array even of one; several named an array', async () => {
    const { dir } = loggedProject(tmp, 'json-shape', 2);
    const configPath = join(dir, 'rgate.config.json');
    const config = JSON.parse(readFileSync(configPath, 'utf8')) as {
      suites: Record<string, unknown>;
      default_suites?: string[];
    };
    writeFileSync(configPath, JSON.stringify({ ...config, default_suites: ['tiny'] }));
    const json = async (argv: string[]): Promise<unknown> => {
      const o = captureIo(dir);
      expect(
        await runCli(['run', ...argv, '--no-store', '--replays', '1', '--json'], o),
        o.stderr.join('\n'),
      ).toBe(0);
      return JSON.parse(o.stdout.join('\n'));
    };
    const one = (await json(['tiny'])) as { suite: string; gate: unknown };
    expect(Array.isArray(one)).toBe(false);
    expect(one.suite).toBe('tiny');
    // one default suite today: an array already, so a script reading it survives a second one
    const defaults = (await json([])) as { suite: string }[];
    expect(defaults.map((r) => r.suite)).toEqual(['tiny']);
    writeFileSync(
      configPath,
      JSON.stringify({
        suites: { ...config.suites, tiny2: config.suites.tiny },
        default_suites: ['tiny', 'tiny2'],
      }),
    );
    expect(((await json([])) as { suite: string }[]).map((r) => r.suite)).toEqual(['tiny', 'tiny2']);
    expect(((await json(['tiny2', 'tiny'])) as { suite: string }[]).map((r) => r.suite)).toEqual([
      'tiny2',
      'tiny',
    ]);
    expect(((await json(['tiny2'])) as { suite: string }).suite).toBe('tiny2');
  });
});

describe('sharding on CI runners', () => {
  it('a matrix of 3 shards merges into one run byte-identical to the unsharded one; mismatched shards are refused', async () => {
    const { dir, log } = loggedProject(tmp, 'matrix', 10);
    for (const i of [1, 2, 3]) {
      const o = captureIo(dir);
      expect(await runCli(['run', 'tiny', '--shard', `${i}/3`], o), o.stderr.join('\n')).toBe(0);
    }
    expect(calls(log)).toBe(30);
    const shards = [1, 2, 3].map((i) => join(dir, '.rgate', 'shards', `tiny-${i}of3.json`));
    const sizes = shards.map(
      (f) => (JSON.parse(readFileSync(f, 'utf8')) as { observations: unknown[] }).observations.length,
    );
    expect(sizes).toEqual([10, 10, 10]);

    const merged = captureIo(dir);
    expect(await runCli(['merge', ...shards], merged), merged.stderr.join('\n')).toBe(0);
    const runId = /merged 3 shards into run (\S+)/.exec(merged.stdout.join('\n'))![1]!;
    // the matrix's last step ends as `rgate run` does: the summary, then the verdict and exit line
    const tail = merged.stdout.join('\n').split('\n').slice(-3);
    expect(tail).toEqual([
      'Summary (1 suite)',
      '  NONE  tiny   no gate (measures only, nothing enforced)',
      'rgate: tiny NONE (no gate) -> exit 0 (no gate: measures only, nothing enforced)',
    ]);
    const whole = captureIo(dir);
    expect(await runCli(['run', 'tiny', '--out-dir', 'whole'], whole)).toBe(0);
    const [wholeRun] = readdirSync(join(dir, 'whole', 'runs'));
    expect(deterministicPart(join(dir, '.rgate', 'runs', runId, 'report.json'))).toBe(
      deterministicPart(join(dir, 'whole', 'runs', wholeRun!, 'report.json')),
    );

    // a missing shard, a shard given twice, a shard of another config: refused, nothing stored
    const missing = captureIo(dir);
    expect(await runCli(['merge', shards[0]!, shards[1]!], missing)).toBe(2);
    expect(missing.stderr.join('\n')).toContain('shard 3/3 missing');
    const twice = captureIo(dir);
    expect(await runCli(['merge', shards[0]!, shards[0]!, shards[1]!], twice)).toBe(2);
    expect(twice.stderr.join('\n')).toContain('are both shard 1/3');
    const other = captureIo(dir);
    expect(
      await runCli(['run', 'tiny', '--shard', '3/3', '--set', 'k=12', '--shard-out', 'other.json'], other),
    ).toBe(0);
    const mixed = captureIo(dir);
    expect(await runCli(['merge', shards[0]!, shards[1]!, join(dir, 'other.json')], mixed)).toBe(2);
    expect(mixed.stderr.join('\n')).toMatch(/differ in their snapshots .* not shards of one run/);
    expect(existsSync(join(dir, '.rgate', 'runs'))).toBe(true);
    expect(readdirSync(join(dir, '.rgate', 'runs'))).toEqual([runId]);

    // the same shards again, in another order (a retried CI job): the run they made, not a second one
    const again = captureIo(dir);
    expect(await runCli(['merge', shards[2]!, shards[0]!, shards[1]!], again), again.stderr.join('\n')).toBe(
      0,
    );
    expect(again.stdout.join('\n')).toContain(`these 3 shards were merged before: run ${runId}`);
    expect(again.stdout.at(-1)).toContain('rgate: tiny NONE (no gate) -> exit 0');
    // under --json stdout is the report alone and the verdict line ends stderr
    const json = captureIo(dir);
    expect(await runCli(['merge', ...shards, '--json'], json)).toBe(0);
    expect((JSON.parse(json.stdout.join('\n')) as { suite: string }).suite).toBe('tiny');
    expect(json.stderr.at(-1)).toContain('rgate: tiny NONE (no gate) -> exit 0');
    expect(readdirSync(join(dir, '.rgate', 'runs'))).toEqual([runId]);
    const history = captureIo(dir);
    expect(await runCli(['history', 'tiny', '--json'], history)).toBe(0);
    const runs = (JSON.parse(history.stdout.join('\n')) as { runs: { run_id: string }[] }).runs;
    expect(runs.filter((r) => r.run_id === runId)).toHaveLength(1);
    expect(runs).toHaveLength(1); // the unsharded run keeps its own history in whole/
  });
});

describe('rgate merge ends as rgate run does', () => {
  it("the last lines are the verdict and its exit code, so a CI log's tail names it (stderr under --json)", () => {
    const { dir } = loggedProject(tmp, 'merge-verdict', 4);
    // the tiny suite under a gate it cannot pass: 4 queries where 50 are required
    mkdirSync(join(dir, 'gates'));
    writeFileSync(
      join(dir, 'gates', 'tiny-strict.gate.json'),
      JSON.stringify({
        gate_id: 'tiny-strict',
        version: '1.0.0',
        description: 'more queries than the tiny set has',
        min_queries: 50,
        rules: [{ metric: 'error_rate', max: 0, min_denominator: 1, description: 'every request answered' }],
      }),
    );
    const config = JSON.parse(readFileSync(join(dir, 'rgate.config.json'), 'utf8')) as {
      suites: { tiny: { gate: string | null } };
    };
    config.suites.tiny.gate = 'tiny-strict';
    writeFileSync(join(dir, 'rgate.config.json'), JSON.stringify(config));
    const cli = (...argv: string[]) =>
      spawnSync(process.execPath, [compiledCli(), ...argv], { cwd: dir, encoding: 'utf8' });
    // a shard is no verdict: it exits 0, the merge judges
    for (const i of [1, 2]) expect(cli('run', 'tiny', '--shard', `${i}/2`).status).toBe(0);
    const shards = [1, 2].map((i) => join(dir, '.rgate', 'shards', `tiny-${i}of2.json`));
    const tail = (text: string) => text.trimEnd().split('\n').slice(-4);
    const first = cli('merge', ...shards);
    expect(first.status, first.stderr).toBe(1);
    expect(tail(first.stdout)).toEqual([
      'Summary (1 suite)',
      '  FAIL  tiny   tiny-strict  (too few queries: the query set decides it)',
      '        fail: query_count: insufficient evidence: 4 queries, at least 50 required',
      'rgate: tiny FAIL (queries) -> exit 1 (a gate failed)',
    ]);
    // the same shards again (a retried CI job): the stored run's verdict, last, the same way
    const again = cli('merge', ...shards);
    expect(again.status, again.stderr).toBe(1);
    expect(again.stdout).toContain('these 2 shards were merged before');
    expect(tail(again.stdout)).toEqual(tail(first.stdout));
    const json = cli('merge', ...shards, '--json');
    expect(json.status, json.stderr).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ suite: 'tiny', gate: { verdict: 'FAIL' } });
    expect(tail(json.stderr)).toEqual(tail(first.stdout));
  });
});

describe('rgate merge over a history the store refuses', () => {
  it('refuses before storing anything: exit 2 naming the broken run, as rgate run does; fixed, a re-merge still stores one run', async () => {
    const { dir } = loggedProject(tmp, 'broken-history', 4);
    const storePath = join(dir, '.rgate', 'history.sqlite');
    expect(await runCli(['run', 'tiny'], captureIo(dir))).toBe(0);
    for (const i of [1, 2])
      expect(await runCli(['run', 'tiny', '--shard', `${i}/2`], captureIo(dir))).toBe(0);
    const shards = [1, 2].map((i) => join(dir, '.rgate', 'shards', `tiny-${i}of2.json`));
    const merge = () =>
      spawnSync(process.execPath, [compiledCli(), 'merge', ...shards], { cwd: dir, encoding: 'utf8' });
    const db = new Database(storePath);
    const count = () =>
      db
        .prepare('SELECT (SELECT COUNT(*) FROM runs) AS runs, (SELECT COUNT(*) FROM observations) AS obs')
        .get();
    const bad = (db.prepare('SELECT run_id FROM runs').get() as { run_id: string }).run_id;
    const plan = (db.prepare('SELECT plan_json FROM runs WHERE run_id = ?').get(bad) as { plan_json: string })
      .plan_json;
    const before = count();
    for (const broken of ['{', JSON.stringify({ spec: 1 })]) {
      db.prepare('UPDATE runs SET plan_json = ? WHERE run_id = ?').run(broken, bad);
      const r = merge();
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toContain(
        `rgate: error: run ${bad} in ${storePath} is not a run this rgate can read: `,
      );
      expect(r.stderr).toContain('hint: written by another rgate version or edited by hand: delete that run');
      expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
      expect(count()).toEqual(before);
      expect(readdirSync(join(dir, '.rgate', 'runs'))).toEqual([bad]);
    }

    // the row as it was: the merge stores its run, and the same shards again store nothing new
    db.prepare('UPDATE runs SET plan_json = ? WHERE run_id = ?').run(plan, bad);
    const first = merge();
    expect(first.status, first.stderr).toBe(0);
    const runId = /merged 2 shards into run (\S+)/.exec(first.stdout)![1]!;
    const again = merge();
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain(`these 2 shards were merged before: run ${runId}`);
    const both = [bad, runId].sort().map((run_id) => ({ run_id }));
    expect(db.prepare('SELECT run_id FROM runs ORDER BY run_id').all()).toEqual(both);
    // broken again: the re-merge is refused the same way, and stores nothing either
    db.prepare('UPDATE runs SET plan_json = ? WHERE run_id = ?').run('{', bad);
    const refused = merge();
    expect(refused.status, refused.stderr).toBe(2);
    expect(refused.stderr).toContain(`run ${bad} in ${storePath} is not a run this rgate can read: `);
    expect(db.prepare('SELECT run_id FROM runs ORDER BY run_id').all()).toEqual(both);
    db.close();
  });
});
