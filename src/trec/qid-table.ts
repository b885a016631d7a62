/**
 * A run's qids, interned by their bytes and numbered in first-appearance order. A shuffled run changes
 * query on nearly every line: looking a qid up by its bytes (FNV-1a hash, open addressing) makes no
 * string and no Map lookup per line; a qid's string is made once, when it is first seen.
 */
import { hashBytes, latin1 } from './bytes.js';
import { grow32 } from './grow.js';

export class QidTable {
  /** the qids as latin1 byte strings; a qid's number is its index here */
  readonly qids: string[] = [];
  /** open-addressing slots: qid number + 1, 0 = empty */
  private slots = new Int32Array(1 << 10);
  private hashes: Int32Array = new Int32Array(1 << 9);
  /** qid q's bytes are arena[offsets[q], offsets[q + 1]) */
  private offsets: Int32Array = new Int32Array(1 << 9);
  private arena = new Uint8Array(1 << 12);
  private arenaUsed = 0;

  get size(): number {
    return this.qids.length;
  }

  /** Number of the qid with bytes buf[s, e) whose FNV-1a hash is h, added at the end if new. */
  indexOfBytes(buf: Uint8Array, s: number, e: number, h: number): number {
    const slots = this.slots;
    const mask = slots.length - 1;
    const len = e - s;
    let slot = h & mask;
    for (let j = slots[slot] as number; j !== 0; j = slots[(slot = (slot + 1) & mask)] as number) {
      const q = j - 1;
      if (this.hashes[q] !== h) continue;
      const off = this.offsets[q] as number;
      if ((this.offsets[q + 1] as number) - off !== len) continue;
      const a = this.arena;
      let k = 0;
      while (k < len && a[off + k] === buf[s + k]) k++;
      if (k === len) return q;
    }
    return this.add(buf, s, e, h, slot);
  }

  /** Number of a qid given as a latin1 byte string, added at the end if new. */
  indexOf(qid: string): number {
    const b = Buffer.from(qid, 'latin1');
    return this.indexOfBytes(b, 0, b.length, hashBytes(b, 0, b.length));
  }

  private add(buf: Uint8Array, s: number, e: number, h: number, slot: number): number {
    const q = this.qids.length;
    const len = e - s;
    if (q + 2 > this.offsets.length) {
      this.offsets = grow32(this.offsets, this.offsets.length * 2);
      this.hashes = grow32(this.hashes, this.hashes.length * 2);
    }
    if (this.arenaUsed + len > this.arena.length) {
      const b = new Uint8Array(Math.max(this.arena.length * 2, this.arenaUsed + len));
      b.set(this.arena.subarray(0, this.arenaUsed));
      this.arena = b;
    }
    this.arena.set(buf.subarray(s, e), this.arenaUsed);
    this.offsets[q] = this.arenaUsed;
    this.arenaUsed += len;
    this.offsets[q + 1] = this.arenaUsed;
    this.hashes[q] = h;
    this.qids.push(latin1(buf, s, e));
    this.slots[slot] = q + 1;
    // load factor under 1/2
    if (this.qids.length * 2 > this.slots.length) {
      const size = this.slots.length * 2;
      const slots = new Int32Array(size);
      for (let k = 0; k < this.qids.length; k++) {
        let t = (this.hashes[k] as number) & (size - 1);
        while (slots[t] !== 0) t = (t + 1) & (size - 1);
        slots[t] = k + 1;
      }
      this.slots = slots;
    }
    return q;
  }
}
