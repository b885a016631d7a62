/**
 * Bounded heap for exact top-k under the engine's total order: score descending, then internal doc
 * number ascending (doc numbers are assigned in id order, so this is "id ascending"). The heap root is
 * the current worst kept hit, so each offer is O(1) when rejected and O(log k) when kept.
 */
export class TopK {
  private k: number;
  private docs: Int32Array;
  private scores: Float64Array;
  private size = 0;

  constructor(k: number) {
    this.k = Math.max(0, Math.floor(k));
    this.docs = new Int32Array(this.k);
    this.scores = new Float64Array(this.k);
  }

  /** empty the heap for reuse with a (possibly different) k, keeping its storage when large enough */
  reset(k: number): this {
    this.k = Math.max(0, Math.floor(k));
    if (this.docs.length < this.k) {
      this.docs = new Int32Array(this.k);
      this.scores = new Float64Array(this.k);
    }
    this.size = 0;
    return this;
  }

  /** number of hits kept */
  get count(): number {
    return this.size;
  }

  /** true when (sa, da) ranks below (sb, db) */
  private static worse(sa: number, da: number, sb: number, db: number): boolean {
    return sa < sb || (sa === sb && da > db);
  }

  /** lowest score still able to enter (entry also needs a better tie-break when equal) */
  get threshold(): number {
    return this.size < this.k ? -Infinity : (this.scores[0] as number);
  }

  offer(doc: number, score: number): void {
    const k = this.k;
    if (k === 0) return;
    const docs = this.docs;
    const scores = this.scores;
    if (this.size < k) {
      // sift up
      let i = this.size++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!TopK.worse(score, doc, scores[p] as number, docs[p] as number)) break;
        docs[i] = docs[p] as number;
        scores[i] = scores[p] as number;
        i = p;
      }
      docs[i] = doc;
      scores[i] = score;
      return;
    }
    if (!TopK.worse(scores[0] as number, docs[0] as number, score, doc)) return;
    // replace root, sift down
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= k) break;
      const r = l + 1;
      let w = l;
      if (r < k && TopK.worse(scores[r] as number, docs[r] as number, scores[l] as number, docs[l] as number))
        w = r;
      if (!TopK.worse(scores[w] as number, docs[w] as number, score, doc)) break;
      docs[i] = docs[w] as number;
      scores[i] = scores[w] as number;
      i = w;
    }
    docs[i] = doc;
    scores[i] = score;
  }

  /** kept hits, best first */
  drain(): { doc: number; score: number }[] {
    const out: { doc: number; score: number }[] = [];
    for (let i = 0; i < this.size; i++)
      out.push({ doc: this.docs[i] as number, score: this.scores[i] as number });
    out.sort((a, b) => b.score - a.score || a.doc - b.doc);
    return out;
  }
}
