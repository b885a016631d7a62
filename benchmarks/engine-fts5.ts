/**
 * Engine speed and exactness beside SQLite FTS5 `bm25()` (better-sqlite3), in the same process and run.
 *
 * Corpora are generated with the seeded PRNG (src/core/prng.ts): a 50,000-word vocabulary with Zipf
 * (s = 1) word frequencies, document lengths uniform in 100..200 (mean 150), ids `d0000001`.. so that
 * id order = FTS5 rowid order. Both systems get the same pre-analysed text (lowercase ASCII words
 * joined by spaces): FTS5 with its `ascii` tokenizer, the engine with every analyzer stage off and its
 * BM25 in `fts5` mode (k1 = 1.2, b = 0.75, idf = ln((N - df + 0.5)/(df + 0.5)) with FTS5's 1e-6 floor,
 * FTS5's per-term operation order), so scores agree to a few ulps (the engine sums a document's terms
 * rarest first, FTS5 in query order; max |diff| is printed) and the top-10 lists must be identical.
 * FTS5 ties are made total with `ORDER BY bm25(t), rowid` (the engine's id-asc tie-break).
 * Queries: 1000 per size, 1-4 distinct words drawn from the same Zipf distribution after skipping
 * the 10 most frequent words (the stopwords of a real analyzer), OR-ed, top-10.
 *
 * Times are CPU time (user + system) of this process, not wall time (see cpuMs); SQLite runs on the
 * main thread, V8's GC and compiler helper threads count against the engine.
 * Figures: build time ratio (engine / FTS5; goal <= 0.85), query throughput ratio (engine q/s over
 * FTS5 q/s; goals >= 20 at 5k docs, >= 50 at 100k), index memory scaled to 15M tokens (typed arrays
 * plus a vocabulary estimate; goal <= 100 MB), and top-10 agreement (goal: every query identical).
 *
 * Each build and query pass is repeated 3 times below 50k documents and the fastest kept (both systems).
 * Forced GCs happen only around one extra, untimed build used for the memory figure.
 * Both systems are first warmed up on a separate 2,000-document corpus with 5,000 queries (timings
 * discarded), and each size's query set is run twice with only the second pass measured, so the
 * figures compare steady-state code (JIT-compiled engine, warm SQLite page cache).
 *
 * Run: npx tsc -p . && node --expose-gc dist/benchmarks/engine-fts5.js
 * Small run while developing: ENGINE_BENCH_SIZES=2000 ENGINE_BENCH_QUERIES=200 node dist/benchmarks/engine-fts5.js
 */
import Database from 'better-sqlite3';
import { resolveConfig } from '../src/core/resolve-config.js';
import { createPrng, type Prng } from '../src/core/prng.js';
import type { CorpusRecord } from '../src/documents/index.js';
import { createEngine, type Engine } from '../src/engine/index.js';
import { isMain, writeBenchResult, type BenchResult } from './_common.js';

const VOCAB = 50_000;

/**
 * Milliseconds of CPU time (user + system) this process used since `since`. The machines running
 * this are shared, so wall time mostly measures the neighbours; both systems run synchronously on
 * this thread (better-sqlite3 calls SQLite in-process), so CPU time compares like with like.
 */
function cpuMs(since?: NodeJS.CpuUsage): number {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1000;
}
const SKIP_TOP = 10;
const TOKENS_REF = 15_000_000;

function zipfCdf(n: number, s: number): Float64Array {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let r = 1; r <= n; r++) {
    sum += 1 / Math.pow(r, s);
    cdf[r - 1] = sum;
  }
  for (let i = 0; i < n; i++) cdf[i] = (cdf[i] as number) / sum;
  return cdf;
}

function sampleRank(cdf: Float64Array, prng: Prng): number {
  const u = prng.next();
  let lo = 0;
  let hi = cdf.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((cdf[mid] as number) < u) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** word for a frequency rank: short for frequent ranks, lowercase alphanumerics only */
function word(rank: number): string {
  return 'w' + rank.toString(36);
}

function generate(
  docs: number,
  queries: number,
  seed: number,
): { texts: string[]; tokens: number; queries: string[] } {
  const prng = createPrng(seed);
  const cdf = zipfCdf(VOCAB, 1.0);
  const words = Array.from({ length: VOCAB }, (_, r) => word(r));
  const texts: string[] = [];
  let tokens = 0;
  for (let d = 0; d < docs; d++) {
    const len = 100 + prng.int(101);
    const parts = new Array<string>(len);
    for (let i = 0; i < len; i++) parts[i] = words[sampleRank(cdf, prng)] as string;
    texts.push(parts.join(' '));
    tokens += len;
  }
  const qs: string[] = [];
  for (let q = 0; q < queries; q++) {
    const n = 1 + prng.int(4);
    const terms = new Set<string>();
    while (terms.size < n) {
      const r = sampleRank(cdf, prng);
      if (r >= SKIP_TOP) terms.add(words[r] as string);
    }
    qs.push([...terms].join(' '));
  }
  return { texts, tokens, queries: qs };
}

interface SizeFigures {
  docs: number;
  tokens: number;
  fts5_build_ms: number;
  engine_build_ms: number;
  build_ratio: number;
  fts5_qps: number;
  engine_qps: number;
  throughput_ratio: number;
  identical_top10: number;
  queries: number;
  score_max_abs_diff: number;
  index_bytes: number;
  index_mb_per_15m_tokens: number;
  heap_mb_per_15m_tokens: number | null;
  mismatches: string[];
}

/** Full GC twice with a pause between: ArrayBuffer backing stores are released only after the second. */
async function gc(): Promise<void> {
  const g = (globalThis as { gc?: () => void }).gc;
  if (!g) return;
  g();
  await new Promise((r) => setTimeout(r, 50));
  g();
}

async function measureSize(docs: number, nQueries: number, seed: number): Promise<SizeFigures> {
  const { texts, tokens, queries } = generate(docs, nQueries, seed);
  const ids = texts.map((_, i) => 'd' + String(i + 1).padStart(7, '0'));

  // Each measurement is repeated `reps` times (fresh index / same query pass) and the fastest kept:
  // on a shared machine the minimum is the least disturbed estimate, for both systems alike.
  const reps = docs >= 50_000 ? 1 : 3;

  // ---- FTS5
  let fts5BuildMs = Infinity;
  let db!: Database.Database;
  for (let r = 0; r < reps; r++) {
    if (db) db.close();
    db = new Database(':memory:');
    db.exec("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='ascii')");
    const ins = db.prepare('INSERT INTO t(rowid, body) VALUES (?, ?)');
    const f0 = process.cpuUsage();
    db.transaction(() => {
      for (let i = 0; i < texts.length; i++) ins.run(i + 1, texts[i]);
    })();
    fts5BuildMs = Math.min(fts5BuildMs, cpuMs(f0));
  }
  const sel = db.prepare(
    'SELECT rowid AS r, bm25(t) AS s FROM t WHERE t MATCH ? ORDER BY bm25(t), rowid LIMIT 10',
  );
  const ftsMatch = queries.map((q) =>
    q
      .split(' ')
      .map((w) => `"${w}"`)
      .join(' OR '),
  );
  let ftsResults: { r: number; s: number }[][] = [];
  for (const m of ftsMatch) sel.all(m); // first pass warms the page cache; the next ones are measured
  let fts5QueryMs = Infinity;
  for (let r = 0; r < reps; r++) {
    const pass: { r: number; s: number }[][] = [];
    const f1 = process.cpuUsage();
    for (const m of ftsMatch) pass.push(sel.all(m) as { r: number; s: number }[]);
    fts5QueryMs = Math.min(fts5QueryMs, cpuMs(f1));
    ftsResults = pass;
  }
  db.close();

  // ---- engine, same text
  const records: CorpusRecord[] = texts.map((text, i) => ({
    id: ids[i] as string,
    source_path: `gen/${ids[i]}.txt`,
    text,
    kind: 'tactical',
    captured_at: '2026-01-01T00:00:00Z',
  }));
  const config = resolveConfig({
    mode: 'bm25',
    bm25: { k1: 1.2, b: 0.75, formula: 'fts5', length_norm: 'exact' },
    analyzer: { lowercase: false, stopwords: false, stemmer: 'none' },
  });
  let engineBuildMs = Infinity;
  let engine!: Engine;
  for (let r = 0; r < reps; r++) {
    const e0 = process.cpuUsage();
    engine = createEngine(records, config);
    engineBuildMs = Math.min(engineBuildMs, cpuMs(e0));
  }
  // memory: one more build between full collections (not timed: forced GCs would disturb the timing)
  engine = undefined as unknown as Engine;
  await gc();
  const heap0 = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  engine = createEngine(records, config);
  await gc();
  const heapDelta = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers - heap0;
  for (const q of queries) engine.search(q, 10); // same first, unmeasured pass as FTS5
  let ours: { id: string; score: number }[][] = [];
  let engineQueryMs = Infinity;
  for (let r = 0; r < reps; r++) {
    const pass: { id: string; score: number }[][] = [];
    const e1 = process.cpuUsage();
    for (const q of queries) pass.push(engine.search(q, 10));
    engineQueryMs = Math.min(engineQueryMs, cpuMs(e1));
    ours = pass;
  }

  let identical = 0;
  let maxDiff = 0;
  const mismatches: string[] = [];
  for (let i = 0; i < queries.length; i++) {
    const a = (ftsResults[i] as { r: number; s: number }[]).map((x) => ids[x.r - 1] as string);
    const b = (ours[i] as { id: string }[]).map((x) => x.id);
    if (a.length === b.length && a.every((id, j) => id === b[j])) identical++;
    else if (mismatches.length < 5)
      mismatches.push(`q${i} "${queries[i]}": fts5 ${a.join(',')} | engine ${b.join(',')}`);
    (ftsResults[i] as { s: number }[]).forEach((x, j) => {
      const o = ours[i]?.[j];
      if (o) maxDiff = Math.max(maxDiff, Math.abs(-x.s - o.score));
    });
  }
  const stats = engine.stats();
  const indexBytes = stats.array_bytes + stats.vocabulary_bytes_estimate;
  const scale = TOKENS_REF / tokens;
  return {
    docs,
    tokens,
    fts5_build_ms: Math.round(fts5BuildMs),
    engine_build_ms: Math.round(engineBuildMs),
    build_ratio: Number((engineBuildMs / fts5BuildMs).toFixed(3)),
    fts5_qps: Math.round((queries.length / fts5QueryMs) * 1000),
    engine_qps: Math.round((queries.length / engineQueryMs) * 1000),
    throughput_ratio: Number((fts5QueryMs / engineQueryMs).toFixed(1)),
    identical_top10: identical,
    queries: queries.length,
    score_max_abs_diff: maxDiff,
    index_bytes: indexBytes,
    index_mb_per_15m_tokens: Number(((indexBytes * scale) / 1e6).toFixed(1)),
    heap_mb_per_15m_tokens: (globalThis as { gc?: unknown }).gc
      ? Number(((heapDelta * scale) / 1e6).toFixed(1))
      : null,
    mismatches,
  };
}

export async function run(): Promise<BenchResult> {
  const sizes = (process.env.ENGINE_BENCH_SIZES ?? '5000,100000').split(',').map(Number);
  const nQueries = Number(process.env.ENGINE_BENCH_QUERIES ?? 1000);
  const figures: BenchResult['figures'] = {
    vocabulary: VOCAB,
    zipf_s: 1,
    doc_length: '100..200 uniform',
    queries: nQueries,
  };
  let ok = true;
  // warm-up on a small corpus (JIT for the engine, page cache and allocator for SQLite); discarded
  await measureSize(2000, 5000, 1);
  for (const docs of sizes) {
    const f = await measureSize(docs, nQueries, 20261122 + docs);
    const throughputGoal = docs >= 100_000 ? 50 : 20;
    // memory is judged where the corpus really holds ~15M tokens; smaller sizes scale fixed costs up
    const memoryJudged = f.tokens >= 10_000_000;
    const pass =
      f.identical_top10 === f.queries &&
      f.build_ratio <= 0.85 &&
      f.throughput_ratio >= throughputGoal &&
      (!memoryJudged || f.index_mb_per_15m_tokens <= 100);
    ok &&= pass;
    for (const [k, v] of Object.entries(f)) figures[`${docs}_${k}`] = Array.isArray(v) ? v.join(' ; ') : v;
    process.stdout.write(
      `${docs} docs (${f.tokens} tokens): top-10 identical ${f.identical_top10}/${f.queries} (max |score diff| ${f.score_max_abs_diff})\n` +
        `  build  engine ${f.engine_build_ms} ms vs FTS5 ${f.fts5_build_ms} ms -> ratio ${f.build_ratio}x (goal <= 0.85)\n` +
        `  query  engine ${f.engine_qps} q/s vs FTS5 ${f.fts5_qps} q/s -> ${f.throughput_ratio}x (goal >= ${throughputGoal})\n` +
        `  memory index ${(f.index_bytes / 1e6).toFixed(1)} MB = ${f.index_mb_per_15m_tokens} MB per 15M tokens (heap-measured ${f.heap_mb_per_15m_tokens ?? 'n/a, run with --expose-gc'}; goal <= 100${memoryJudged ? '' : ', judged only at ~15M tokens'})\n` +
        `  ${pass ? 'OK' : 'MISSED'}\n` +
        f.mismatches.map((m) => `  mismatch ${m}\n`).join(''),
    );
  }
  const goals = {
    top10: 'identical to FTS5 for every query',
    build_ratio: '<= 0.85',
    throughput_ratio: '>= 20 at 5k docs, >= 50 at 100k',
    index_mb_per_15m_tokens: '<= 100',
  };
  const result: BenchResult = { name: 'engine-fts5', ok, figures, goals };
  writeBenchResult('engine-fts5', result);
  return result;
}

if (isMain(import.meta.url)) {
  const r = await run();
  process.exitCode = r.ok ? 0 : 1;
}
