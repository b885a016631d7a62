/** 32-bit FNV-1a over UTF-16 code units, with a seed folded into the offset basis. Fixed forever: changing it changes every hashed embedding. */
export function fnv1a32(s: string, seed = 0): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  // final avalanche (murmur3 fmix32) so low bits are usable for bucket and sign
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
