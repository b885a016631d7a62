import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/program.js';
import { score } from '../src/index.js';
import { captureIo } from './helpers/cli-io.js';
import { CACM_RUN, swapTopTwo, trecRunSuite } from './helpers/trec-run-suite.js';

/**
 * A team whose pipeline already writes TREC runs gates them through examples/trec-run-worker.mjs (the
 * README's "Gate the run files you already have"): the real CACM Anserini BM25 run, as a worker
 * system over the frozen CACM set, measures what `rgate score` (trec_eval-exact) says of the file.
 */
const REPO = resolve(import.meta.dirname, '..');
const tmp = mkdtempSync(join(tmpdir(), 'rgate-run-worker-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const RUN = CACM_RUN;
const MEASURES = ['map', 'P.10', 'P.30', 'ndcg_cut.10', 'recall.1000', 'recip_rank'];

describe('examples/trec-run-worker.mjs', () => {
  it('gates a TREC run file with the figures trec_eval gives it', async () => {
    cpSync(join(REPO, 'fixtures', 'cacm'), join(tmp, 'fixtures', 'cacm'), { recursive: true });
    writeFileSync(
      join(tmp, 'rgate.config.json'),
      JSON.stringify({ suites: { nightly: trecRunSuite(RUN, MEASURES, null) } }),
    );
    const io = captureIo(tmp);
    expect(await runCli(['run', 'nightly'], io), io.stderr.join('\n')).toBe(0);
    const [runId] = readdirSync(join(tmp, '.rgate', 'runs'));
    const report = JSON.parse(readFileSync(join(tmp, '.rgate', 'runs', runId!, 'report.json'), 'utf8')) as {
      metrics: { id: string; value: { kind: string; n: number; mean?: number | null } }[];
    };
    const qrels = join(REPO, 'fixtures', 'cacm', 'source', 'qrels.cacm.txt');
    const trec = (m: string) => score({ qrels, run: RUN, measures: [m] }).all[m.replace('.', '_')]!;
    for (const m of MEASURES) {
      const got = report.metrics.find((x) => x.id === m)?.value;
      expect(got, m).toMatchObject({ kind: 'mean', n: 52 });
      expect(got!.mean, m).toBeCloseTo(trec(m), 12);
    }
    // Anserini's published P@30 for CACM, from its own run, through the gate
    expect(report.metrics.find((x) => x.id === 'P.30')!.value.mean!.toFixed(4)).toBe('0.1942');
  });

  it('compares two run files with paired tests, the path a system parameter', async () => {
    // a second run: each query's first two documents swapped (scores exchanged)
    const b = join(tmp, 'swapped.txt');
    writeFileSync(b, swapTopTwo(readFileSync(RUN, 'utf8')));
    const config = JSON.parse(readFileSync(join(tmp, 'rgate.config.json'), 'utf8')) as {
      suites: { nightly: { system: { argv: string[]; params?: Record<string, string> } } };
    };
    const sys = config.suites.nightly.system;
    sys.argv = [...sys.argv.slice(0, -1), '{params.run}'];
    sys.params = { run: RUN };
    writeFileSync(join(tmp, 'rgate.config.json'), JSON.stringify(config));
    const io = captureIo(tmp);
    const code = await runCli(
      [
        'compare',
        'nightly',
        '--set',
        `system.params.run=${RUN}`,
        '--set',
        `system.params.run=${b}`,
        '--json',
      ],
      io,
    );
    expect(code, io.stderr.join('\n')).toBe(0);
    const session = JSON.parse(io.stdout.join('\n')) as {
      tests: { metric: string; n: number; mean_delta: number | null }[];
    };
    const map = session.tests.find((t) => t.metric === 'map')!;
    expect(map.n).toBe(52);
    expect(map.mean_delta).not.toBe(0);
    const qrels = join(REPO, 'fixtures', 'cacm', 'source', 'qrels.cacm.txt');
    const mapOf = (run: string) => score({ qrels, run, measures: ['map'] }).all.map!;
    expect(map.mean_delta).toBeCloseTo(mapOf(b) - mapOf(RUN), 12);
  });
});
