/**
 * Bootstrap share of `rgate run`'s measuring stage at scale: computeRunMeasures (every gate measure,
 * the ranking measures, per-query outcomes, breakdowns) over a generated 10,000-query run, under the
 * V8 CPU profiler; the share is the profile's time inside src/stats/bootstrap.js over the whole call.
 * The system under test is not part of it (its time would only shrink the share). Goal: < 10%.
 * `intervals_sha256` digests every interval the call produced, so a faster resampler can be checked
 * to give the same doubles (compare with the figure recorded before the change).
 *
 * Run: npx tsc -p . && node dist/benchmarks/bootstrap-share.js   (BOOTSTRAP_BENCH_QUERIES=2000 for a small run)
 */
import { createHash } from 'node:crypto';
import { Session } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import { createPrng } from '../src/core/prng.js';
import type { CorpusRecord, Observation, QueryRecord } from '../src/documents/index.js';
import { computeRunMeasures } from '../src/metrics/index.js';
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

interface ProfileNode {
  id: number;
  callFrame: { url: string; functionName: string };
  children?: number[];
}

/** Milliseconds of the profile spent inside (or below) functions of a file whose url ends with `file`. */
function timeUnder(profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }, file: string) {
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const inside = new Map<number, boolean>();
  const isInside = (id: number): boolean => {
    const known = inside.get(id);
    if (known !== undefined) return known;
    const n = byId.get(id)!;
    const p = parent.get(id);
    const v = n.callFrame.url.endsWith(file) || (p !== undefined && isInside(p));
    inside.set(id, v);
    return v;
  };
  let under = 0;
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    total += dt;
    if (isInside(id)) under += dt;
  });
  return { underMs: under / 1000, totalMs: total / 1000 };
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
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  const shares: number[] = [];
  const walls: number[] = [];
  let digest = '';
  for (let r = 0; r < rounds; r++) {
    await session.post('Profiler.start');
    const t0 = process.hrtime.bigint();
    const out = computeRunMeasures(input);
    const wall = Number(process.hrtime.bigint() - t0) / 1e6;
    const { profile } = await session.post('Profiler.stop');
    const t = timeUnder(profile as never, 'stats/bootstrap.js');
    shares.push(t.underMs / t.totalMs);
    walls.push(wall);
    const intervals = [
      ...out.metrics.map((m) => [m.id, m.value]),
      ...out.breakdowns.map((b) => [b.by, b.rows.map((row) => [row.key, row.metrics])]),
    ];
    digest = createHash('sha256').update(JSON.stringify(intervals)).digest('hex');
  }
  session.disconnect();
  const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const figures: BenchResult['figures'] = {
    queries,
    rounds,
    measure_wall_ms_median: Math.round(median(walls)),
    bootstrap_share_median: Number(median(shares).toFixed(3)),
    bootstrap_share_samples: JSON.stringify(shares.map((s) => Number(s.toFixed(3)))),
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
    `bootstrap share: ${figures.bootstrap_share_median} of computeRunMeasures (${queries} queries, median of ` +
      `${rounds}; ${figures.measure_wall_ms_median} ms under the profiler; load ${figures.load_average_1m}); ` +
      `intervals ${digest.slice(0, 12)}\n`,
  );
  writeBenchResult('bootstrap-share', result);
  return result;
}

if (isMain(import.meta.url)) {
  const r = await run();
  process.exitCode = r.ok ? 0 : 1;
}
