import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { captureIo } from './helpers/cli-io.js';
import { compiledCli } from './helpers/dist.js';
import { writeTinySet } from './helpers/tiny-set.js';
import { runCli } from '../src/cli/program.js';
import { score } from '../src/metrics/index.js';

const root = resolve(import.meta.dirname, '..');
const out = mkdtempSync(join(tmpdir(), 'rgate-run-cli-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const io = () => captureIo(root);

/** The report without the sections that may differ between runs of the same inputs. */
function deterministicPart(file: string): string {
  const r = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  delete r.environment;
  delete r.timing;
  return JSON.stringify(r);
}

describe('rgate run (the CLI)', () => {
  it('refuses nonsense settings with exit 2 and no stack', async () => {
    const o = io();
    expect(await runCli(['run', 'semantic', '--replays', '0'], o)).toBe(2);
    expect(o.stderr.join('\n')).toContain('--replays 0: must be a whole number >= 1');
    expect(o.stderr.join('\n')).not.toMatch(/\n\s+at /);
    const o2 = io();
    expect(await runCli(['run', 'no-such-suite'], o2)).toBe(2);
    expect(o2.stderr.join('\n')).toMatch(/known suites: .*context-load/);
  });

  it('writes every report, exits by the verdict, and the same inputs give byte-identical JSON', async () => {
    const dirs: string[] = [];
    for (const attempt of [1, 2]) {
      const o = io();
      const code = await runCli(
        ['run', 'context-load', '--replays', '2', '--no-store', '--out-dir', join(out, `a${attempt}`)],
        o,
      );
      expect(code).toBe(0);
      expect(o.stdout.join('\n')).toContain('PASS  context-load-contract-v0');
      const runs = readdirSync(join(out, `a${attempt}`, 'runs'));
      expect(runs).toHaveLength(1);
      const dir = join(out, `a${attempt}`, 'runs', runs[0]!);
      for (const f of ['report.json', 'report.html', 'report.md', 'report.xml'])
        expect(existsSync(join(dir, f))).toBe(true);
      dirs.push(dir);
    }
    expect(deterministicPart(join(dirs[0]!, 'report.json'))).toBe(
      deterministicPart(join(dirs[1]!, 'report.json')),
    );
    // the run ids differ: the reports are two runs, not one file read twice
    expect(dirs[0]).not.toBe(dirs[1]);
  });

  it('writes a TREC run of replay 1 that rgate score reads back to the same numbers', async () => {
    const trec = join(out, 'cl.run');
    const o = io();
    expect(
      await runCli(
        [
          'run',
          'context-load',
          '--replays',
          '1',
          '--no-store',
          '--out-dir',
          join(out, 'b'),
          '--json',
          '--trec-run',
          trec,
        ],
        o,
      ),
    ).toBe(0);
    const report = JSON.parse(o.stdout.join('\n')) as { metrics: { id: string; value: { mean?: number } }[] };
    expect(readFileSync(trec, 'utf8').split('\n')[0]).toMatch(/^q\d+ Q0 \S+ 1 \S+ context-load$/);
    // the fixture's embedded judgments as a TREC qrels file
    const qrels = readFileSync(join(root, 'fixtures/context-load/queries.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .flatMap((l) => {
        const q = JSON.parse(l) as { query_id: string; qrels?: Record<string, number> };
        return Object.entries(q.qrels ?? {}).map(([d, g]) => `${q.query_id} 0 ${d} ${g}`);
      });
    const qrelsFile = join(out, 'cl.qrels');
    writeFileSync(qrelsFile, qrels.join('\n') + '\n');
    const scored = score({
      qrels: qrelsFile,
      run: trec,
      measures: ['recip_rank', 'ndcg_cut.5'],
      averageComplete: true,
    });
    const mean = (id: string) => report.metrics.find((m) => m.id === id)?.value.mean;
    expect(scored.all.recip_rank).toBeCloseTo(mean('recip_rank')!, 12);
    expect(scored.all.ndcg_cut_5).toBeCloseTo(mean('ndcg_cut.5')!, 12);
  });
});

describe('rgate run with the system under test down', () => {
  it('JUnit names the outage as the first testcase, an error, and skips every rule; the summary lists none as failed', () => {
    const dir = join(out, 'down');
    writeTinySet(join(dir, 'fixtures', 'tiny'), { queries: 12, frozenOn: '2026-11-23' });
    writeFileSync(
      join(dir, 'rgate.config.json'),
      JSON.stringify({
        suites: {
          down: {
            fixture: 'tiny',
            system: { type: 'command', argv: [process.execPath, '-e', 'process.exit(3)'], contract: 'rgate' },
            gate: 'semantic-retrieval-v1',
            replays: 1,
          },
        },
      }),
    );
    const r = spawnSync(process.execPath, [compiledCli(), 'run', 'down'], { cwd: dir, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(3);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.slice(-3)).toEqual([
      'Summary (1 suite)',
      expect.stringMatching(
        /^ {2}FAIL {2}down {3}semantic-retrieval-v1 {2}not judged \(system under test down: all 10 requests made failed, none succeeded; 2 of 12 planned were never made \(first error: crash: process exited with code 3\)\)$/,
      ),
      'rgate: down FAIL (a system under test is down) -> exit 3 (the system under test is down or rgate failed)',
    ]);

    const [runId] = readdirSync(join(dir, '.rgate', 'runs'));
    const xml = readFileSync(join(dir, '.rgate', 'runs', runId!, 'report.xml'), 'utf8');
    expect(xml).toMatch(/<testsuite name="down" tests="(\d+)" failures="0" errors="1" skipped="(\d+)">/);
    const [, tests, skipped] = /tests="(\d+)" failures="0" errors="1" skipped="(\d+)"/.exec(xml)!;
    expect(Number(skipped)).toBe(Number(tests) - 1);
    const cases = [
      ...xml.matchAll(
        /<testcase classname="[^"]*" name="([^"]*)">\s*(<properties>[\s\S]*?<\/properties>\s*)?<(\w+)/g,
      ),
    ].map((m) => [m[1], m[3]]);
    // the cause first, then every rule (query_count and judged_top1 among them) not judged
    expect(cases[0]).toEqual(['run', 'error']);
    expect(xml).toContain(
      '<error message="system under test down: all 10 requests made failed, none succeeded; 2 of 12 planned were never made',
    );
    expect(xml).toContain('type="down"');
    expect(cases.slice(1).map(([name]) => name)).toEqual(
      expect.arrayContaining(['query_count', 'top1_useful_rate', 'judged_top1']),
    );
    for (const [name, tag] of cases.slice(1)) expect(tag, name).toBe('skipped');
    expect(xml).not.toContain('<failure');
  });
});
