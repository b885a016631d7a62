import { FNV1A_BASIS, fmix32, fnv1aStep } from '../core/fnv1a.js';
import type { Analyzer } from './analyzer.js';
import type { IntVec } from './int-vec.js';
import { MAX_TOKEN_LENGTH, scanTokens } from './tokenize.js';

/**
 * Term ids for indexing without a string per token.
 *
 * `terms` maps an analysed term to its dense id. In front of it sits a surface-form table: an
 * open-addressing hash table (FNV-1a over the token's UTF-16 code units, murmur3 fmix32 finaliser,
 * linear probing) from the raw token as it appears in the text to its final term id (or STOP when
 * the analyzer drops it). Each slot is 8 Int32s [hash, term id, offset, length, 6 packed chars]:
 * words of up to 6 UTF-16 units are compared inside the slot (one cache line), longer ones against
 * a Uint16Array character pool; no string objects. A token already seen is resolved by hashing and comparing characters
 * in place; only a new surface form is sliced into a string and run through the analyzer
 * (lowercase, stopwords, Porter) once. Indexing cost is thus independent of the analyzer's cost.
 */
export const STOP = -1;

const SLOT = 8;
const INLINE = 6;

/** A slot's hash: signed, as the Int32 slots store it; fmix32 spreads FNV-1a's clustered low bits. */
function fmix(hash: number): number {
  return fmix32(hash) | 0;
}

/** ASCII word characters [A-Za-z0-9_] (1) and the ASCII characters that may join two word characters (MID). */
const WORD_ASCII = new Uint8Array(128);
const MID_ASCII = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  WORD_ASCII[c] = /[A-Za-z0-9_]/.test(ch) ? 1 : 0;
  MID_ASCII[c] = "'.:,;".includes(ch) ? 1 : 0;
}

/** What the index needs from a vocabulary: term -> dense id, and how many ids exist. */
export interface TermLookup {
  get(term: string): number | undefined;
  readonly size: number;
}

export class TermDictionary implements TermLookup {
  /** analysed term -> id (unused when the analyzer is the identity: then surface id = term id) */
  private readonly terms = new Map<string, number>();
  private readonly analyzer: Analyzer;
  /** no lowercase, stopwords or stemming: every surface form is its own term, no Map needed */
  private readonly identity: boolean;
  /**
   * 8 Int32 per slot (one 32-byte cache line): hash, term id (or STOP), pool offset, length (0 = empty
   * slot), then the first 6 UTF-16 units packed two per Int32, so short words compare in the slot.
   */
  private slots = new Int32Array(SLOT * 65536);
  private mask = 65535;
  private pool = new Uint16Array(1 << 16);
  private poolLen = 0;
  private count = 0;

  constructor(analyzer: Analyzer) {
    this.analyzer = analyzer;
    const c = analyzer.config;
    this.identity = !c.lowercase && !c.stopwords && c.stemmer === 'none';
  }

  /** number of distinct terms */
  get size(): number {
    return this.identity ? this.count : this.terms.size;
  }

  /** id of an analysed term, or undefined (never adds) */
  get(term: string): number | undefined {
    if (!this.identity) return this.terms.get(term);
    if (term.length === 0) return undefined;
    let h = FNV1A_BASIS;
    for (let i = 0; i < term.length; i++) h = fnv1aStep(h, term.charCodeAt(i));
    const b = this.probe(term, 0, term.length, fmix(h));
    return this.slots[b + 3] === 0 ? undefined : (this.slots[b + 1] as number);
  }

  get surfaceCount(): number {
    return this.count;
  }

  /** bytes of the surface table and its character pool, plus an estimate for the term Map */
  bytesEstimate(): number {
    let bytes = this.slots.byteLength + this.pool.byteLength;
    for (const t of this.terms.keys()) bytes += 40 + t.length;
    return bytes;
  }

  /** Append the term ids of `text` to `out` (stopwords skipped), adding new terms to the dictionary. */
  indexTerms(text: string, out: IntVec): void {
    const mark = out.length;
    if (this.asciiFastPath(text, out)) return;
    out.length = mark;
    scanTokens(text, (start, end) => {
      let h = FNV1A_BASIS;
      for (let i = start; i < end; i++) h = fnv1aStep(h, text.charCodeAt(i));
      const t = this.lookup(text, start, end, h);
      if (t !== STOP) out.push(t);
    });
  }

  /**
   * The common case in one loop: ASCII text where no `' . : , ;` sits between two word characters.
   * Token boundaries are then plain runs of [A-Za-z0-9_], identical to scanTokens'. Returns false
   * (and the caller redoes the text with the general tokenizer) as soon as that does not hold.
   */
  private asciiFastPath(text: string, out: IntVec): boolean {
    const n = text.length;
    let i = 0;
    while (i < n) {
      let c = text.charCodeAt(i);
      while (c >= 128 || WORD_ASCII[c] === 0) {
        if (c >= 128) return false;
        if (++i >= n) return true;
        c = text.charCodeAt(i);
      }
      const start = i;
      let h = FNV1A_BASIS;
      for (;;) {
        h = fnv1aStep(h, c);
        if (++i >= n) break;
        c = text.charCodeAt(i);
        if (c >= 128) return false;
        if (WORD_ASCII[c] === 0) break;
      }
      if (i + 1 < n && MID_ASCII[c] === 1) {
        const next = text.charCodeAt(i + 1);
        if (next >= 128 || WORD_ASCII[next] === 1) return false;
      }
      if (i - start <= MAX_TOKEN_LENGTH) {
        const t = this.lookup(text, start, i, h);
        if (t !== STOP) out.push(t);
      }
    }
    return true;
  }

  /** term id (or STOP) of text[start, end), whose FNV-1a hash is `hash`; adds the surface when new */
  private lookup(text: string, start: number, end: number, hash: number): number {
    const h = fmix(hash);
    const b = this.probe(text, start, end, h);
    if (this.slots[b + 3] !== 0) return this.slots[b + 1] as number;
    return this.addSurface(text, start, end, h, b);
  }

  /** Int32 offset of the slot holding text[start, end), or of the empty slot where it would go */
  private probe(text: string, start: number, end: number, h: number): number {
    const slots = this.slots;
    const mask = this.mask;
    const len = end - start;
    let slot = h & mask;
    for (;;) {
      const b = slot * SLOT;
      const slen = slots[b + 3] as number;
      if (slen === 0) return b;
      if (slen === len && slots[b] === h) {
        let j = 0;
        if (len <= INLINE) {
          while (j < len) {
            const packed = slots[b + 4 + (j >> 1)] as number;
            const unit = (j & 1) === 0 ? packed & 0xffff : packed >>> 16;
            if (unit !== text.charCodeAt(start + j)) break;
            j++;
          }
        } else {
          const pool = this.pool;
          const off = slots[b + 2] as number;
          while (j < len && pool[off + j] === text.charCodeAt(start + j)) j++;
        }
        if (j === len) return b;
      }
      slot = (slot + 1) & mask;
    }
  }

  private addSurface(text: string, start: number, end: number, h: number, b: number): number {
    let t = STOP;
    if (this.identity) t = this.count;
    const analysed = this.identity ? null : this.analyzer.analyzeToken(text.slice(start, end));
    if (analysed !== null) {
      const known = this.terms.get(analysed);
      if (known === undefined) {
        t = this.terms.size;
        this.terms.set(analysed, t);
      } else t = known;
    }
    const len = end - start;
    let off = 0;
    if (len > INLINE) {
      if (this.poolLen + len > this.pool.length) {
        const grown = new Uint16Array(Math.max(this.pool.length * 2, this.poolLen + len));
        grown.set(this.pool.subarray(0, this.poolLen));
        this.pool = grown;
      }
      off = this.poolLen;
      for (let j = 0; j < len; j++) this.pool[off + j] = text.charCodeAt(start + j);
      this.poolLen += len;
    } else {
      for (let j = 0; j < len; j++) {
        const unit = text.charCodeAt(start + j);
        const at = b + 4 + (j >> 1);
        this.slots[at] = (j & 1) === 0 ? unit : (this.slots[at] as number) | (unit << 16);
      }
    }
    this.slots[b] = h;
    this.slots[b + 1] = t;
    this.slots[b + 2] = off;
    this.slots[b + 3] = len;
    this.count++;
    if (this.count * 2 > this.mask + 1) this.rehash();
    return t;
  }

  private rehash(): void {
    const old = this.slots;
    const size = (this.mask + 1) * 2;
    this.slots = new Int32Array(SLOT * size);
    this.mask = size - 1;
    for (let b = 0; b < old.length; b += SLOT) {
      if (old[b + 3] === 0) continue;
      let slot = (old[b] as number) & this.mask;
      while (this.slots[slot * SLOT + 3] !== 0) slot = (slot + 1) & this.mask;
      this.slots.set(old.subarray(b, b + SLOT), slot * SLOT);
    }
  }
}
