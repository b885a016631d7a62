/** Append-only Int32 vector (amortised doubling) used while building the index. */
export class IntVec {
  data: Int32Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Int32Array(Math.max(16, capacity));
  }
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  /** a right-sized copy */
  toArray(): Int32Array {
    return this.data.slice(0, this.length);
  }
}
