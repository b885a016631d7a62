import { RgateError } from '../core/errors.js';

/** One line of a TREC run file. */
export interface TrecRunLine {
  qid: string;
  docno: string;
  rank: number;
  score: number;
}

/**
 * Write a TREC run (`qid Q0 docno rank score runid`). Scores are written with JavaScript's shortest
 * round-trip form, so reading the file back gives the same doubles and trec_eval sorts them identically.
 */
export function writeRun(rows: readonly TrecRunLine[], runId: string): string {
  if (/\s/.test(runId) || runId.length === 0) {
    throw new RgateError('usage', `run id "${runId}" must be non-empty and contain no whitespace`);
  }
  let out = '';
  for (const r of rows) {
    if (/\s/.test(r.qid) || /\s/.test(r.docno) || !r.qid || !r.docno) {
      throw new RgateError(
        'input_invalid',
        `cannot write a TREC run line for query "${r.qid}", document "${r.docno}": ids must be non-empty without whitespace`,
      );
    }
    if (!Number.isFinite(r.score)) {
      throw new RgateError(
        'input_invalid',
        `query ${r.qid} document ${r.docno}: score ${r.score} is not finite`,
      );
    }
    out += `${r.qid} Q0 ${r.docno} ${r.rank} ${r.score} ${runId}\n`;
  }
  return out;
}
