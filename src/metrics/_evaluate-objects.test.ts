import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { score } from './_score.js';
import { evaluate } from './_evaluate-objects.js';

const dir = resolve(import.meta.dirname, '../../fixtures/trec_eval');

/** A TREC file as the nested objects evaluate() takes: qid -> docno -> value (column `col`). */
function nested(file: string, col: number): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f.length < 4) continue;
    (out[f[0]!] ??= {})[f[2]!] = Number(f[col]);
  }
  return out;
}

describe('evaluate (in-memory qrels and run)', () => {
  it('gives exactly the numbers rgate score gives for the same files, per query and overall', () => {
    const qrels = nested('qrels.test', 3);
    const run = nested('results.test', 4);
    for (const opts of [{}, { averageComplete: true }, { maxDepth: 20, relevanceLevel: 2 }]) {
      const fromObjects = evaluate(qrels, run, ['all_trec'], opts);
      const fromFiles = score({
        qrels: join(dir, 'qrels.test'),
        run: join(dir, 'results.test'),
        measures: ['all_trec'],
        perQuery: true,
        ...opts,
      });
      expect(fromObjects.num_q).toBe(fromFiles.num_q);
      expect(fromObjects.mean).toEqual(fromFiles.all);
      for (const q of fromFiles.queries!) {
        for (const [name, v] of Object.entries(q.measures))
          expect(
            (typeof v === 'string' ? fromObjects.perQueryText : fromObjects.perQuery)[name]![q.query_id],
            `${name} ${q.query_id}`,
          ).toBe(v);
      }
      // relstring is text: per query only, no mean
      expect(fromObjects.perQueryText.relstring!['301']).toBe('0000011000');
      expect(fromObjects.mean.relstring).toBeUndefined();
    }
  });

  it('refuses empty judgments and non-finite scores with an input error', () => {
    expect(() => evaluate({}, { q: { d: 1 } }, ['map'])).toThrow('evaluate: the qrels hold no judgments');
    expect(() => evaluate({ q: { d: 1 } }, { q: { d: Number.NaN } }, ['map'])).toThrow(
      'score must be a finite number',
    );
  });

  it('refuses a run that leaves judged queries unanswered, naming them, as rgate score does', () => {
    const qrels = { q1: { d1: 1 }, q2: { d2: 1 }, q3: { d3: 1 } };
    const partial = { q1: { d1: 0.9 } };
    expect(() => evaluate(qrels, partial, ['map'])).toThrow(
      'evaluate: queries q2, q3 are judged but have no ranking in the run',
    );
    // -c's meaning: every judged query counts, an unanswered one scoring 0
    expect(evaluate(qrels, partial, ['map'], { averageComplete: true }).mean.map).toBeCloseTo(1 / 3, 12);
    // trec_eval 9's: the mean over the answered queries only, asked for by name
    const answered = evaluate(qrels, partial, ['map'], { onlyAnswered: true });
    expect([answered.num_q, answered.mean.map]).toEqual([1, 1]);
    expect(() => evaluate(qrels, partial, ['map'], { onlyAnswered: true, averageComplete: true })).toThrow(
      'onlyAnswered and averageComplete',
    );
  });
});
