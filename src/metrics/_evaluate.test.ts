import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPrng, shuffled } from '../core/prng.js';
import {
  compareRunDocnos,
  parseQrels,
  parseRun,
  readRunFile,
  runDocno,
  streamRun,
  type Qrels,
  type TrecRun,
} from '../trec/index.js';
import { evaluateTrec, Judge, sortRun, TrecEvaluator } from './_evaluate.js';
import { parseMeasureArgs } from './_spec.js';
import { REL_NONPOOL, REL_UNJUDGED } from './_types.js';

describe('sortRun: trec_eval order (score desc, docno desc) whatever the file order', () => {
  it('a shuffled 3,000-line query with many ties comes out as a reference sort', () => {
    const rng = createPrng(5);
    let text = '';
    const docs = shuffled(
      Array.from({ length: 3000 }, (_, i) => i),
      rng,
    );
    for (let i = 0; i < 3000; i++) text += `q1 Q0 D${docs[i]} ${i + 1} ${rng.int(40) / 4} r\n`;
    const run = parseRun(Buffer.from(text), 'run');
    const rq = run.byQid.get('q1')!;
    const reference = Array.from({ length: rq.end - rq.start }, (_, i) => rq.start + i).sort((a, b) => {
      const d = (run.scores[b] as number) - (run.scores[a] as number);
      return d !== 0 ? d : -compareRunDocnos(run, a, b);
    });
    expect(Array.from(sortRun(run, rq))).toEqual(reference);
    // a nearly sorted query takes the insertion path and agrees too
    const sorted = reference.map((e) => `q2 Q0 ${text.split('\n')[e]!.split(' ')[2]} 1 ${run.scores[e]} r`);
    const run2 = parseRun(Buffer.from(sorted.join('\n') + '\n'), 'run2');
    const rq2 = run2.byQid.get('q2')!;
    expect(Array.from(sortRun(run2, rq2))).toEqual(reference.map((_, i) => i));
  });
});

describe('Judge: ranks only the judged results, as a full sort would place them', () => {
  // the rels a full trec_eval sort gives: sortRun order, each position's grade looked up by docno
  const reference = (run: TrecRun, qrels: Qrels, qid: string, depth: number): number[] => {
    const q = qrels.byQid.get(qid)!;
    const grade = new Map<string, number>();
    q.docs.forEach((d, k) => grade.set(qrels.docs.stringOf(d), q.rels[k]!));
    return Array.from(sortRun(run, run.byQid.get(qid)!))
      .slice(0, depth)
      .map((e) => {
        const g = grade.get(runDocno(run, e));
        return g === undefined ? REL_NONPOOL : g < 0 ? REL_UNJUDGED : g;
      });
  };

  it.each([
    ['a few judged (buckets)', 12, false],
    ['most judged (bunched ties: merge path)', 1500, false],
    ['a few judged, listed by score', 12, true],
    ['most judged, listed by score', 1500, true],
  ])('a 2,000-line query with ties, %s, at every depth', (_, judgedCount, byScore) => {
    const rng = createPrng(11);
    const docs = shuffled(
      Array.from({ length: 2000 }, (_, i) => i),
      rng,
    );
    // listed by score: descending, as most runs are (ties in random docno order), else in random order
    const scores = Array.from({ length: 2000 }, () => rng.int(30) / 4);
    if (byScore) scores.sort((a, b) => b - a);
    let text = '';
    for (let i = 0; i < 2000; i++) text += `q1 Q0 D${docs[i]} ${i + 1} ${scores[i]} r\n`;
    let qrelsText = '';
    // judged: some retrieved (grades -1..3), a few never retrieved
    const picks = shuffled(docs, rng).slice(0, judgedCount);
    for (const d of picks) qrelsText += `q1 0 D${d} ${rng.int(5) - 1}\n`;
    qrelsText += 'q1 0 NOT-RETRIEVED 2\n';
    const run = parseRun(Buffer.from(text), 'run');
    const qrels = parseQrels(Buffer.from(qrelsText), 'qrels');
    const judge = new Judge(qrels.docs);
    for (const maxDepth of [undefined, 1, 10, 999]) {
      const opts = { relevanceLevel: 1, averageComplete: false, maxDepth };
      const got = judge.judge(qrels.byQid.get('q1')!, run, run.byQid.get('q1')!, opts);
      expect(Array.from(got.rels)).toEqual(reference(run, qrels, 'q1', maxDepth ?? 2000));
    }
  });

  // shuffled queries are ranked by bucketing their scores (rankByBuckets) unless the scores bunch up
  it.each([
    ['spread scores, a tenth judged', 200, (_: number, r: number) => `${r / 1000}`],
    ['spread scores, all judged', 2000, (_: number, r: number) => `${r / 1000}`],
    ['ties and signed zeros', 300, (_: number, r: number) => (r % 40 ? `${r % 500}` : r % 3 ? '-0' : '0')],
    ['an outlier stretching the range', 300, (i: number, r: number) => (i === 7 ? '1e300' : `${r / 7}`)],
    // the range overflows a double: sorted instead
    ['the widest range', 300, (i: number, r: number) => (i < 2 ? `${i ? '-' : ''}1.7e308` : `${r}`)],
  ])('a shuffled 2,000-line query, %s, as a full sort places it', (_, judgedCount, score) => {
    const rng = createPrng(19);
    const docs = shuffled(
      Array.from({ length: 2000 }, (_, i) => i),
      rng,
    );
    let text = '';
    for (let i = 0; i < 2000; i++) text += `q1 Q0 D${docs[i]} ${i + 1} ${score(i, rng.int(1_000_000))} r\n`;
    let qrelsText = '';
    for (const d of shuffled(docs, rng).slice(0, judgedCount)) qrelsText += `q1 0 D${d} ${rng.int(3)}\n`;
    const run = parseRun(Buffer.from(text), 'run');
    const qrels = parseQrels(Buffer.from(qrelsText), 'qrels');
    const got = new Judge(qrels.docs).judge(qrels.byQid.get('q1')!, run, run.byQid.get('q1')!, {
      relevanceLevel: 1,
      averageComplete: false,
    });
    expect(Array.from(got.rels)).toEqual(reference(run, qrels, 'q1', 2000));
  });
});

describe('TrecEvaluator: a run measured query by query as it is read', () => {
  it("gives evaluateTrec's result for the whole run, -c included, with all_trec", () => {
    const dir = mkdtempSync(join(tmpdir(), 'rgate-evaluator-'));
    try {
      const rng = createPrng(11);
      let run = '';
      let qrels = '';
      // queries 0..39 retrieved (q7 and q8 not judged), q40..q44 judged but not retrieved (-c)
      for (let q = 0; q < 45; q++) {
        if (q !== 7 && q !== 8)
          for (let d = 0; d < 120; d++) if (rng.int(3) === 0) qrels += `q${q} 0 d${d} ${rng.int(4) - 1}\n`;
        if (q >= 40) continue;
        for (let d = 0; d < 1500; d++)
          run += `q${q} Q0 d${(d * 7) % 1500} ${d + 1} ${(rng.int(400) / 8).toFixed(3)} r\n`;
      }
      const runPath = join(dir, 'run.txt');
      writeFileSync(runPath, run);
      const parsedQrels = parseQrels(Buffer.from(qrels), 'q');
      const { specs } = parseMeasureArgs(['all_trec']);
      for (const averageComplete of [false, true]) {
        const opts = { relevanceLevel: 1, averageComplete, numDocsInCollection: 0, judgedOnly: false };
        const ev = new TrecEvaluator(parsedQrels, specs, opts);
        const streamed = streamRun(runPath, 'run', (r, rq) => ev.query(r, rq))!;
        expect(ev.finish(streamed.runId)).toEqual(
          evaluateTrec(parsedQrels, readRunFile(runPath), specs, opts),
        );
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
