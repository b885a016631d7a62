import { describe, expect, it } from 'vitest';
import { createPrng } from '../core/prng.js';
import { DocTable, parseQrels, parseRun } from '../trec/index.js';
import { evaluateTrec } from './_evaluate.js';
import { cFixed, formatFixed4 } from './_format.js';
import { parseMeasureArgs } from './_spec.js';

/** Score a tiny run given as text; returns summary values by printed name. */
function score(
  qrels: string,
  run: string,
  measures: string[],
  opts: { level?: number; complete?: boolean; depth?: number } = {},
) {
  const docs = new DocTable();
  const q = parseQrels(Buffer.from(qrels), 'q', docs);
  const r = parseRun(Buffer.from(run), 'r');
  const res = evaluateTrec(q, r, parseMeasureArgs(measures).specs, {
    relevanceLevel: opts.level ?? 1,
    averageComplete: opts.complete ?? false,
    ...(opts.depth !== undefined ? { maxDepth: opts.depth } : {}),
  });
  const out: Record<string, number> = {};
  res.specs.forEach((s, si) => s.names.forEach((n, ni) => (out[n] = res.summary[si]![ni]!)));
  return out;
}

// one query, relevant: a (grade 2), c (grade 1); judged non-relevant: b; x is unjudged
const QRELS = 'q 0 a 2\nq 0 b 0\nq 0 c 1\nq 0 z 1\n';

describe('ranking measures on hand-computed examples', () => {
  it('orders by score desc, ties by docno desc, ignoring the rank column', () => {
    // scores tie at 1.0: trec_eval ranks c before a (docno desc), then x
    const run = 'q Q0 a 1 1.0 r\nq Q0 c 2 1.0 r\nq Q0 x 3 0.5 r\n';
    const v = score(QRELS, run, ['recip_rank', 'P.1', 'map']);
    expect(v.recip_rank).toBe(1);
    expect(v.P_1).toBe(1);
    // relevant at ranks 1 (c) and 2 (a); R = 3 (a, c, z): AP = (1/1 + 2/2) / 3
    expect(v.map).toBeCloseTo(2 / 3, 15);
  });

  it('P, recall, success, Rprec, bpref, judged, num_*', () => {
    const run = 'q Q0 x 1 4 r\nq Q0 a 2 3 r\nq Q0 b 3 2 r\nq Q0 c 4 1 r\n';
    const v = score(QRELS, run, [
      'P.2,10',
      'recall.2',
      'success.1,2',
      'Rprec',
      'bpref',
      'judged.2,4',
      'num_ret',
      'num_rel',
      'num_rel_ret',
    ]);
    expect(v).toMatchObject({ P_2: 0.5, P_10: 0.2, recall_2: 1 / 3, success_1: 0, success_2: 1 });
    expect(v.Rprec).toBeCloseTo(1 / 3, 15); // R = 3; the top 3 (x, a, b) hold one relevant doc
    expect(v.judged_2).toBe(0.5);
    expect(v.judged_4).toBe(0.75);
    expect([v.num_ret, v.num_rel, v.num_rel_ret]).toEqual([4, 3, 2]);
    // bpref: N = 1 non-relevant judged (b), R = 3; a: no nonrel above -> 1; c: b above -> 1 - min(1,3)/min(1,3) = 0
    expect(v.bpref).toBeCloseTo(1 / 3, 15);
  });

  it('nDCG: gains = grades, log2 discount, ideal from the qrels; -l does not change it', () => {
    const run = 'q Q0 c 1 3 r\nq Q0 a 2 2 r\n';
    const dcg = 1 / Math.log2(2) + 2 / Math.log2(3);
    const idcg = 2 / Math.log2(2) + 1 / Math.log2(3) + 1 / Math.log2(4);
    const v = score(QRELS, run, ['ndcg', 'ndcg_cut.1,2']);
    expect(v.ndcg).toBeCloseTo(dcg / idcg, 14);
    expect(v.ndcg_cut_1).toBeCloseTo(1 / 2, 14);
    expect(v.ndcg_cut_2).toBeCloseTo(dcg / (2 + 1 / Math.log2(3)), 14);
    expect(score(QRELS, run, ['ndcg'], { level: 2 }).ndcg).toBe(v.ndcg);
    // a gain table: grade 2 -> 10
    const g = score(QRELS, run, ['ndcg.2=10']);
    expect(g['ndcg_2=10']).toBeCloseTo(
      (1 + 10 / Math.log2(3)) / (10 + 1 / Math.log2(3) + 1 / Math.log2(4)),
      14,
    );
  });

  it('-l 2 makes only grade >= 2 relevant; -M caps depth; -c averages over every qrels query', () => {
    const run = 'q Q0 c 1 3 r\nq Q0 a 2 2 r\n';
    expect(score(QRELS, run, ['map'], { level: 2 }).map).toBe(0.5);
    expect(score(QRELS, run, ['num_ret', 'P.2'], { depth: 1 })).toEqual({ num_ret: 1, P_2: 0.5 });
    const two = QRELS + 'p 0 a 1\n';
    expect(score(two, run, ['num_q', 'recip_rank'], { complete: true })).toEqual({
      num_q: 2,
      recip_rank: 0.5,
    });
    expect(score(two, run, ['num_q', 'recip_rank'])).toEqual({ num_q: 1, recip_rank: 1 });
  });

  it('a run query without qrels is ignored; none in common is an input error', () => {
    expect(score(QRELS, 'q Q0 a 1 1 r\nother Q0 a 1 1 r\n', ['num_q']).num_q).toBe(1);
    expect(() => score(QRELS, 'other Q0 a 1 1 r\n', ['map'])).toThrow(/no query has both/);
  });

  it('unknown measures and bad cutoffs are usage errors', () => {
    expect(() => parseMeasureArgs(['no_such_measure'])).toThrow(/unknown measure "no_such_measure"/);
    expect(() => parseMeasureArgs(['P.0'])).toThrow(/positive integer/);
    expect(() => parseMeasureArgs(['P.5,5'])).toThrow(/twice/);
    expect(parseMeasureArgs(['P.20,5', 'P.1']).specs[0]!.names).toEqual(['P_5', 'P_20']);
  });
});

describe('formatFixed4: its fast path prints what cFixed(x, 4) prints', () => {
  it('on values near and far from a tie, large and small', () => {
    const rng = createPrng(4);
    const xs: number[] = [0, -0, 1, 0.5, 0.00005, 0.00015, 1e8 - 1e-5, 99999999.99995, 12345.67895];
    for (let i = 0; i < 20000; i++) {
      xs.push(
        rng.next(),
        rng.int(1000) / 7,
        (rng.int(200000) + 0.5) / 10000,
        rng.next() * 1e9,
        rng.int(64) / 2 ** rng.int(20),
      );
      // one ulp either side of a halfway point
      const t = (rng.int(100000) + 0.5) / 10000;
      xs.push(t + t * 2 ** -52, t - t * 2 ** -52);
    }
    for (const x of xs) expect([x, formatFixed4(x)]).toEqual([x, cFixed(x, 4)]);
  });
});

describe('formatFixed4 (C printf %.4f)', () => {
  it('rounds exact binary ties to even, everything else to nearest', () => {
    expect(formatFixed4(0.03125)).toBe('0.0312'); // exactly 1/32: a tie, 2 is even
    expect(formatFixed4(0.09375)).toBe('0.0938'); // 3/32: tie, 7 -> 8
    expect(formatFixed4(-0.03125)).toBe('-0.0312');
    expect(formatFixed4(0.00005)).toBe('0.0001'); // 0.00005 is slightly above the tie in binary
    expect(formatFixed4(0.17853)).toBe('0.1785');
    expect(formatFixed4(1)).toBe('1.0000');
    expect(formatFixed4(-412.66666)).toBe('-412.6667');
  });

  it('prints what the exact decimal digits round to, ties and near-ties included, at 0 to 6 digits', () => {
    // the reference: the exact digits (toFixed(30) is exact here), rounded half to even by hand
    const reference = (x: number, d: number): string => {
      const exact = Math.abs(x).toFixed(30);
      const dot = exact.indexOf('.');
      const rest = exact.slice(dot + 1 + d);
      const kept = exact.slice(0, d === 0 ? dot : dot + 1 + d);
      const tie = /^50*$/.test(rest);
      const up = rest[0]! > '5' || (rest[0] === '5' && !tie) || (tie && Number(kept.at(-1)) % 2 === 1);
      return (x < 0 ? '-' : '') + (up ? bump(kept) : kept);
    };
    const bump = (k: string): string => {
      const digits = k.split('');
      for (let i = digits.length - 1; i >= 0; i--) {
        if (digits[i] === '.') continue;
        if (digits[i] !== '9') {
          digits[i] = String(Number(digits[i]) + 1);
          return digits.join('');
        }
        digits[i] = '0';
      }
      return '1' + digits.join('');
    };
    const values: number[] = [];
    for (let k = 0; k < 4000; k++) {
      values.push(k / 64, k / 1024, -k / 2048, (k + 0.5) / 1e4, k / 3, k * 0.1 + 0.05);
    }
    for (const x of values)
      for (let d = 0; d <= 6; d++) expect([x, d, cFixed(x, d)]).toEqual([x, d, reference(x, d)]);
  });
});
