/**
 * What a big run leaves on disk, and how long its report takes to draw (rgate issue #36, item 4):
 * the 10,000-query x 2-replay run of run-bootstrap-share.ts (its generator, the built-in semantic
 * engine) made once with the store on, then
 *
 * - history.sqlite's bytes (its -wal file included, if one is left) against the goal of 4 MiB;
 * - the report files' bytes (report.json, .html, .md, .xml) against the goal of 5 MB;
 * - the run's own `render` stage (RGATE_STAGE_TIMINGS) and `rgate report <run> -f html` end to end
 *   (process start to exit, median of the rounds) against the goal of 1 s, beside `node -e 0` timed
 *   the same way in the same run (what any command costs before it does anything).
 *
 * Run: npm run build && node dist/benchmarks/run-sizes.js
 *   (RUN_SIZES_QUERIES=2000 for a quick look; RUN_SIZES_REPLAYS, RUN_SIZES_ROUNDS; RUN_SIZES_KEEP=1
 *   keeps the temp dir)
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFixtureSet } from '../src/snapshot/index.js';
import { isMain, ROOT, writeBenchResult, type BenchResult } from './_common.js';
import { generate } from './run-bootstrap-share.js';

const BIN = join(ROOT, 'dist/src/cli/bin.cjs');
const MIB = 1024 * 1024;

function timed(
  argv: string[],
  env: NodeJS.ProcessEnv = {},
): { ms: number; status: number | null; stderr: string } {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, argv, {
    env: { ...process.env, NO_COLOR: '1', ...env },
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  if (r.error) throw r.error;
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, status: r.status, stderr: r.stderr };
}

const size = (p: string): number => (existsSync(p) ? statSync(p).size : 0);
const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function run(): Promise<BenchResult> {
  const queries = Number(process.env.RUN_SIZES_QUERIES ?? 10_000);
  const replays = Number(process.env.RUN_SIZES_REPLAYS ?? 2);
  const rounds = Number(process.env.RUN_SIZES_ROUNDS ?? 5);
  const dir = mkdtempSync(join(tmpdir(), 'rgate-run-sizes-'));
  try {
    const set = join(dir, 'fixtures', 'bench');
    const fixtureConfig = JSON.parse(readFileSync(join(ROOT, 'fixtures/context-load/config.json'), 'utf8'));
    writeFixtureSet(set, { ...generate(queries), config: fixtureConfig });
    const frozen = timed([BIN, 'freeze', set, '--date', '2026-11-23']);
    if (frozen.status !== 0) throw new Error(`rgate freeze exited ${frozen.status}: ${frozen.stderr}`);
    const config = join(dir, 'rgate.config.json');
    writeFileSync(
      config,
      JSON.stringify({
        suites: {
          bench: {
            description: `generated: ${queries} queries`,
            fixture: set,
            system: { type: 'builtin', mode: 'semantic' },
            config: { mode: 'semantic' },
            gate: join(ROOT, 'gates/semantic-retrieval-v1.gate.json'),
            replays,
            relevance_level: 1,
            ranking_measures: ['recip_rank', 'ndcg_cut.5', 'P.5'],
          },
        },
      }),
    );
    const outDir = join(dir, 'out');
    mkdirSync(outDir);
    const timings = join(dir, 'timings.jsonl');
    const made = timed([BIN, 'run', 'bench', '--config', config, '--out-dir', outDir], {
      RGATE_STAGE_TIMINGS: timings,
    });
    // exit 1 is a gate FAIL: a verdict on the generated set, not a failed run
    if (made.status !== 0 && made.status !== 1)
      throw new Error(`rgate run exited ${made.status}: ${made.stderr.slice(-2000)}`);
    const stages = (JSON.parse(readFileSync(timings, 'utf8').trim()) as { ms: Record<string, number> }).ms;
    const [runId] = readdirSync(join(outDir, 'runs'));
    const runDir = join(outDir, 'runs', runId!);
    const history = join(outDir, 'history.sqlite');
    const historyBytes = size(history) + size(`${history}-wal`);
    const files = ['report.json', 'report.html', 'report.md', 'report.xml'];
    const bytes = Object.fromEntries(files.map((f) => [f, size(join(runDir, f))]));
    const reportBytes = files.reduce((s, f) => s + bytes[f]!, 0);
    const html = join(dir, 'again.html');
    const renderMs: number[] = [];
    const nodeMs: number[] = [];
    for (let i = 0; i < rounds; i++) {
      nodeMs.push(timed(['-e', '0']).ms);
      const r = timed([BIN, 'report', runId!, '--out-dir', outDir, '-f', 'html', '-o', html]);
      if (r.status !== 0 && r.status !== 1) throw new Error(`rgate report exited ${r.status}: ${r.stderr}`);
      renderMs.push(r.ms);
    }
    const figures: BenchResult['figures'] = {
      queries,
      replays,
      rounds,
      history_sqlite_bytes: historyBytes,
      history_sqlite_mib: Number((historyBytes / MIB).toFixed(2)),
      report_json_bytes: bytes['report.json']!,
      report_html_bytes: bytes['report.html']!,
      report_md_bytes: bytes['report.md']!,
      report_xml_bytes: bytes['report.xml']!,
      report_files_bytes: reportBytes,
      report_files_mb: Number((reportBytes / 1e6).toFixed(2)),
      run_render_stage_ms: Math.round(stages.render ?? 0),
      run_store_stage_ms: Math.round(stages.store ?? 0),
      report_html_cli_ms_median: Math.round(median(renderMs)),
      node_e0_ms_median: Math.round(median(nodeMs)),
      load_average_1m: Number(loadavg()[0]!.toFixed(2)),
    };
    const result: BenchResult = {
      name: 'run-sizes',
      ok: historyBytes <= 4 * MIB && reportBytes <= 5e6,
      figures,
      goals: {
        history_sqlite_bytes: '<= 4 MiB for a 10,000-query x 2-replay run',
        report_files_bytes: '<= 5 MB of report files (json, html, md, xml) for that run',
        run_render_stage_ms: '<= 1 s to render the run report (informational here: timings are never judged)',
      },
    };
    process.stdout.write(
      `run sizes: history.sqlite ${figures.history_sqlite_mib} MiB, report files ${figures.report_files_mb} MB ` +
        `(json ${bytes['report.json']}, html ${bytes['report.html']}); render stage ${figures.run_render_stage_ms} ms, ` +
        `rgate report -f html ${figures.report_html_cli_ms_median} ms (node -e 0: ${figures.node_e0_ms_median} ms); ` +
        `${queries} queries x ${replays} replays; load ${figures.load_average_1m}\n`,
    );
    writeBenchResult('run-sizes', result);
    return result;
  } finally {
    if (process.env.RUN_SIZES_KEEP) process.stdout.write(`kept ${dir}\n`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  const r = await run();
  process.exitCode = r.ok ? 0 : 1;
}
