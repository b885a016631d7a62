import { afterEach, describe, expect, it } from 'vitest';
import { createPrng, type Prng } from '../core/prng.js';
import { VECTOR_DOTS_WASM } from './vector-dots-wasm.js';
import { useVectorWasm, VectorIndex, type VectorFilter, type VectorHit } from './vector-index.js';
import { hitsOf, newJob, runTile, unfinishedTiles } from './vector-threads.js';
import type { PassArea, PassIndex } from './vector-two-pass.js';

/**
 * The reference: the semantic index's brute force as it was before the vector index (every record's
 * cosine by the plain loop, f64 sums in element order), ranked by a full sort under the engine's
 * total order (cosine desc, record asc) instead of a heap.
 */
function reference(
  rows: ArrayLike<number>[],
  dims: number,
): (q: Float32Array, k: number, f: VectorFilter) => VectorHit[] {
  const matrix = rows.map((v) => {
    const row = new Float32Array(dims);
    let n = 0;
    for (let i = 0; i < dims; i++) {
      const x = Math.fround(v[i] as number);
      row[i] = x;
      n += x * x;
    }
    return { row, norm: Math.sqrt(n) };
  });
  return (q, k, f) => {
    let qn = 0;
    for (let i = 0; i < dims; i++) qn += (q[i] as number) * (q[i] as number);
    const qNorm = Math.sqrt(qn);
    const all: VectorHit[] = [];
    matrix.forEach(({ row, norm }, d) => {
      let score = 0;
      if (norm !== 0 && qNorm !== 0) {
        let dot = 0;
        for (let i = 0; i < dims; i++) dot += (row[i] as number) * (q[i] as number);
        score = dot / (norm * qNorm);
      }
      if (f.exclude?.[d] === 1 || (f.positiveOnly && !(score > 0))) return;
      all.push({ doc: d, score });
    });
    return all.sort((a, b) => b.score - a.score || a.doc - b.doc).slice(0, Math.max(0, k));
  };
}

/** A value of one of several kinds, so that sums round differently and scores tie often. */
function value(rnd: Prng, kind: number): number {
  switch (kind) {
    case 0: // coarse: many exact ties between records
      return (rnd.int(5) - 2) / 2;
    case 1: // f64 values f32 cannot hold: the rounding at setRow matters
      return (rnd.next() - 0.5) * 2 ** (rnd.int(40) - 20);
    case 2: // sparse, like the hashed embedder's buckets
      return rnd.next() < 0.9 ? 0 : rnd.next() - 0.5;
    default: // tiny and huge magnitudes (f32 subnormals, wide exponent range)
      return (rnd.next() - 0.5) * 10 ** (rnd.int(80) - 45);
  }
}

interface Case {
  dims: number;
  rows: number[][];
  queries: Float32Array[];
  k: number;
  filter: VectorFilter;
}

function randomCase(seed: number): Case {
  const rnd = createPrng(seed);
  const dims = [1, 3, 4, 7, 16, 33, 768][rnd.int(7)] as number;
  const count = [0, 1, 2, 5, 9, 64, 1030, 1100][rnd.int(8)] as number;
  const kind = rnd.int(4);
  const distinct = Array.from({ length: Math.max(1, count >> 1) }, () =>
    Array.from({ length: dims }, () => value(rnd, kind)),
  );
  // duplicates (exact ties), zero rows (cosine 0) and fresh rows
  const rows = Array.from({ length: count }, () => {
    const r = rnd.next();
    if (r < 0.15) return distinct[rnd.int(distinct.length)] as number[];
    if (r < 0.2) return new Array<number>(dims).fill(0);
    return Array.from({ length: dims }, () => value(rnd, kind));
  });
  const queries = Array.from({ length: rnd.int(41) }, () => {
    const r = rnd.next();
    if (r < 0.05) return new Float32Array(dims);
    if (r < 0.2 && rows.length > 0) return Float32Array.from(rows[rnd.int(rows.length)] as number[]);
    return Float32Array.from({ length: dims }, () => value(rnd, kind));
  });
  const exclude = new Uint8Array(count);
  const withheld = rnd.next() < 0.5;
  if (withheld) for (let d = 0; d < count; d++) exclude[d] = rnd.next() < 0.1 ? 1 : 0;
  return {
    dims,
    rows,
    queries,
    k: [0, 1, 10, 15, 100, 5000][rnd.int(6)] as number,
    filter: { ...(withheld ? { exclude } : {}), ...(rnd.next() < 0.5 ? { positiveOnly: true } : {}) },
  };
}

/** ids, order and scores, the scores as bit patterns (Object.is tells -0 and NaN apart) */
function expectSame(actual: VectorHit[], expected: VectorHit[]): void {
  expect(actual.map((h) => h.doc)).toEqual(expected.map((h) => h.doc));
  const differ = actual.filter((h, i) => !Object.is(h.score, expected[i]!.score));
  expect(differ).toEqual([]);
}

function build(rows: number[][], dims: number): VectorIndex {
  const vi = new VectorIndex(rows.length, dims);
  rows.forEach((r, d) => vi.setRow(d, r));
  return vi;
}

afterEach(() => useVectorWasm(true));

describe('VectorIndex', () => {
  for (const kernel of ['wasm', 'js'] as const) {
    it(`${kernel} kernel: topK and topKMany equal the reference brute force on 60 seeded corpora`, () => {
      useVectorWasm(kernel === 'wasm');
      let checked = 0;
      for (let seed = 1; seed <= 60; seed++) {
        const c = randomCase(seed * 7919);
        const vi = build(c.rows, c.dims);
        const brute = reference(c.rows, c.dims);
        expect(vi.kernel).toBe(kernel);
        const many = vi.topKMany(c.queries, c.k, c.filter);
        expect(many.length).toBe(c.queries.length);
        c.queries.forEach((q, j) => {
          const want = brute(q, c.k, c.filter);
          expectSame(vi.topK(q, c.k, c.filter), want);
          expectSame(many[j]!, want);
          checked += want.length;
        });
      }
      expect(checked).toBeGreaterThan(10_000);
    });
  }

  it('scores one record as topK does (cosine, the lookup the engine uses for fused candidates)', () => {
    let checked = 0;
    for (let seed = 1; seed <= 10; seed++) {
      const c = randomCase(seed);
      const vi = build(c.rows, c.dims);
      for (const q of c.queries) {
        const qn = VectorIndex.norm(q);
        const hits = vi.topK(q, 20);
        expect(hits.filter((h) => !Object.is(vi.cosine(q, qn, h.doc), h.score))).toEqual([]);
        checked += hits.length;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('breaks exact ties by record number, in one query and across chunk and tile edges', () => {
    const dims = 8;
    const rows = Array.from({ length: 3000 }, (_, d) =>
      d % 1000 === 7 ? [1, 0, 0, 0, 0, 0, 0, 0] : [0, 1, 0, 0, 0, 0, 0, 0],
    );
    const vi = build(rows, dims);
    const q = Float32Array.from([1, 0, 0, 0, 0, 0, 0, 0]);
    expect(vi.topK(q, 4).map((h) => [h.doc, h.score])).toEqual([
      [7, 1],
      [1007, 1],
      [2007, 1],
      [0, 0],
    ]);
    const many = vi.topKMany(
      Array.from({ length: 40 }, () => q),
      4,
    );
    for (const hits of many) expect(hits).toEqual(vi.topK(q, 4));
  });

  it('topKMany in two passes: records closer to the k-th best than the f32 error, every tile and chunk edge, values out of f32 range', () => {
    const rnd = createPrng(42);
    const dims = 384;
    const base = Array.from({ length: dims }, () => rnd.next() - 0.5);
    // 2,050 records (three chunks, not a multiple of 4), their cosines to a query within about 1e-6
    // of one another: the approximate pass cannot order them, only the exact one can
    const rows = Array.from({ length: 2050 }, (_, d) =>
      d % 97 === 5
        ? base.map((x, i) => (i === 0 ? 1e-20 : x)) // a value below 2^-50: scored exactly always
        : base.map((x) => x * (1 + (rnd.next() - 0.5) * 1e-6)),
    );
    // 70 queries (two tiles, the second not a multiple of 8), one with a value above 2^50
    const queries = Array.from({ length: 70 }, (_, j) =>
      Float32Array.from(base.map((x, i) => (j === 3 && i === 1 ? 1e30 : x + (rnd.next() - 0.5) * 1e-3))),
    );
    const vi = build(rows, dims);
    const brute = reference(rows, dims);
    const exclude = new Uint8Array(rows.length).map((_, d) => (d % 11 === 0 ? 1 : 0));
    for (const filter of [{}, { exclude }, { positiveOnly: true }] as VectorFilter[])
      for (const k of [1, 10, 100]) {
        const many = vi.topKMany(queries, k, filter);
        queries.forEach((q, j) => expectSame(many[j]!, brute(q, k, filter)));
      }
  });

  it('a batch shared with workers: the tiles a worker left unfinished are found and run again, the same hits', () => {
    const rnd = createPrng(11);
    const dims = 16;
    const rows = Array.from({ length: 300 }, () => Array.from({ length: dims }, () => rnd.next() - 0.5));
    const queries = Array.from({ length: 64 * 3 + 7 }, () =>
      Float32Array.from({ length: dims }, () => rnd.next() - 0.5),
    );
    const vi = build(rows, dims);
    const pass = (vi as unknown as { pass: { ix: PassIndex; area: PassArea } }).pass;
    const job = newJob(queries, dims, 5, {}, [], 1);
    // a worker that ran tile 1 and died inside tile 2 (its first queries written, not the rest)
    runTile(pass.ix, pass.area, job, 1);
    runTile(pass.ix, pass.area, job, 2);
    for (let q = 2 * 64 + 3; q < 3 * 64; q++) job.counts[q] = -1;
    expect(unfinishedTiles(job)).toEqual([0, 2, 3]);
    for (const t of unfinishedTiles(job)) runTile(pass.ix, pass.area, job, t);
    expect(unfinishedTiles(job)).toEqual([]);
    const brute = reference(rows, dims);
    hitsOf(job).forEach((hits, j) => expectSame(hits, brute(queries[j]!, 5, {})));
  });

  it('rejects a query of the wrong dimension', () => {
    const vi = build([[1, 2, 3]], 3);
    expect(() => vi.topK(new Float32Array(2), 1)).toThrow(/2 dimensions, the index 3/);
  });

  it('is the assembled vector-dots.wat (node scripts/build-wasm.mjs after editing it)', async () => {
    // @ts-expect-error a build script, plain JavaScript
    const { assembleVectorDots } = await import('../../scripts/build-wasm.mjs');
    const bytes = (await assembleVectorDots()) as Buffer;
    expect(bytes.toString('base64')).toBe(VECTOR_DOTS_WASM);
  });
});
