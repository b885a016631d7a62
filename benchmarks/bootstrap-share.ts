/**
 * Bootstrap share of `rgate run`'s measuring stage at scale: computeRunMeasures (every gate measure,
 * the ranking measures, per-query outcomes, breakdowns) over a generated 10,000-query run, under the
 * share is the time the call's intervals take (the same sample sizes resampled again, timed apart)
 * over the whole call; "before" resamples them with the closure resampler this replaced, one-row
 * breakdowns included. (The V8 profiler was tried first: it loses the bootstrap frames once they are
 * optimised.) The system under test is not part of it (its time would only shrink the share).
 * `intervals_sha256` digests every interval the call produced, so a faster resampler can be checked
 * to give the same doubles (compare with the figure recorded before the change).
 *
 * Run: npx tsc -p . && node dist/benchmarks/bootstrap-share.js   (BOOTSTRAP_BENCH_QUERIES=2000 for a small run)
 */
import { createHash } from 'node:crypto';
import { loadavg } from 'node:os';
import { createPrng } from '../src/core/prng.js';
import { STATS_DEFAULTS } from '../src/core/defaults.js';
import type { CorpusRecord, MeasureValue, Observation, QueryRecord } from '../src/documents/index.js';
import { computeRunMeasures } from '../src/metrics/index.js';
import { bootstrapMeanCi } from '../src/stats/index.js';
import { isMain, writeBenchResult, type BenchResult } from './_common.js';

const MODES = ['semantic', 'fallback_exact_key', 'fallback_path_priority', 'no_match'] as const;

function generate(queries: number, replays: number, seed: number) {
  const prng = createPrng(seed);
  const corpus: CorpusRecord[] = Array.from({ length: 500 }, (_, i) => ({
    id: `d${i}`,
    source_path: `docs/${i}.md`,
    text: `document ${i}`,
    kind: i % 5 === 0 ? 'canonical' : 'tactical',
    captured_at: '2026-01-01T00:00:00Z',
  }));
  const qs: QueryRecord[] = [];
  const observations: Observation[] = [];
  for (let q = 0; q < queries; q++) {
    const qrels: Record<string, number> = {};
    for (let k = 0; k < 5; k++) qrels[`d${prng.int(500)}`] = prng.int(3);
    // one profile for every query: the profile breakdown has a single row
    qs.push({ query_id: `q${q}`, text: `query ${q}`, profile: 'small', tags: [`t${q % 7}`], qrels });
    const ranked = Array.from({ length: 20 }, (_, r) => {
      const d = prng.int(500);
      return { id: `d${d}`, source_path: `docs/${d}.md`, score: 20 - r + prng.int(3) / 4 };
    });
    const mode = MODES[prng.int(MODES.length)]!;
    for (let r = 1; r <= replays; r++) {
      observations.push({
        query_id: `q${q}`,
        replay: r,
        ok: true,
        selection_mode: mode,
        ...(mode !== 'no_match' ? { selected_id: ranked[0]!.id, source_path: ranked[0]!.source_path } : {}),
        ranked,
        fallback: { triggered: mode.startsWith('fallback') },
        usage: { files: 1, chars: 100, tokens: 25 },
        latency_ms: 5 + prng.int(20),
        contract: { name: 'memory-cli-v1', valid: true, errors: [] },
        fingerprint: `fp${q}`,
      });
    }
  }
  return { queries: qs, corpus, observations };
}

/** The resampler as it was before this benchmark (a closure PRNG over a plain array), for the "before" figure. */
function closureBootstrap(values: readonly number[], seed: number, resamples: number): number {
  const prng = createPrng(seed);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let s = 0;
    for (let i = 0; i < values.length; i++) s += values[prng.int(values.length)] as number;
    means[r] = s / values.length;
  }
  return means.sort()[0]!;
}

/** Every bootstrap interval the call produced, as its sample size (its cost depends on n only). */
function intervalSizes(out: ReturnType<typeof computeRunMeasures>, withOneRow: boolean): number[] {
  const sizes: number[] = [];
  const take = (v: MeasureValue): void => {
    if (v.kind === 'mean' && v.n > 0 && (v.ci95 !== null || withOneRow)) sizes.push(v.n);
  };
  for (const m of out.metrics) take(m.value);
  for (const b of out.breakdowns) {
    for (const row of b.rows)
      for (const v of Object.values(row.metrics))
        if (v.kind === 'mean' && (b.rows.length > 1 || withOneRow)) take(v);
  }
  return sizes;
}

function timeMs(f: () => void): number {
  const t0 = process.hrtime.bigint();
  f();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

export async function run(): Promise<BenchResult> {
  const queries = Number(process.env.BOOTSTRAP_BENCH_QUERIES ?? 10_000);
  const rounds = Number(process.env.BOOTSTRAP_BENCH_ROUNDS ?? 3);
  const input = {
    ...generate(queries, 2, 20261122),
    replays: 2,
    relevanceLevel: 1,
    seed: 20261122,
    rankingMeasures: ['recip_rank', 'ndcg_cut.5', 'P.5', 'map'],
  };
  // per round, interleaved so load changes hit both alike: the whole measuring stage as it is now,
  // then the same intervals again through today's resampler and through the closure one it replaced
  const resamples = STATS_DEFAULTS.resamples;
  const rows: { total: number; now: number; before: number }[] = [];
  let digest = '';
  let draws = 0;
  for (let r = 0; r < rounds; r++) {
    let out!: ReturnType<typeof computeRunMeasures>;
    const total = timeMs(() => (out = computeRunMeasures(input)));
    const rng = createPrng(r + 1);
    const sample = (n: number) => Array.from({ length: n }, () => rng.next());
    const nowSizes = intervalSizes(out, false).map(sample);
    const beforeSizes = intervalSizes(out, true).map(sample);
    const now = timeMs(() => nowSizes.forEach((v, i) => bootstrapMeanCi(v, { seed: i, resamples })));
    const before = timeMs(() => beforeSizes.forEach((v, i) => closureBootstrap(v, i, resamples)));
    rows.push({ total, now, before });
    draws = nowSizes.reduce((acc, v) => acc + v.length, 0) * resamples;
    const intervals = [
      ...out.metrics.map((m) => [m.id, m.value]),
      ...out.breakdowns.map((b) => [b.by, b.rows.map((row) => [row.key, row.metrics])]),
    ];
    digest = createHash('sha256').update(JSON.stringify(intervals)).digest('hex');
  }
  // the stage without its intervals, plus each resampler's cost: today's share, and before this change
  const shareNow = rows.map((x) => x.now / x.total);
  const shareBefore = rows.map((x) => x.before / (x.total - x.now + x.before));
  const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const figures: BenchResult['figures'] = {
    queries,
    rounds,
    measure_wall_ms_median: Math.round(median(rows.map((x) => x.total))),
    bootstrap_ms_median: Math.round(median(rows.map((x) => x.now))),
    bootstrap_share_median: Number(median(shareNow).toFixed(3)),
    draws,
    ns_per_draw: Number(((median(rows.map((x) => x.now)) * 1e6) / draws).toFixed(2)),
    bootstrap_share_samples: JSON.stringify(shareNow.map((x) => Number(x.toFixed(3)))),
    before_bootstrap_ms_median: Math.round(median(rows.map((x) => x.before))),
    before_share_median: Number(median(shareBefore).toFixed(3)),
    before_share_samples: JSON.stringify(shareBefore.map((x) => Number(x.toFixed(3)))),
    intervals_sha256: digest,
    load_average_1m: Number(loadavg()[0]!.toFixed(2)),
  };
  const ok = (figures.bootstrap_share_median as number) < 0.1;
  const result: BenchResult = {
    name: 'bootstrap-share',
    ok,
    figures,
    goals: { bootstrap_share_median: '< 0.10 of the measuring stage' },
  };
  process.stdout.write(
    `bootstrap share: ${figures.bootstrap_share_median} of computeRunMeasures (before: closure resampler, ` +
      `one-row intervals: ${figures.before_share_median}; ${queries} queries, median of ${rounds}; stage ` +
      `${figures.measure_wall_ms_median} ms; load ${figures.load_average_1m}); intervals ${digest.slice(0, 12)}\n`,
  );
  writeBenchResult('bootstrap-share', result);
  return result;
}

if (isMain(import.meta.url)) {
  const r = await run();
  process.exitCode = r.ok ? 0 : 1;
}
