import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { captureIo } from './helpers/cli-io.js';
import { runCli } from '../src/cli/program.js';

const root = resolve(import.meta.dirname, '..');
const out = mkdtempSync(join(tmpdir(), 'rgate-stage-timings-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** The report without the sections that may differ between runs of the same inputs. */
function deterministicPart(dir: string): string {
  const runs = readdirSync(join(dir, 'runs'));
  const r = JSON.parse(readFileSync(join(dir, 'runs', runs[0]!, 'report.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  delete r.environment;
  delete r.timing;
  return JSON.stringify(r);
}

describe('RGATE_STAGE_TIMINGS (benchmarks/run-bootstrap-share.ts)', () => {
  it('writes one line of stage timings per suite, and the report is the same bytes as without it', async () => {
    const file = join(out, 'timings.jsonl');
    const args = (d: string) => [
      'run',
      'semantic',
      '--replays',
      '1',
      '--no-store',
      '--out-dir',
      join(out, d),
    ];
    const timed = captureIo(root, { RGATE_STAGE_TIMINGS: file });
    const plain = captureIo(root);
    const codes = [await runCli(args('timed'), timed), await runCli(args('plain'), plain)];
    expect(codes[0]).toBe(codes[1]);
    expect(deterministicPart(join(out, 'timed'))).toBe(deterministicPart(join(out, 'plain')));

    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    const t = JSON.parse(lines[0]!) as {
      suite: string;
      ms: Record<string, number>;
      bootstrap_intervals: number;
    };
    expect(t.suite).toBe('semantic');
    expect(Object.keys(t.ms).sort()).toEqual(
      ['bootstrap', 'measure', 'prepare', 'read', 'render', 'replay', 'report', 'store'].sort(),
    );
    // nested stages: the bootstrap runs inside the measuring stage, which runs inside the report's
    expect(t.ms.bootstrap).toBeLessThanOrEqual(t.ms.measure!);
    expect(t.ms.measure).toBeLessThanOrEqual(t.ms.report!);
    // every mean with samples has an interval, except a one-row breakdown's: at least the overall ones
    const report = JSON.parse(deterministicPart(join(out, 'timed'))) as {
      metrics: { value: { kind: string; ci95?: unknown } }[];
    };
    const overall = report.metrics.filter((m) => m.value.kind === 'mean' && m.value.ci95).length;
    expect(t.bootstrap_intervals).toBeGreaterThanOrEqual(overall);
    expect(overall).toBeGreaterThan(0);
    // the untimed run wrote nothing, and nothing of the timings reached a report
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(1);
    expect(deterministicPart(join(out, 'timed'))).not.toContain('bootstrap_intervals');
  });
});
