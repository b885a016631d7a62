/**
 * Exact cosine top-k: the vector index (src/engine/vector-index.ts) against the brute force the
 * semantic index ran before it, in the same run, on the same seeded vectors.
 *
 * Data: 100,000 records x 768 dimensions and 10,000 queries (VECTOR_BENCH_RECORDS, _QUERIES, _DIMS
 * to change), L2-normalised vectors with uniform entries from a seeded generator; k = 10 (the
 * engine's K). Contenders:
 *   - brute force: the old loop, one query at a time: every record's cosine as one f64 sum, offered
 *     to the TopK heap in record order;
 *   - index, one query (`topK`, what a request runs), WebAssembly kernel and JavaScript kernel;
 *   - index, batched (`topKMany`, all 10,000 queries), WebAssembly kernel.
 * The brute force over all 10,000 queries would take most of an hour here, so it runs on a seeded
 * sample of VECTOR_BENCH_SAMPLE queries (default 100) and its 10,000-query time is extrapolated
 * (per-query time x 10,000): the result says so. Half of the sample runs before the other contenders
 * and half after, so a change of load during the long batched run weighs on both sides. The one-query contenders run on the same sample;
 * the batched one runs on all queries. Results identical: for every sampled query, the hits of each
 * contender (ids, order, scores bit for bit) equal the brute force's; the run fails otherwise.
 * VECTOR_BENCH_BRUTE_ALL=1 runs the brute force on every query instead (about an hour here) and
 * checks the batched contender's hits on all of them; the one-query contenders keep the sample.
 * Run: npm run build && node dist/benchmarks/vector-topk.js
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { createPrng } from '../src/core/prng.js';
import { TopK } from '../src/engine/top-k.js';
import { useVectorWasm, VectorIndex, type VectorHit } from '../src/engine/vector-index.js';
import { isMain, writeBenchResult, type BenchResult } from './_common.js';

const K = 10;

/** n seeded unit vectors of dims (uniform entries in [-0.5, 0.5), then L2-normalised, as f32) */
function vectors(seed: number, n: number, dims: number): Float32Array[] {
  const rnd = createPrng(seed);
  return Array.from({ length: n }, () => {
    const v = new Float32Array(dims);
    let s = 0;
    for (let i = 0; i < dims; i++) {
      const x = rnd.next() - 0.5;
      v[i] = x;
      s += x * x;
    }
    const inv = 1 / Math.sqrt(s);
    for (let i = 0; i < dims; i++) v[i] = (v[i] as number) * inv;
    return v;
  });
}

/** The semantic index's matrix and brute force as they were before vector-index.ts (same code). */
class BruteForce {
  readonly data: Float32Array;
  readonly norms: Float64Array;
  constructor(
    rows: Float32Array[],
    readonly dims: number,
  ) {
    this.data = new Float32Array(rows.length * dims);
    this.norms = new Float64Array(rows.length);
    rows.forEach((v, d) => {
      let n = 0;
      const base = d * dims;
      for (let i = 0; i < dims; i++) {
        const x = Math.fround(v[i] as number);
        this.data[base + i] = x;
        n += x * x;
      }
      this.norms[d] = Math.sqrt(n);
    });
  }
  private cosine(q: Float32Array, qNorm: number, d: number): number {
    const dn = this.norms[d] as number;
    if (dn === 0 || qNorm === 0) return 0;
    let dot = 0;
    const base = d * this.dims;
    for (let i = 0; i < this.dims; i++) dot += (this.data[base + i] as number) * (q[i] as number);
    return dot / (dn * qNorm);
  }
  topK(q: Float32Array, k: number): VectorHit[] {
    let qn = 0;
    for (let i = 0; i < q.length; i++) qn += (q[i] as number) * (q[i] as number);
    const qNorm = Math.sqrt(qn);
    const heap = new TopK(k);
    for (let d = 0; d < this.norms.length; d++) heap.offer(d, this.cosine(q, qNorm, d));
    return heap.drain();
  }
}

function same(a: VectorHit[], b: VectorHit[]): boolean {
  return a.length === b.length && a.every((h, i) => h.doc === b[i]!.doc && Object.is(h.score, b[i]!.score));
}

function timed<T>(f: () => T): { ms: number; value: T } {
  const t = performance.now();
  const value = f();
  return { ms: performance.now() - t, value };
}

function build(rows: Float32Array[], dims: number, wasm: boolean): VectorIndex {
  useVectorWasm(wasm);
  try {
    const vi = new VectorIndex(rows.length, dims);
    rows.forEach((v, d) => vi.setRow(d, v));
    return vi;
  } finally {
    useVectorWasm(true);
  }
}

export async function run(): Promise<BenchResult> {
  const n = Number(process.env.VECTOR_BENCH_RECORDS ?? 100_000);
  const nq = Number(process.env.VECTOR_BENCH_QUERIES ?? 10_000);
  const dims = Number(process.env.VECTOR_BENCH_DIMS ?? 768);
  const bruteAll = process.env.VECTOR_BENCH_BRUTE_ALL === '1';
  const ns = Math.min(nq, Number(process.env.VECTOR_BENCH_SAMPLE ?? 100));
  const load0 = loadavg()[0] as number;
  const gen = timed(() => ({ rows: vectors(20261126, n, dims), queries: vectors(1126, nq, dims) }));
  const { rows, queries } = gen.value;
  // the sample: every (nq / ns)-th query from a seeded offset, so it spreads over the whole set
  const step = nq / ns;
  const offset = createPrng(25).next() * step;
  const sample = Array.from({ length: ns }, (_, i) => Math.floor(offset + i * step));

  const brute = new BruteForce(rows, dims);
  const wasm = timed(() => build(rows, dims, true));
  const js = build(rows, dims, false);
  // warm-up: every contender compiled before it is timed
  for (const q of queries.slice(0, 2)) {
    brute.topK(q, K);
    wasm.value.topK(q, K);
    js.topK(q, K);
  }
  wasm.value.topKMany(queries.slice(0, 40), K);

  // the brute force's sample in two halves, one before the other contenders and one after, so that
  // a change of load on this shared machine during the long batched run weighs on both sides
  // with VECTOR_BENCH_BRUTE_ALL, the brute force's "sample" is every query (in the same two halves)
  const refQueries = bruteAll ? queries.map((_, j) => j) : sample;
  const nr = refQueries.length;
  const half = Math.ceil(nr / 2);
  const progress = (done: number): void => {
    if (bruteAll && done % 500 === 0) process.stderr.write(`brute force: ${done}/${nr} queries\n`);
  };
  let bruteDone = 0;
  const bruteOne = (j: number): VectorHit[] => {
    const hits = brute.topK(queries[j]!, K);
    progress(++bruteDone);
    return hits;
  };
  const refA = timed(() => refQueries.slice(0, half).map(bruteOne));
  const one = timed(() => sample.map((j) => wasm.value.topK(queries[j]!, K)));
  const oneJs = timed(() => sample.map((j) => js.topK(queries[j]!, K)));
  const many = timed(() => wasm.value.topKMany(queries, K));
  const refB = timed(() => refQueries.slice(half).map(bruteOne));
  const refAll = [...refA.value, ...refB.value];
  const ref = { ms: refA.ms + refB.ms, value: bruteAll ? sample.map((j) => refAll[j]!) : refAll };

  const identical = {
    one: sample.every((j, i) => same(one.value[i]!, ref.value[i]!)),
    one_js: sample.every((j, i) => same(oneJs.value[i]!, ref.value[i]!)),
    many: refQueries.every((j, i) => same(many.value[j]!, refAll[i]!)),
  };
  const perQuery = (ms: number, count: number): number => ms / count;
  const bruteMsQ = perQuery(ref.ms, nr);
  const bruteAllS = (bruteMsQ * nq) / 1000;
  const r3 = (x: number): number => Number(x.toFixed(3));
  const figures: BenchResult['figures'] = {
    records: n,
    queries: nq,
    dims,
    k: K,
    kernel: wasm.value.kernel,
    brute_sample_queries: nr,
    brute_ms_per_query: r3(bruteMsQ),
    brute_ms_per_query_before: r3(refA.ms / half),
    brute_ms_per_query_after: nr > half ? r3(refB.ms / (nr - half)) : null,
    [bruteAll ? 'brute_all_queries_s' : 'brute_all_queries_s_extrapolated']: r3(bruteAllS),
    index_build_ms: r3(wasm.ms),
    one_ms_per_query: r3(perQuery(one.ms, ns)),
    one_js_ms_per_query: r3(perQuery(oneJs.ms, ns)),
    many_all_queries_s: r3(many.ms / 1000),
    many_ms_per_query: r3(perQuery(many.ms, nq)),
    speedup_one: r3(bruteMsQ / perQuery(one.ms, ns)),
    speedup_one_js: r3(bruteMsQ / perQuery(oneJs.ms, ns)),
    speedup_many: r3(bruteMsQ / perQuery(many.ms, nq)),
    identical_one: identical.one,
    identical_one_js: identical.one_js,
    identical_many: identical.many,
    identical_checked_queries: ns,
    identical_many_checked_queries: nr,
    extrapolated: bruteAll
      ? `brute force run on all ${nq} queries (half before the other contenders, half after), the batched hits checked on every one; the one-query contenders on ${ns} sampled queries`
      : `brute force timed on ${ns} of ${nq} queries (every ${step.toFixed(0)}th from a seeded offset; half before the other contenders, half after); its ${nq}-query time is per-query time x ${nq}`,
    load_average_1m_start: r3(load0),
    load_average_1m_end: r3(loadavg()[0] as number),
    node: process.version,
    command: `npm run build && ${bruteAll ? 'VECTOR_BENCH_BRUTE_ALL=1 ' : ''}node dist/benchmarks/vector-topk.js`,
  };
  const ok = identical.one && identical.one_js && identical.many;
  process.stdout.write(
    `${n} records x ${dims} dims, ${nq} queries, k ${K} (vectors generated in ${(gen.ms / 1000).toFixed(1)} s)\n` +
      `  brute force (old loop)         ${bruteMsQ.toFixed(1)} ms/query on ${nr} queries; ${nq} queries${bruteAll ? '' : ' extrapolated'}: ${bruteAllS.toFixed(0)} s\n` +
      `  index, one query, wasm         ${figures.one_ms_per_query} ms/query  (${figures.speedup_one}x)\n` +
      `  index, one query, js kernel    ${figures.one_js_ms_per_query} ms/query  (${figures.speedup_one_js}x)\n` +
      `  index, batched, all ${nq}     ${figures.many_all_queries_s} s, ${figures.many_ms_per_query} ms/query  (${figures.speedup_many}x)\n` +
      `  identical to the brute force: one ${identical.one}, js ${identical.one_js} (${ns} sampled queries), batched ${identical.many} (${nr} queries)\n` +
      `  ${ok ? 'OK' : 'RESULTS DIFFER'}\n`,
  );
  const result: BenchResult = {
    name: 'vector-topk',
    ok,
    figures,
    goals: {
      identical: `ids, order and scores (bit for bit) equal to the brute force on every checked query (batched: ${nr}, one query: ${ns})`,
      speed: 'reported as ratios to the brute force measured in the same run, no goal',
    },
  };
  writeBenchResult('vector-topk', result);
  return result;
}

if (isMain(import.meta.url)) {
  const r = await run();
  process.exitCode = r.ok ? 0 : 1;
}
