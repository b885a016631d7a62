import { hashBytes, latin1 } from './bytes.js';
import { grow32 } from './grow.js';

/** Intern table for docnos: id <-> byte string, looked up by the raw bytes without allocating. */
export class DocTable {
  /** id -> latin1 byte string, made on first request (most ids are only ever compared as bytes) */
  private readonly cache: (string | undefined)[] = [];
  private count = 0;
  private slots = new Int32Array(1 << 16).fill(-1);
  private mask = (1 << 16) - 1;
  private arena = new Uint8Array(1 << 20);
  private arenaUsed = 0;
  private offsets: Int32Array = new Int32Array(1 << 12);
  private lengths: Int32Array = new Int32Array(1 << 12);
  private hashes: Int32Array = new Int32Array(1 << 12);

  get size(): number {
    return this.count;
  }

  /**
   * Make room for `ids` ids of `bytes` bytes in all, up front: a big qrels file (a TREC pool judges
   * hundreds of thousands of documents) would otherwise double its arrays a dozen times, in code V8
   * has not optimised yet. The lookup table grows as ids are interned (append() needs none). Never
   * shrinks.
   */
  reserve(ids: number, bytes: number): void {
    const want = this.count + ids;
    // at least doubled when it grows: appendScanned() reserves piece by piece
    if (want > this.offsets.length) {
      const size = Math.max(want, 2 * this.offsets.length);
      this.offsets = grow32(this.offsets, size);
      this.lengths = grow32(this.lengths, size);
      this.hashes = grow32(this.hashes, size);
    }
    if (this.arenaUsed + bytes > this.arena.length) {
      const next = new Uint8Array(Math.max(this.arenaUsed + bytes, 2 * this.arena.length));
      next.set(this.arena.subarray(0, this.arenaUsed));
      this.arena = next;
    }
  }

  /**
   * Store bytes buf[start, end) under a new id without looking them up: equal bytes appended twice
   * get two ids (a table is filled by append() or by intern(), not both: find() is for the latter).
   * The qrels take their documents
   * this way: a query's judgments are matched by hash and bytes (hashOf, equalsBytes, sameBytes),
   * never by id, and a global lookup per judgment (a random access into a table of hundreds of
   * thousands) was most of the time of reading a TREC pool's qrels.
   */
  append(buf: Uint8Array, start: number, end: number): number {
    const h = hashBytes(buf, start, end);
    return this.store(buf, start, end, h);
  }

  /** append() of bytes whose hashBytes the caller computed while scanning them. */
  appendHashed(buf: Uint8Array, start: number, end: number, h: number): number {
    return this.store(buf, start, end, h);
  }

  /** Where the next append() goes: its id and its bytes' offset in the arena (for appendScanned). */
  nextAppend(): { id: number; arena: number } {
    return { id: this.count, arena: this.arenaUsed };
  }

  /**
   * append() of n documents at once, as the qrels scanner made them from nextAppend(): their bytes
   * (`arena`, to go at the arena's end), offsets (into the arena, final) and lengths, and hashes.
   */
  appendScanned(arena: Uint8Array, dOff: Int32Array, dLen: Int32Array, h: Int32Array, n: number): void {
    this.reserve(n, arena.length);
    const first = this.count;
    this.arena.set(arena, this.arenaUsed);
    this.offsets.set(dOff.subarray(0, n), first);
    this.lengths.set(dLen.subarray(0, n), first);
    this.hashes.set(h.subarray(0, n), first);
    this.arenaUsed += arena.length;
    this.count += n;
  }

  /** Do ids a and b hold the same bytes? */
  sameBytes(a: number, b: number): boolean {
    const len = this.lengths[a] as number;
    if (this.lengths[b] !== len || this.hashes[a] !== this.hashes[b]) return false;
    const oa = this.offsets[a] as number;
    const ob = this.offsets[b] as number;
    const arena = this.arena;
    for (let k = 0; k < len; k++) if (arena[oa + k] !== arena[ob + k]) return false;
    return true;
  }

  /** hashBytes of an id's bytes. */
  hashOf(id: number): number {
    return this.hashes[id] as number;
  }

  /** Do the bytes of id equal buf[start, end)? */
  equalsBytes(id: number, buf: Uint8Array, start: number, end: number): boolean {
    const len = end - start;
    if (this.lengths[id] !== len) return false;
    const off = this.offsets[id] as number;
    for (let k = 0; k < len; k++) if (this.arena[off + k] !== buf[start + k]) return false;
    return true;
  }

  /** The latin1 byte string of an id. */
  stringOf(id: number): string {
    let v = this.cache[id];
    if (v === undefined) {
      const off = this.offsets[id] as number;
      v = latin1(this.arena, off, off + (this.lengths[id] as number));
      this.cache[id] = v;
    }
    return v;
  }

  /** Intern bytes buf[start, end) and return the id. */
  intern(buf: Uint8Array, start: number, end: number): number {
    const h = hashBytes(buf, start, end);
    const slot = this.probe(buf, start, end, h);
    return slot >= 0 ? (this.slots[slot] as number) : this.add(buf, start, end, h, ~slot);
  }

  /** The id of bytes buf[start, end) whose hashBytes is h, or -1 when they were never interned. */
  find(buf: Uint8Array, start: number, end: number, h: number): number {
    const slot = this.probe(buf, start, end, h);
    return slot >= 0 ? (this.slots[slot] as number) : -1;
  }

  /** The slot holding these bytes, or ~(the empty slot where they would go). */
  private probe(buf: Uint8Array, start: number, end: number, h: number): number {
    const len = end - start;
    let slot = h & this.mask;
    for (;;) {
      const id = this.slots[slot] as number;
      if (id < 0) break;
      if (this.hashes[id] === h && this.lengths[id] === len) {
        const off = this.offsets[id] as number;
        let same = true;
        for (let k = 0; k < len; k++) {
          if (this.arena[off + k] !== buf[start + k]) {
            same = false;
            break;
          }
        }
        if (same) return slot;
      }
      slot = (slot + 1) & this.mask;
    }
    return ~slot;
  }

  /** Intern a latin1 byte string (see byteString). */
  internString(s: string): number {
    const b = Buffer.from(s, 'latin1');
    return this.intern(b, 0, b.length);
  }

  private add(buf: Uint8Array, start: number, end: number, h: number, slot: number): number {
    const id = this.store(buf, start, end, h);
    this.slots[slot] = id;
    // keep the load factor under 1/2 so probes stay short
    if (this.count * 2 > this.slots.length) this.rehash();
    return id;
  }

  /** Store the bytes and their hash under the next id (no lookup table entry). */
  private store(buf: Uint8Array, start: number, end: number, h: number): number {
    const id = this.count;
    const len = end - start;
    if (id >= this.offsets.length) {
      const n = this.offsets.length * 2;
      this.offsets = grow32(this.offsets, n);
      this.lengths = grow32(this.lengths, n);
      this.hashes = grow32(this.hashes, n);
    }
    if (this.arenaUsed + len > this.arena.length) {
      const next = new Uint8Array(Math.max(this.arena.length * 2, this.arenaUsed + len));
      next.set(this.arena.subarray(0, this.arenaUsed));
      this.arena = next;
    }
    // a byte loop: docnos are short, and a Buffer's subarray() makes a Buffer object per docno
    const arena = this.arena;
    for (let k = 0, o = this.arenaUsed; k < len; k++) arena[o + k] = buf[start + k] as number;
    this.offsets[id] = this.arenaUsed;
    this.lengths[id] = len;
    this.hashes[id] = h;
    this.arenaUsed += len;
    this.count++;
    return id;
  }

  private rehash(): void {
    this.rehashTo(this.slots.length * 2);
  }

  private rehashTo(size: number): void {
    this.slots = new Int32Array(size).fill(-1);
    this.mask = size - 1;
    for (let id = 0; id < this.count; id++) {
      let slot = (this.hashes[id] as number) & this.mask;
      while ((this.slots[slot] as number) >= 0) slot = (slot + 1) & this.mask;
      this.slots[slot] = id;
    }
  }
}
