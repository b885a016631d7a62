import type { CorpusRecord } from '../documents/index.js';
import { compareCodeUnits } from '../core/canonical-json.js';
import type { IndexedCorpus } from './indexed-corpus.js';
import type { SelectRequest } from './types.js';

/**
 * The two picking stages of semantic selection's fallback chain (the chain itself, and no_match,
 * are select's, semantic.ts). Withheld records are never picked.
 * 1. exact key: records whose `key` equals the request's `exact_key`; else records whose key appears
 *    in the query text as a whole word (case-sensitive, bounded by non-letter/digit characters; the
 *    longest mentioned key wins). Among several records: path_priority desc, source_path asc, id asc.
 * 2. path priority: records whose source_path shares at least one analysed token with the query
 *    (path split on / \ . - _ before analysis); highest path_priority (missing = 0) wins, then more
 *    shared tokens, source_path asc, id asc.
 * The key list and each record's path tokens are built on first use and kept.
 */
export class FallbackPicks {
  private keys: string[] | null = null;
  private pathTerms: Set<string>[] | null = null;

  constructor(private readonly ic: IndexedCorpus) {}

  exactKey(req: SelectRequest): { doc: number; reason: string; detail: string } | null {
    const recs = this.ic.records;
    if (req.exact_key) {
      const docs = this.docsWithKey(req.exact_key);
      if (docs.length > 0) {
        return {
          doc: this.bestByPriority(docs),
          reason: 'fallback_exact_key_request',
          detail: `record key equals exact_key "${req.exact_key}"`,
        };
      }
    }
    if (this.keys === null) {
      const set = new Set<string>();
      recs.forEach((r, d) => {
        if (r.key && this.ic.withheld[d] === 0) set.add(r.key);
      });
      // longest first, then code-unit order: the first mentioned key in this order wins
      this.keys = [...set].sort((a, b) => b.length - a.length || compareCodeUnits(a, b));
    }
    const text = req.query ?? '';
    for (const key of this.keys) {
      if (mentions(text, key)) {
        return {
          doc: this.bestByPriority(this.docsWithKey(key)),
          reason: 'fallback_exact_key_mentioned',
          detail: `query mentions record key "${key}"`,
        };
      }
    }
    return null;
  }

  pathPriority(query: string): { doc: number; detail: string } | null {
    const recs = this.ic.records;
    const an = this.ic.analyzer;
    if (this.pathTerms === null)
      this.pathTerms = recs.map((r) => new Set(an.analyze(splitPath(r.source_path))));
    const q = new Set(an.analyze(splitPath(query)));
    if (q.size === 0) return null;
    let best = -1;
    let bestShared = 0;
    for (let d = 0; d < recs.length; d++) {
      if (this.ic.withheld[d] === 1) continue;
      let shared = 0;
      for (const t of this.pathTerms[d] as Set<string>) if (q.has(t)) shared++;
      if (shared === 0) continue;
      if (best < 0) {
        best = d;
        bestShared = shared;
        continue;
      }
      const a = recs[d] as CorpusRecord;
      const b = recs[best] as CorpusRecord;
      const c =
        (a.path_priority ?? 0) - (b.path_priority ?? 0) ||
        shared - bestShared ||
        -compareCodeUnits(a.source_path, b.source_path) ||
        -compareCodeUnits(a.id, b.id);
      if (c > 0) {
        best = d;
        bestShared = shared;
      }
    }
    if (best < 0) return null;
    const r = recs[best] as CorpusRecord;
    return {
      doc: best,
      detail: `source_path "${r.source_path}" shares ${bestShared} token(s) with the query; path_priority ${r.path_priority ?? 0}`,
    };
  }

  private docsWithKey(key: string): number[] {
    const recs = this.ic.records;
    const docs: number[] = [];
    for (let d = 0; d < recs.length; d++)
      if ((recs[d] as CorpusRecord).key === key && this.ic.withheld[d] === 0) docs.push(d);
    return docs;
  }

  private bestByPriority(docs: number[]): number {
    const recs = this.ic.records;
    return docs.slice().sort((a, b) => {
      const ra = recs[a] as CorpusRecord;
      const rb = recs[b] as CorpusRecord;
      return (
        (rb.path_priority ?? 0) - (ra.path_priority ?? 0) ||
        compareCodeUnits(ra.source_path, rb.source_path) ||
        compareCodeUnits(ra.id, rb.id)
      );
    })[0] as number;
  }
}

/** Paths are tokenised on separators too, so `docs/gate-c/closeout.md` yields docs, gate, c, closeout, md. */
function splitPath(s: string): string {
  return s.replace(/[/\\._-]+/g, ' ');
}

const WORDCH = /[\p{L}\p{N}]/u;

/** Does `text` contain `key` as a whole word (not inside a longer run of letters/digits)? */
export function mentions(text: string, key: string): boolean {
  if (key === '') return false;
  let from = 0;
  for (;;) {
    const at = text.indexOf(key, from);
    if (at < 0) return false;
    const before = at > 0 ? text[at - 1] : '';
    const after = text[at + key.length] ?? '';
    const edgeStart = WORDCH.test(key[0] as string);
    const edgeEnd = WORDCH.test(key[key.length - 1] as string);
    if ((!edgeStart || !before || !WORDCH.test(before)) && (!edgeEnd || !after || !WORDCH.test(after)))
      return true;
    from = at + 1;
  }
}
