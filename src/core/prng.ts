/**
 * Seeded PRNG (sfc32, seeded through splitmix32) so every shuffle, bootstrap and randomization test
 * is reproducible from a recorded seed. Math.random is banned by lint.
 */
import { fnv1a } from './fnv1a.js';

export interface Prng {
  /** uniform in [0, 1) */
  next(): number;
  /** uniform integer in [0, n) */
  int(n: number): number;
}

/**
 * The generator's four state words after seeding and warm-up, for a hot loop that steps sfc32 inline
 * (the bootstrap): stepping them as next32 below does yields exactly createPrng(seed)'s numbers.
 */
export function prngState(seed: number): [number, number, number, number] {
  const p = seeded(seed);
  return [p.a, p.b, p.c, p.d];
}

function seeded(seed: number): { a: number; b: number; c: number; d: number } {
  let s = seed >>> 0;
  const split = (): number => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  const st = { a: split(), b: split(), c: split(), d: split() };
  for (let i = 0; i < 12; i++) {
    const t = (((st.a + st.b) >>> 0) + st.d) >>> 0;
    st.d = (st.d + 1) >>> 0;
    st.a = st.b ^ (st.b >>> 9);
    st.b = (st.c + (st.c << 3)) >>> 0;
    st.c = ((st.c << 21) | (st.c >>> 11)) >>> 0;
    st.c = (st.c + t) >>> 0;
  }
  return st;
}

export function createPrng(seed: number): Prng {
  let { a, b, c, d } = seeded(seed);
  const next32 = (): number => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t >>> 0;
  };
  return {
    next: () => next32() / 4294967296,
    int: (n: number) => Math.floor((next32() / 4294967296) * n),
  };
}

/** Fisher–Yates shuffle of a copy. */
export function shuffled<T>(items: readonly T[], prng: Prng): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = prng.int(i + 1);
    const tmp = out[i] as T;
    out[i] = out[j] as T;
    out[j] = tmp;
  }
  return out;
}

/** Derive a sub-seed from a seed and a label, so independent streams do not share state. */
export function deriveSeed(seed: number, label: string): number {
  return fnv1a(label, seed);
}
