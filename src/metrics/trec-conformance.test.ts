import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DocTable, readQrelsFile, readRunFile } from '../trec/index.js';
import { evaluateTrec } from './_evaluate.js';
import { formatFixed4 } from './_format.js';
import { parseMeasureArgs } from './_spec.js';

/**
 * Golden conformance against trec_eval 10.0's own expected outputs (fixtures/trec_eval, see its
 * PROVENANCE.md). Numbers are compared, not strings: ours rounded to 4 places must equal theirs, or
 * differ by at most 0.00005 (C rounds exact ties to even). Every line trec_eval printed for a measure
 * rgate implements must be produced, and nothing else.
 */
const dir = resolve(import.meta.dirname, '../../fixtures/trec_eval');

interface Case {
  out: string;
  qrels: string;
  run: string;
  measures: string[];
  perQuery: boolean;
  complete?: boolean;
  maxDepth?: number;
  level?: number;
}

const CASES: Case[] = [
  { out: 'out.test', qrels: 'qrels.test', run: 'results.test', measures: ['official'], perQuery: false },
  { out: 'out.test.a', qrels: 'qrels.test', run: 'results.test', measures: ['all_trec'], perQuery: false },
  { out: 'out.test.aq', qrels: 'qrels.test', run: 'results.test', measures: ['all_trec'], perQuery: true },
  {
    out: 'out.test.aqc',
    qrels: 'qrels.test',
    run: 'results.trunc',
    measures: ['all_trec'],
    perQuery: true,
    complete: true,
  },
  {
    out: 'out.test.aqcM',
    qrels: 'qrels.test',
    run: 'results.trunc',
    measures: ['all_trec'],
    perQuery: true,
    complete: true,
    maxDepth: 100,
  },
  {
    out: 'out.test.aql',
    qrels: 'qrels.rel_level',
    run: 'results.test',
    measures: ['all_trec', 'relstring.20'],
    perQuery: true,
    level: 2,
  },
  {
    out: 'out.test.meas_params',
    qrels: 'qrels.test',
    run: 'results.test',
    measures: ['P.5,7,3', 'recall.20,2000', 'ndcg.1=3,2=9,4=4.5', 'ndcg_cut.10,20,23.4', 'success.2,5,20'],
    perQuery: true,
  },
];

function expected(file: string): Map<string, string> {
  const m = new Map<string, string>();
  for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
    if (!line) continue;
    const [name, qid, value] = line.split('\t') as [string, string, string];
    m.set(`${name.trim()}\t${qid}`, value);
  }
  return m;
}

function agrees(ours: number, theirs: string): boolean {
  const t = Number(theirs);
  return formatFixed4(ours) === theirs || Number(ours.toFixed(4)) === t || Math.abs(ours - t) <= 0.00005;
}

describe('trec_eval 10.0 conformance (fixtures/trec_eval)', () => {
  for (const c of CASES) {
    it(`${c.out}: every implemented measure, per query and all`, () => {
      const docs = new DocTable();
      const qrels = readQrelsFile(join(dir, c.qrels), docs);
      const run = readRunFile(join(dir, c.run));
      const { specs, runid } = parseMeasureArgs(c.measures);
      const r = evaluateTrec(qrels, run, specs, {
        relevanceLevel: c.level ?? 1,
        averageComplete: c.complete ?? false,
        ...(c.maxDepth !== undefined ? { maxDepth: c.maxDepth } : {}),
      });
      const exp = expected(c.out);
      const ours = new Map<string, number | string>();
      for (const q of c.perQuery ? r.queries : []) {
        r.specs.forEach((s, si) => {
          if (s.measure.printPerQuery)
            s.names.forEach((n, ni) =>
              ours.set(
                `${n}\t${q.qid}`,
                s.measure.kind === 'text' ? `'${q.text[si]![ni]!}'` : q.values[si]![ni]!,
              ),
            );
        });
      }
      r.specs.forEach((s, si) => {
        if (s.measure.kind !== 'text') s.names.forEach((n, ni) => ours.set(`${n}\tall`, r.summary[si]![ni]!));
      });
      const ourNames = new Set([...ours.keys()].map((k) => k.split('\t')[0]));
      const mismatches: string[] = [];
      for (const [key, value] of ours) {
        const theirs = exp.get(key);
        if (theirs === undefined) mismatches.push(`${key}: trec_eval printed no such line`);
        else if (typeof value === 'string' ? value !== theirs : !agrees(value, theirs))
          mismatches.push(`${key}: ours ${value} trec_eval ${theirs}`);
      }
      for (const key of exp.keys()) {
        if (ourNames.has(key.split('\t')[0]) && !ours.has(key)) mismatches.push(`${key}: missing from ours`);
      }
      expect(mismatches).toEqual([]);
      if (runid) expect(r.runId).toBe(exp.get('runid\tall'));
      // the comparison must have covered something real
      expect(ours.size).toBeGreaterThan(c.perQuery ? 40 : 9);
    });
  }

  it('out.test.aq: judged_k = 1 - unj_k (trec_eval m_unjudged.c) when k docs are retrieved', () => {
    const docs = new DocTable();
    const qrels = readQrelsFile(join(dir, 'qrels.test'), docs);
    const run = readRunFile(join(dir, 'results.test'));
    const { specs } = parseMeasureArgs(['judged.5,10,20']);
    const r = evaluateTrec(qrels, run, specs, { relevanceLevel: 1, averageComplete: false });
    const exp = expected('out.test.aq');
    let compared = 0;
    for (const [qid, values] of [
      ...r.queries.map((q) => [q.qid, q.values[0]!] as const),
      ['all', r.summary[0]!] as const,
    ]) {
      [5, 10, 20].forEach((k, i) => {
        const unj = exp.get(`unj_${k}\t${qid}`)!;
        expect(agrees(1 - values[i]!, unj), `judged_${k} ${qid}`).toBe(true);
        compared++;
      });
    }
    expect(compared).toBe(12);
  });

  it('out.test.aqcM: -M100 keeps 100 of 500 and -c scores the missing query 302 as zero', () => {
    const docs = new DocTable();
    const qrels = readQrelsFile(join(dir, 'qrels.test'), docs);
    const run = readRunFile(join(dir, 'results.trunc'));
    const { specs } = parseMeasureArgs(['num_ret', 'map']);
    const r = evaluateTrec(qrels, run, specs, { relevanceLevel: 1, averageComplete: true, maxDepth: 100 });
    expect(r.queries.map((q) => [q.qid, q.values[0]![0], q.inRun])).toEqual([
      ['301', 100, true],
      ['302', 0, false],
      ['303', 84, true],
    ]);
    expect(r.summary[0]![0]).toBe(184);
  });
});
