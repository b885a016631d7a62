import { describe, expect, it } from 'vitest';
import { createPrng } from '../core/prng.js';
import { textToByteString } from '../trec/bytes.js';
import type { TrecEvalResult } from './_evaluate.js';
import { formatFixed4, renderTrecEval, renderTrecEvalBytes, trecLine } from './_format.js';
import { parseMeasureArgs } from './_spec.js';

/**
 * The report as lines of strings, each value through formatFixed4 / String: what the bytes must spell,
 * one char a byte (query and run ids as read, not decoded: trec_eval prints their bytes).
 */
function linesReport(r: TrecEvalResult, o: { perQuery: boolean; runid: boolean; summary?: boolean }): string {
  const out: string[] = [];
  const text = (qid: string): string => qid;
  if (o.perQuery) {
    for (const q of r.queries) {
      r.specs.forEach((s, si) => {
        const m = s.measure;
        if (!m.printPerQuery) return;
        s.names.forEach((name, ni) => {
          const v =
            m.kind === 'text'
              ? `'${textToByteString(q.text[si]![ni]!)}'`
              : m.kind === 'int'
                ? String(Math.trunc(q.values[si]![ni]!))
                : formatFixed4(q.values[si]![ni]!);
          out.push(trecLine(name, text(q.qid), v));
        });
      });
    }
  }
  if (o.summary === false) return out.length ? out.join('\n') + '\n' : '';
  if (o.runid) out.push(trecLine('runid', 'all', text(r.runId)));
  r.specs.forEach((s, si) => {
    if (s.measure.kind === 'text') return;
    s.names.forEach((name, ni) => {
      const v = r.summary[si]![ni]!;
      out.push(trecLine(name, 'all', s.measure.kind === 'int' ? String(Math.trunc(v)) : formatFixed4(v)));
    });
  });
  return out.join('\n') + '\n';
}

describe('renderTrecEvalBytes: the report written into one buffer', () => {
  it('spells what formatting each line as a string spells, odd values and query ids included', () => {
    const { specs } = parseMeasureArgs(['num_ret', 'map', 'P.5,10', 'relstring.4']);
    const rng = createPrng(36);
    const odd = [
      0,
      -0,
      1,
      0.03125,
      0.09375,
      2 ** 31,
      2 ** 31 - 1,
      -7,
      -0.5,
      1e8,
      12345.67895,
      NaN,
      Infinity,
      -Infinity,
    ];
    const value = (): number =>
      rng.int(3) === 0 ? odd[rng.int(odd.length)]! : rng.next() * 10 ** rng.int(6);
    // query ids as the parser stores them: one char per byte (UTF-8 names, a tab-free byte soup)
    const qids = ['1', 'q-200', textToByteString('requête'), textToByteString('問題7'), '\xff\xfe'];
    const queries = qids.map((qid) => ({
      qid,
      inRun: true,
      values: specs.map((s) => (s.measure.kind === 'text' ? [] : s.names.map(value))),
      text: specs.map((s) => (s.measure.kind === 'text' ? s.names.map(() => '10-2é') : [])),
    }));
    const summary = specs.map((s) => (s.measure.kind === 'text' ? [] : s.names.map(value)));
    const r: TrecEvalResult = {
      runId: textToByteString('rün'),
      specs,
      queries,
      summary,
      numQueries: qids.length,
    };
    for (const o of [
      { perQuery: true, runid: true },
      { perQuery: true, runid: false, summary: false },
      { perQuery: false, runid: true },
      { perQuery: false, runid: false, summary: false },
    ]) {
      const want = Buffer.from(linesReport(r, o), 'latin1');
      expect(Buffer.compare(renderTrecEvalBytes(r, o), want)).toBe(0);
      expect(renderTrecEval(r, o)).toBe(want.toString('utf8'));
    }
  });

  it('grows past its first guess (long relstrings)', () => {
    const { specs } = parseMeasureArgs(['relstring.4']);
    const long = 'x'.repeat(100000);
    const r: TrecEvalResult = {
      runId: 'r',
      specs,
      queries: [{ qid: '1', inRun: true, values: [[]], text: [[long]] }],
      summary: [[]],
      numQueries: 1,
    };
    expect(renderTrecEvalBytes(r, { perQuery: true, runid: false }).toString('utf8')).toBe(
      `${'relstring_4'.padEnd(22)}\t1\t'${long}'\n`,
    );
  });

  it('hands a sink its bytes a piece at a time: the pieces and the rest are the report', () => {
    const { specs } = parseMeasureArgs(['relstring.4', 'num_ret']);
    const queries = Array.from({ length: 40 }, (_, i) => ({
      qid: String(i),
      inRun: true,
      values: specs.map((s) => (s.measure.kind === 'text' ? [] : [i * 1000])),
      text: specs.map((s) => (s.measure.kind === 'text' ? [`${i}`.repeat(70000)] : [])),
    }));
    const summary = specs.map((s) => (s.measure.kind === 'text' ? [] : [7]));
    const r: TrecEvalResult = { runId: 'r', specs, queries, summary, numQueries: 40 };
    const o = { perQuery: true, runid: true };
    const pieces: Buffer[] = [];
    // copied: the sink's bytes may be overwritten once it returns
    const rest = renderTrecEvalBytes(r, o, (chunk) => pieces.push(Buffer.from(chunk)));
    expect(pieces.length).toBeGreaterThan(1);
    expect(Buffer.concat([...pieces, rest]).toString('latin1')).toBe(linesReport(r, o));
  });

  it('prints query and run ids byte for byte, as trec_eval does, bytes that are not UTF-8 too', () => {
    const { specs } = parseMeasureArgs(['num_ret']);
    const r: TrecEvalResult = {
      runId: 'r\xfe',
      specs,
      queries: [{ qid: '1\xe9', inRun: true, values: [[3]], text: [[]] }],
      summary: [[3]],
      numQueries: 1,
    };
    const bytes = renderTrecEvalBytes(r, { perQuery: true, runid: true });
    expect(bytes.toString('latin1')).toBe(
      `${'num_ret'.padEnd(22)}\t1\xe9\t3\n${'runid'.padEnd(22)}\tall\tr\xfe\n${'num_ret'.padEnd(22)}\tall\t3\n`,
    );
  });
});
