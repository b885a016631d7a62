/**
 * 32-bit FNV-1a, the one hash rgate writes itself. Fixed forever: hashed embeddings, the engine's
 * term slots, the TREC run reader's docno and qid interning and derived seeds all depend on it
 * (src/trec/run-scan.wat computes the same in WebAssembly, and a test holds the two together).
 */
export const FNV1A_BASIS = 0x811c9dc5;

/** Fold one UTF-16 code unit or byte into `h`. Small enough for V8 to inline in the scanners' loops. */
export function fnv1aStep(h: number, unit: number): number {
  return Math.imul(h ^ unit, 0x01000193);
}

/** FNV-1a of a string's UTF-16 code units, with `seed` folded into the offset basis; unsigned. */
export function fnv1a(s: string, seed = 0): number {
  let h = FNV1A_BASIS ^ seed;
  for (let i = 0; i < s.length; i++) h = fnv1aStep(h, s.charCodeAt(i));
  return h >>> 0;
}

/** murmur3's fmix32 finaliser: FNV-1a alone clusters short, similar inputs in its low bits. */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
