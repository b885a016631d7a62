/**
 * trec_eval -J: measure each query over its judged documents only. trec_eval 10 (form_res_rels.c)
 * ranks a query's results (score descending, ties by docno descending), cuts them at -M, and then
 * drops every document without a grade >= 0 in the qrels (absent from them, or judged -1); the rest
 * keep their order and are ranked 1, 2, ... So a run restricted this way, evaluated as usual, gives
 * trec_eval's -J numbers: a subset keeps its relative order under the same total order.
 */
import type { Qrels } from './qrels-read.js';
import { compareRunDocnos, runDocno, type RunQuery, type TrecRun } from './run.js';

export function judgedOnly(run: TrecRun, qrels: Qrels, maxDepth?: number): TrecRun {
  const docs = qrels.docs;
  const keep: number[] = [];
  const byQid = new Map<string, RunQuery>();
  for (const qid of run.qids) {
    const rq = run.byQid.get(qid)!;
    const start = keep.length;
    const judged = qrels.byQid.get(qid);
    if (judged) {
      // grade of each judged docno (latin1 bytes) for this query; -1 and below mean "in the pool, not
      // judged" (the qrels' ids are per line: docnos are matched by their bytes)
      const grade = new Map<string, number>();
      judged.docs.forEach((d, k) => grade.set(docs.stringOf(d), judged.rels[k] as number));
      const order: number[] = [];
      for (let i = rq.start; i < rq.end; i++) order.push(i);
      order.sort((a, b) => {
        const sa = run.scores[a] as number;
        const sb = run.scores[b] as number;
        return sa !== sb ? sb - sa : compareRunDocnos(run, b, a);
      });
      const depth = maxDepth === undefined ? order.length : Math.min(maxDepth, order.length);
      for (let k = 0; k < depth; k++) {
        const i = order[k] as number;
        if ((grade.get(runDocno(run, i)) ?? -1) >= 0) keep.push(i);
      }
    }
    // a query left with no results stays in the run: trec_eval still evaluates it (num_ret 0)
    byQid.set(qid, { qid, start, end: keep.length });
  }
  const pick32 = (a: Int32Array): Int32Array => Int32Array.from(keep, (i) => a[i] as number);
  return {
    runId: run.runId,
    qids: run.qids.slice(),
    byQid,
    lines: run.lines,
    scores: Float64Array.from(keep, (i) => run.scores[i] as number),
    hashes: pick32(run.hashes),
    docOff: pick32(run.docOff),
    docLen: pick32(run.docLen),
    lineOf: pick32(run.lineOf),
    arena: run.arena,
  };
}
