/**
 * Lucene's lossy document-length encoding (`SmallFloat.intToByte4` / `byte4ToInt`), used by Lucene's
 * BM25Similarity (and therefore Anserini) since Lucene 7: the field length is stored in one byte;
 * lengths below 24 are exact, larger ones keep 4 significant bits (rounded down), e.g. 100 -> 96,
 * 150 -> 144, 1000 -> 984. The engine applies it only when `length_norm: 'lucene'` is chosen, to
 * reproduce Anserini's published figures; the default is the exact length.
 */
function longToInt4(i: number): number {
  const numBits = 32 - Math.clz32(i);
  if (numBits < 4) return i;
  const shift = numBits - 4;
  let encoded = (i >>> shift) & 0x07;
  encoded |= (shift + 1) << 3;
  return encoded;
}

function int4ToLong(i: number): number {
  const bits = i & 0x07;
  const shift = (i >>> 3) - 1;
  return shift === -1 ? bits : (bits | 0x08) * 2 ** shift;
}

const MAX_INT4 = longToInt4(0x7fffffff);
const NUM_FREE_VALUES = 255 - MAX_INT4;

export function intToByte4(i: number): number {
  if (i < NUM_FREE_VALUES) return i;
  return NUM_FREE_VALUES + longToInt4(i - NUM_FREE_VALUES);
}

export function byte4ToInt(b: number): number {
  if (b < NUM_FREE_VALUES) return b;
  return Math.min(NUM_FREE_VALUES + int4ToLong(b - NUM_FREE_VALUES), 0x7fffffff);
}

/** The length Lucene's BM25 actually uses for a document of `length` tokens. */
export function luceneQuantizedLength(length: number): number {
  return byte4ToInt(intToByte4(length));
}
