import { describe, expect, it } from 'vitest';
import { createPrng, shuffled } from '../core/prng.js';
import { compareRunDocnos, parseRun } from '../trec/index.js';
import { sortRun } from './_evaluate.js';

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
