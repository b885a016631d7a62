/**
 * The nightly alarm sees a regression a paired test sees. A team gates the TREC run its pipeline
 * writes each night (examples/trec-run-worker.mjs over the frozen CACM set, rgate init's starter
 * gate: a floor on nDCG@10). Night two's run is night one's with each query's first two documents
 * swapped: nDCG@10 0.4543 -> 0.4263, inside night one's bootstrap interval, so the interval alarm
 * alone stays silent, while query by query the drop is no accident.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/program.js';
import type { HistoryView } from '../src/documents/index.js';
import { captureIo } from './helpers/cli-io.js';
import { CACM_RUN, swapTopTwo, trecRunSuite } from './helpers/trec-run-suite.js';

const REPO = resolve(import.meta.dirname, '..');
const tmp = mkdtempSync(join(tmpdir(), 'rgate-paired-alarm-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = captureIo(tmp);
  const code = await runCli(args, io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

describe('the nightly alarm, paired', () => {
  it('alarms on a paired drop the interval alarm cannot see, and stays silent on an unchanged night', async () => {
    cpSync(join(REPO, 'fixtures', 'cacm'), join(tmp, 'fixtures', 'cacm'), { recursive: true });
    mkdirSync(join(tmp, 'gates'));
    mkdirSync(join(tmp, 'runs'));
    writeFileSync(
      join(tmp, 'gates', 'nightly.gate.json'),
      JSON.stringify({
        gate_id: 'nightly',
        version: '1.0.0',
        min_queries: 52,
        description: 'the starter gate rgate init writes, on the team run file',
        rules: [
          { metric: 'error_rate', max: 0, description: 'Every request answered' },
          { metric: 'ndcg_cut.10', min: 0.3, description: 'Ranking quality floor' },
        ],
      }),
    );
    writeFileSync(
      join(tmp, 'rgate.config.json'),
      JSON.stringify({
        suites: { nightly: trecRunSuite(join(tmp, 'runs', 'nightly.txt'), ['ndcg_cut.10'], 'nightly') },
      }),
    );
    const night = async (run: string) => {
      writeFileSync(join(tmp, 'runs', 'nightly.txt'), run);
      const r = await cli(['run', 'nightly']);
      expect(r.code, r.err).toBe(0);
      return cli(['history', 'nightly', '--json']).then((h) => JSON.parse(h.out) as HistoryView);
    };
    const original = readFileSync(CACM_RUN, 'utf8');

    // night 2 = night 1: tied on every query, p 1, no alarm (error_rate is a count of requests,
    // not a per-query value: the interval alarm keeps it)
    await night(original);
    const same = await night(original);
    expect(same.alarms).toEqual([]);
    expect(same.paired?.tests.map((t) => [t.metric, t.n, t.ties, t.p_value])).toEqual([
      ['ndcg_cut.10', 52, 52, 1],
    ]);

    // night 3: the top two swapped
    const h = await night(swapTopTwo(original));
    const nd = h.trends.find((t) => t.metric === 'ndcg_cut.10')!;
    const [prev, cur] = nd.points.slice(-2);
    expect(prev!.value!.toFixed(4)).toBe('0.4543');
    expect(cur!.value!.toFixed(4)).toBe('0.4263');
    // the interval alarm alone would not fire: the new mean is inside the last run's interval
    expect(cur!.value!).toBeGreaterThan(prev!.interval![0]);
    const test = h.paired!.tests.find((t) => t.metric === 'ndcg_cut.10')!;
    expect(test).toMatchObject({ n: 52, a: h.compared_with, b: cur!.run_id, significant: true });
    expect(test.mean_delta!).toBeCloseTo(cur!.value! - prev!.value!, 12);
    expect(nd.alarm).toBe(
      `ndcg_cut.10 fell to 0.4263 in ${cur!.run_id} from 0.4543 in ${prev!.run_id}, paired over 52 queries ` +
        '(worse on 13, better on 3, tied on 36): sign-flip p=.0231, Holm p=.0231 over 1 gate metric',
    );
    expect(h.alarms).toEqual([nd.alarm]);
    // the nightly job fails on it
    const gate = await cli(['history', 'nightly', '--fail-on-alarm']);
    expect(gate.code).toBe(1);
    expect(gate.out).toContain('paired over 52 queries');
    // the run's own HTML report states the same alarm
    const html = readFileSync(join(tmp, '.rgate', 'runs', cur!.run_id, 'report.html'), 'utf8');
    expect(html).toContain('paired over 52 queries');
  });
});
