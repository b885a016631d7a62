/**
 * Bootstrap share of a WHOLE `rgate run` at 10,000 queries (rgate issue #13, item 5: under 10% of the
 * run). bootstrap-share.ts times the measuring stage in-process; this one runs the real CLI end to end
 * on a generated set, as a nightly CI gate would:
 *
 * 1. a seeded fixture set in a temp dir: 2,000 corpus records and 10,000 judged queries with qrels
 *    (three profiles, eight tags), written with writeFixtureSet and frozen with `rgate freeze`;
 * 2. an rgate.config.json there with one suite on the built-in engine in semantic mode, under the
 *    semantic-retrieval-v1 gate, with the `semantic` suite's ranking measures (recip_rank,
 *    ndcg_cut.5, P.5) but 2 replays, not its 5: replaying is nearly all of a run (about 6-9 ms a
 *    request here), so 5 replays would only shrink the bootstrap's share (and take 2.5x longer);
 *    2 is what the cacm and cranfield suites use;
 * 3. `node dist/src/cli/bin.cjs run bench --config ... --no-store --out-dir ...`, timed from spawn to
 *    exit (wall), with RGATE_STAGE_TIMINGS naming a file the run appends its stage timings to
 *    (prepare, replay, read, measure, bootstrap inside measure, report, store, render). The variable
 *    only adds clock reads around stages and intervals: the same intervals come out, which the
 *    benchmark checks against one run without it (`intervals_sha256`, every metric and breakdown).
 *
 * Rounds are sequential (one CLI at a time); medians are reported (each figure's own median, so the
 * stage medians need not add up). The share of the run is the bootstrap's ms over the process's wall
 * ms (node start-up included, as a user waits for it); the share without replay leaves out the time
 * spent waiting for the system under test, which a faster system would not spend.
 *
 * Run: npx tsc -p . && node dist/benchmarks/run-bootstrap-share.js
 *   (RUN_BOOTSTRAP_QUERIES=2000 RUN_BOOTSTRAP_ROUNDS=1 for a quick look; RUN_BOOTSTRAP_REPLAYS=2)
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPrng, type Prng } from '../src/core/prng.js';
import type { CorpusRecord, QueryRecord, Report } from '../src/documents/index.js';
import { writeFixtureSet } from '../src/snapshot/index.js';
import { isMain, ROOT, writeBenchResult, type BenchResult } from './_common.js';

const SEED = 20261123;
const RECORDS = 2000;
const TOPICS = ['ingest', 'query', 'storage', 'oncall', 'release', 'security', 'billing', 'retention'];
const PROFILES = ['small', 'medium', 'large'] as const;
const BIN = join(ROOT, 'dist/src/cli/bin.cjs');

/** A pronounceable vocabulary, so the analyzer's stemmer and stopwords see word-like tokens. */
function vocabulary(prng: Prng, size: number): string[] {
  const syllables = ['ka', 'lo', 'mi', 'ren', 'tas', 'vo', 'qui', 'zel', 'dar', 'fen', 'gor', 'pli'];
  const words = new Set<string>();
  while (words.size < size) {
    let w = '';
    for (let k = 2 + prng.int(3); k > 0; k--) w += syllables[prng.int(syllables.length)];
    words.add(w);
  }
  return [...words];
}

/** Zipf-like draw: low indexes (common words) far more often than high ones. */
const zipf = (prng: Prng, n: number): number => Math.floor(n * prng.next() ** 3);

export function generate(queries: number): { corpus: CorpusRecord[]; queries: QueryRecord[] } {
  const prng = createPrng(SEED);
  const vocab = vocabulary(prng, 6000);
  const texts: string[][] = [];
  const corpus: CorpusRecord[] = [];
  for (let i = 0; i < RECORDS; i++) {
    const topic = TOPICS[i % TOPICS.length]!;
    const words = Array.from({ length: 40 + prng.int(80) }, () => vocab[zipf(prng, vocab.length)]!);
    texts.push(words);
    const day = 1 + prng.int(28);
    corpus.push({
      id: `r${String(i).padStart(4, '0')}`,
      source_path: `docs/${topic}/r${i}.md`,
      title: `${topic} ${words.slice(0, 3).join(' ')}`,
      text: words.join(' '),
      kind: i % 5 === 0 ? 'canonical' : 'tactical',
      captured_at: `2026-0${1 + (i % 9)}-${String(day).padStart(2, '0')}T10:00:00Z`,
      tags: [topic],
    });
  }
  const qs: QueryRecord[] = [];
  for (let q = 0; q < queries; q++) {
    // words of one target record, with a stray word: most queries find it, some do not
    const target = prng.int(RECORDS);
    const words = texts[target]!;
    const picked = Array.from({ length: 4 + prng.int(3) }, () => words[prng.int(words.length)]!);
    picked.push(vocab[prng.int(vocab.length)]!);
    const qrels: Record<string, number> = { [corpus[target]!.id]: 3 };
    for (let k = 0; k < 2; k++) qrels[corpus[prng.int(RECORDS)]!.id] ??= prng.int(2);
    qs.push({
      query_id: `q${String(q).padStart(5, '0')}`,
      text: picked.join(' '),
      profile: PROFILES[prng.int(PROFILES.length)]!,
      tags: [TOPICS[target % TOPICS.length]!, TOPICS[prng.int(TOPICS.length)]!],
      qrels,
    });
  }
  return { corpus, queries: qs };
}

function cli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): { ms: number; status: number | null; stderr: string } {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [BIN, ...args], {
    env: { ...process.env, NO_COLOR: '1', ...env },
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.error) throw r.error;
  return { ms, status: r.status, stderr: r.stderr };
}

/** Every interval (and value) the run reported: metrics and breakdowns. */
function intervalsDigest(outDir: string): string {
  const runs = join(outDir, 'runs');
  const [runId] = readdirSync(runs);
  const report = JSON.parse(readFileSync(join(runs, runId!, 'report.json'), 'utf8')) as Report;
  return createHash('sha256')
    .update(JSON.stringify([report.metrics, report.breakdowns]))
    .digest('hex');
}

export async function run(): Promise<BenchResult> {
  const queries = Number(process.env.RUN_BOOTSTRAP_QUERIES ?? 10_000);
  const rounds = Number(process.env.RUN_BOOTSTRAP_ROUNDS ?? 3);
  const replays = Number(process.env.RUN_BOOTSTRAP_REPLAYS ?? 2);
  const dir = mkdtempSync(join(tmpdir(), 'rgate-run-bootstrap-'));
  try {
    const set = join(dir, 'fixtures', 'bench');
    const generated = generate(queries);
    const fixtureConfig = JSON.parse(readFileSync(join(ROOT, 'fixtures/context-load/config.json'), 'utf8'));
    writeFixtureSet(set, { ...generated, config: fixtureConfig });
    const frozen = cli(['freeze', set, '--date', '2026-11-23']);
    if (frozen.status !== 0) throw new Error(`rgate freeze exited ${frozen.status}: ${frozen.stderr}`);
    const config = join(dir, 'rgate.config.json');
    writeFileSync(
      config,
      JSON.stringify({
        suites: {
          bench: {
            description: `generated: ${RECORDS} records, ${queries} queries (seed ${SEED})`,
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
    const runOnce = (i: number, timed: boolean) => {
      const outDir = join(dir, `out-${i}`);
      mkdirSync(outDir);
      const timings = join(dir, `timings-${i}.jsonl`);
      const r = cli(
        ['run', 'bench', '--config', config, '--no-store', '--out-dir', outDir],
        timed ? { RGATE_STAGE_TIMINGS: timings } : {},
      );
      // exit 1 is a gate FAIL: a verdict on the generated set, not a failed run
      if (r.status !== 0 && r.status !== 1)
        throw new Error(`rgate run exited ${r.status}: ${r.stderr.slice(-2000)}`);
      const stages = timed
        ? (JSON.parse(readFileSync(timings, 'utf8').trim()) as { ms: Record<string, number> }).ms
        : {};
      const digest = intervalsDigest(outDir);
      rmSync(outDir, { recursive: true, force: true });
      return { wall: r.ms, stages, digest };
    };
    const untimed = runOnce(0, false);
    const rows = Array.from({ length: rounds }, (_, i) => runOnce(i + 1, true));
    const same = rows.every((r) => r.digest === untimed.digest);
    const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const med = (stage: string) => Math.round(median(rows.map((r) => r.stages[stage] ?? 0)));
    const shareRun = rows.map((r) => r.stages.bootstrap! / r.wall);
    const shareMeasure = rows.map((r) => r.stages.bootstrap! / r.stages.measure!);
    // rgate's own part of the run: everything but waiting for the system under test (an upper bound
    // for a system that answers instantly, or for `rgate merge` of shards, which replays nothing)
    const shareOwn = rows.map((r) => r.stages.bootstrap! / (r.wall - r.stages.replay!));
    const figures: BenchResult['figures'] = {
      queries,
      records: RECORDS,
      replays,
      rounds,
      run_wall_ms_median: Math.round(median(rows.map((r) => r.wall))),
      untimed_run_wall_ms: Math.round(untimed.wall),
      prepare_ms_median: med('prepare'),
      replay_ms_median: med('replay'),
      read_ms_median: med('read'),
      measure_ms_median: med('measure'),
      bootstrap_ms_median: med('bootstrap'),
      report_ms_median: med('report'),
      store_ms_median: med('store'),
      render_ms_median: med('render'),
      bootstrap_share_of_run_median: Number(median(shareRun).toFixed(3)),
      bootstrap_share_of_run_samples: JSON.stringify(shareRun.map((x) => Number(x.toFixed(3)))),
      bootstrap_share_of_measure_median: Number(median(shareMeasure).toFixed(3)),
      bootstrap_share_of_run_without_replay_median: Number(median(shareOwn).toFixed(3)),
      intervals_sha256: untimed.digest,
      timed_runs_same_intervals: same,
      load_average_1m: Number(loadavg()[0]!.toFixed(2)),
    };
    const result: BenchResult = {
      name: 'run-bootstrap-share',
      ok: same && (figures.bootstrap_share_of_run_median as number) < 0.1,
      figures,
      goals: {
        bootstrap_share_of_run_median: '< 0.10 of the whole `rgate run` (wall, process start to exit)',
        timed_runs_same_intervals: 'true: RGATE_STAGE_TIMINGS changes no interval',
      },
    };
    process.stdout.write(
      `run bootstrap share: ${figures.bootstrap_share_of_run_median} of the whole run (${figures.bootstrap_ms_median} of ` +
        `${figures.run_wall_ms_median} ms), ${figures.bootstrap_share_of_measure_median} of the measuring stage ` +
        `(${figures.measure_ms_median} ms); replay ${figures.replay_ms_median} ms, render ${figures.render_ms_median} ms; ` +
        `${queries} queries x ${replays} replays, median of ${rounds}; load ${figures.load_average_1m}; ` +
        `intervals ${untimed.digest.slice(0, 12)}${same ? '' : ' (TIMED RUNS DIFFER)'}\n`,
    );
    writeBenchResult('run-bootstrap-share', result);
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  const r = await run();
  process.exitCode = r.ok ? 0 : 1;
}
