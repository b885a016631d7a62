import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { RgateError } from '../core/errors.js';
import {
  DocTable,
  byteStringToText,
  compareRunDocnos,
  judgedOnly,
  parseDecimal,
  parseQrels,
  parseRun,
  readQrelsFile,
  readRunFile,
  runDocno,
  runFromRows,
  writeRun,
} from './index.js';
import { MAX_GRADE } from './qrels-read.js';

const dir = mkdtempSync(join(tmpdir(), 'rgate-trec-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const buf = (s: string): Buffer => Buffer.from(s, 'utf8');

function caught(f: () => unknown): RgateError {
  try {
    f();
  } catch (e) {
    if (e instanceof RgateError) return e;
    throw e;
  }
  throw new Error('expected an RgateError');
}

function entries(run: ReturnType<typeof parseRun>, qid: string): [string, number][] {
  const q = run.byQid.get(qid)!;
  const out: [string, number][] = [];
  for (let i = q.start; i < q.end; i++) out.push([runDocno(run, i), run.scores[i]!]);
  return out;
}

describe('parseQrels', () => {
  it('reads qid iter docno grade, skipping blank and # lines, any blanks, CRLF', () => {
    const docs = new DocTable();
    const q = parseQrels(buf('# comment\n2 0 d1 1\r\n\n10\t0  d2\t0\n2 0 d3 -1\n'), 'q.txt', docs);
    expect(q.qids).toEqual(['10', '2']); // byte order, like trec_eval's strcmp
    const two = q.byQid.get('2')!;
    expect([...two.docs].map((d) => docs.stringOf(d))).toEqual(['d1', 'd3']);
    expect([...two.rels]).toEqual([1, -1]);
  });

  it('names file and line for a short line or a non-integer grade', () => {
    expect(caught(() => parseQrels(buf('1 0 d1 1\n1 0 d2\n'), 'q.txt')).message).toBe(
      'q.txt:2: expected 4 fields, found 3',
    );
    const e = caught(() => parseQrels(buf('1 0 d1 1\n\n1 0 d2 x\n'), 'q.txt'));
    expect(e.message).toBe('q.txt:3: relevance "x" is not an integer');
    expect(e.hint).toMatch(/qid/);
    expect(e.exitCode).toBe(2);
  });

  it('takes a grade that is a 32-bit integer and nothing else (trec_eval atol reads a prefix)', () => {
    const q = parseQrels(buf('1 0 a 1000000\n1 0 b -2147483648\n1 0 c +2\n1 0 d 007\n1 0 e -0\n'), 'q.txt');
    expect([...q.byQid.get('1')!.rels]).toEqual([1000000, -2147483648, 2, 7, 0]);
    const refused: [string, string][] = [
      ['1.5', 'is not an integer'], // atol: 1
      ['2abc', 'is not an integer'], // atol: 2
      ['1e2', 'is not an integer'], // atol: 1
      ['-', 'is not an integer'], // atol: 0
      ['0x10', 'is not an integer'], // atol: 0
      ['2147483648', 'is out of range (-2147483648 to 2147483647)'], // a long in trec_eval
      ['-2147483649', 'is out of range (-2147483648 to 2147483647)'],
      ['99999999999999999999', 'is out of range (-2147483648 to 2147483647)'],
    ];
    for (const [grade, why] of refused) {
      const e = caught(() => parseQrels(buf(`# h\n1 0 a 1\n1 0 b ${grade}\n`), 'q.txt'));
      expect(e.message).toBe(`q.txt:3: relevance "${grade}" ${why}`);
      expect(e.hint).toContain('trec_eval reads the relevance with atol ("1.5" as 1, "x" as 0)');
      expect(e.exitCode).toBe(2);
    }
  });

  it('refuses a grade above MAX_GRADE by line, in the scanned pieces and the ones read the long way', () => {
    // a count per grade from 0 to the highest: 2^31 - 1 ran V8 out of memory, trec_eval to 16 GB
    for (const tail of ['', '1 0 z +1\n']) {
      for (const grade of ['1000001', '2147483647']) {
        const e = caught(() => parseQrels(buf(`1 0 a 1\n2 0 b ${grade}\n${tail}`), 'q.txt'));
        expect(e.message).toBe(
          `q.txt:2: relevance "${grade}" is above ${MAX_GRADE}, the highest grade rgate takes`,
        );
        expect(e.exitCode).toBe(2);
      }
    }
    expect(MAX_GRADE).toBe(1_000_000);
  });

  it('refuses a document judged twice for one query, naming both lines', () => {
    const e = caught(() => parseQrels(buf('1 0 d1 1\n# c\n2 0 d1 1\n1 0 d1 0\n'), 'q.txt'));
    expect(e.message).toBe('q.txt:4: query 1 judges document d1 twice (first at line 1)');
    expect(e.exitCode).toBe(2);
  });

  it('gives the same judgments whether the lines are grouped by query or not', () => {
    const lines = ['1 0 a 1\n', '1 0 b 0\n', '2 0 c 2\n', '2 0 a -1\n', '3 0 x 1\n'];
    const grouped = new DocTable();
    const interleaved = new DocTable();
    const g = parseQrels(buf(lines.join('')), 'q', grouped);
    const i = parseQrels(buf([lines[2], lines[0], lines[4], lines[3], lines[1]].join('')), 'q', interleaved);
    expect(i.qids).toEqual(g.qids);
    for (const qid of g.qids) {
      const a = g.byQid.get(qid)!;
      const b = i.byQid.get(qid)!;
      expect([...b.docs].map((d) => interleaved.stringOf(d))).toEqual(
        [...a.docs].map((d) => grouped.stringOf(d)),
      );
      expect([...b.rels]).toEqual([...a.rels]);
    }
    expect([...g.byQid.get('2')!.rels]).toEqual([2, -1]);
    expect(caught(() => parseQrels(buf('1 0 d1 1\n1 0 d2 1 extra\n'), 'q.txt')).message).toBe(
      'q.txt:2: expected 4 fields, found more',
    );
  });

  it('skips a comment line only where trec_eval 10 does, and refuses the ones it reads as judgments', () => {
    // trec_eval 10's qrels reader skips "#" at a line's first byte, one line at a time: "  #x 0 d 1"
    // and a second comment line in a row are judgments of query "#x" there (or "Malformed line")
    const q = parseQrels(buf('# a comment\n1 0 d1 1\n# another\n\n# and another\n1 0 d2 0\n'), 'q.txt');
    expect(q.qids).toEqual(['1']);
    expect([...q.byQid.get('1')!.rels]).toEqual([1, 0]);
    expect(caught(() => parseQrels(buf('1 0 d1 1\n  #x 0 d2 1\n'), 'q.txt')).message).toBe(
      'q.txt:2: a "#" after blanks is not a comment',
    );
    expect(caught(() => parseQrels(buf('\t# a comment\n1 0 d1 1\n'), 'q.txt')).message).toBe(
      'q.txt:1: a "#" after blanks is not a comment',
    );
    expect(caught(() => parseQrels(buf('# one\n#x 0 d2 1\n1 0 d1 1\n'), 'q.txt')).message).toBe(
      'q.txt:2: a comment line right after another',
    );
  });
});

describe('empty inputs and non-seekable inputs', () => {
  it('names an empty qrels or run file as empty (exit 2)', () => {
    writeFileSync(join(dir, 'empty.txt'), '');
    writeFileSync(join(dir, 'comments.txt'), '# nothing here\n\n');
    const e = caught(() => readQrelsFile(join(dir, 'empty.txt')));
    // named by the path given, not its base name
    expect(e.message).toBe(`${join(dir, 'empty.txt')}: empty file: no judgments`);
    expect(e.exitCode).toBe(2);
    expect(caught(() => readRunFile(join(dir, 'empty.txt'))).message).toBe(
      `${join(dir, 'empty.txt')}: empty file: no results`,
    );
    expect(caught(() => readRunFile(join(dir, 'comments.txt'))).message).toBe(
      `${join(dir, 'comments.txt')}: no results: only blank and comment lines`,
    );
  });

  it('reads a named pipe whole (no positional reads), with the same result as the file', () => {
    const fifo = join(dir, 'run.fifo');
    execFileSync('mkfifo', [fifo]);
    const text = '1 Q0 d1 1 2.5 r\n# c\n1 Q0 d2 2 1 r\n';
    // the writer is another process: this thread blocks in open() and read() until it writes
    const writer = spawn('sh', ['-c', `printf '%s' "$0" > "$1"`, text, fifo], { stdio: 'ignore' });
    const run = readRunFile(fifo);
    writer.kill();
    expect(entries(run, '1')).toEqual([
      ['d1', 2.5],
      ['d2', 1],
    ]);
    expect(run.lineOf[1]).toBe(3);
  });
});

describe('DocTable.reserve', () => {
  it('keeps every id and its bytes, and interns past the reserved room as before', () => {
    const docs = new DocTable();
    const b = (s: string): Buffer => Buffer.from(s, 'latin1');
    const early = Array.from({ length: 3000 }, (_, i) => docs.internString(`early-${i}`));
    docs.reserve(200_000, 10);
    expect(early.map((_, i) => docs.internString(`early-${i}`))).toEqual(early);
    expect(docs.stringOf(early[2999]!)).toBe('early-2999');
    // more ids and bytes than reserved: the table still grows
    const late = Array.from({ length: 5000 }, (_, i) => docs.intern(b(`late-${i}`), 0, `late-${i}`.length));
    expect(new Set([...early, ...late]).size).toBe(8000);
    expect(docs.size).toBe(8000);
    expect(docs.find(b('late-4999'), 0, 9, docs.hashOf(late[4999]!))).toBe(late[4999]);
    expect(docs.stringOf(late[0]!)).toBe('late-0');
  });

  it('leaves a big qrels file judged as a small one is', () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `q${i % 7} 0 D${(i * 7919) % 50_021} ${i % 3}\n`);
    const qrels = parseQrels(buf(lines.join('')), 'q', new DocTable());
    expect(qrels.qids).toEqual(['q0', 'q1', 'q2', 'q3', 'q4', 'q5', 'q6']);
    const q3 = qrels.byQid.get('q3')!;
    expect(q3.docs.length).toBe(2857);
    expect(qrels.docs.stringOf(q3.docs[1]!)).toBe(`D${(10 * 7919) % 50_021}`);
    expect(q3.rels[1]).toBe(10 % 3);
  });
});

describe('judgedOnly (-J)', () => {
  it('ranks, cuts at -M, then drops docs not judged >= 0, keeping queries left empty', () => {
    const docs = new DocTable();
    const qrels = parseQrels(buf('1 0 a 1\n1 0 b 0\n1 0 c -1\n2 0 z 1\n'), 'q', docs);
    // query 1 ranks e (5), a (4), c (3), b (2); e is not in the qrels and c is judged -1
    const run = parseRun(buf('1 Q0 b 9 2 r\n1 Q0 a 9 4 r\n1 Q0 e 9 5 r\n1 Q0 c 9 3 r\n2 Q0 y 1 1 r\n'), 'r');
    const all = judgedOnly(run, qrels);
    expect(entries(all, '1')).toEqual([
      ['a', 4],
      ['b', 2],
    ]);
    const q2 = all.byQid.get('2')!;
    expect(q2.end - q2.start).toBe(0);
    // -M 2 keeps e and a, then e (unjudged) goes: only a is left
    expect(entries(judgedOnly(run, qrels, 2), '1')).toEqual([['a', 4]]);
  });
});

describe('parseRun', () => {
  it('keeps file order per query, ignores trailing junk, takes the last run id', () => {
    const run = parseRun(buf('1 Q0 a 1 2.5 r1 junk here\n2 Q0 b 1 -3 r1\n1 Q0 c 2 1e-3 r2\n'), 'r.txt');
    expect(run.qids).toEqual(['1', '2']);
    expect(entries(run, '1')).toEqual([
      ['a', 2.5],
      ['c', 0.001],
    ]);
    expect(entries(run, '2')).toEqual([['b', -3]]);
    expect(run.runId).toBe('r2');
  });

  it('skips comment lines (# after optional blanks) and counts them in line numbers', () => {
    const run = parseRun(buf('# header\n  #x\n1 Q0 d1 1 1 r\n\t# y\n1 Q0 d2 2 0.5 r\n'), 'r.txt');
    expect(entries(run, '1').map(([d]) => d)).toEqual(['d1', 'd2']);
    expect([...run.lineOf]).toEqual([3, 5]);
    expect(caught(() => parseRun(buf('# h\n1 Q0 d1 1\n'), 'r.txt')).message).toBe(
      'r.txt:2: expected 6 fields, found 4',
    );
  });

  it('reports file:line for too few fields and a bad score', () => {
    expect(caught(() => parseRun(buf('1 Q0 a 1 2.5 r\n1 Q0 b 2 2.5\n'), 'r.txt')).message).toBe(
      'r.txt:2: expected 6 fields, found 5',
    );
    expect(caught(() => parseRun(buf('1 Q0 a 1 high r\n'), 'r.txt')).message).toBe(
      'r.txt:1: score "high" is not a number',
    );
  });

  it('refuses a document retrieved twice for a query, naming both lines', () => {
    const e = caught(() => parseRun(buf('1 Q0 a 1 2 r\n1 Q0 b 2 1 r\n1 Q0 a 3 0 r\n'), 'r.txt'));
    expect(e.message).toBe('r.txt:3: document a retrieved twice for query 1 (first at line 1)');
  });

  it('compares docnos by bytes (strcmp), including UTF-8', () => {
    const run = parseRun(buf('1 Q0 b 1 1 r\n1 Q0 ab 2 1 r\n1 Q0 é 3 1 r\n'), 'r.txt');
    expect(compareRunDocnos(run, 0, 1)).toBeGreaterThan(0);
    expect(compareRunDocnos(run, 2, 0)).toBeGreaterThan(0); // 0xC3 > 'b'
    expect(byteStringToText(runDocno(run, 2))).toBe('é');
  });

  it('parses scores to the same doubles as Number() (correct rounding)', () => {
    const cases = [
      '2.129133',
      '0.1',
      '1234567890.12345',
      '9007199254740993',
      '-0.0000001',
      '1e308',
      '.5',
      '3.',
    ];
    for (const c of cases) expect(parseDecimal(buf(c), 0, c.length)).toBe(Number(c));
    expect(Number.isNaN(parseDecimal(buf('abc'), 0, 3))).toBe(true);
  });

  it('takes a finite decimal number as a score and nothing else (trec_eval atof reads more)', () => {
    const accepted: [string, number][] = [
      ['1e5', 1e5],
      ['-1.5E-3', -0.0015],
      ['+.5', 0.5],
      ['1.e2', 100],
      ['-0', -0],
      ['007.50', 7.5],
      ['1.7976931348623157e308', Number.MAX_VALUE],
      ['1e-400', 0], // below the smallest double: 0, as atof reads it
      ['12345678901234567890', 1.2345678901234567e19], // correctly rounded
    ];
    for (const [text, v] of accepted) expect(parseDecimal(buf(text), 0, text.length)).toBe(v);
    // what trec_eval's atof (glibc) makes of each:
    // 12.5, 0, NaN, NaN, inf, -inf, inf, inf, -inf, 16, 0, 1, 1, 0, -0, 1.2, 1
    const refused = ['12.5abc', 'high', 'nan', 'NaN', 'inf', '-inf', 'Infinity', '1e400', '-1e400'];
    refused.push('0x10', '0b101', '1e', '1e+', '.', '-', '1.2.3', '1,5');
    for (const text of refused) expect(parseDecimal(buf(text), 0, text.length)).toBeNaN();
    const why = (score: string): string =>
      caught(() => parseRun(buf(`1 Q0 a 1 2 r\n# c\n1 Q0 b 2 ${score} r\n`), 'r.txt')).message;
    expect(why('12.5abc')).toBe('r.txt:3: score "12.5abc" is not a number');
    expect(why('nan')).toBe('r.txt:3: score "nan" is not a finite number');
    expect(why('-Infinity')).toBe('r.txt:3: score "-Infinity" is not a finite number');
    expect(why('1e400')).toBe(
      'r.txt:3: score "1e400" is out of range: beyond the largest double (about 1.8e308)',
    );
    const e = caught(() => parseRun(buf('1 Q0 a 1 inf r\n'), 'r.txt'));
    expect(e.hint).toContain('a score is a finite decimal number');
    expect(e.hint).toContain('trec_eval reads it with atof');
    expect(e.exitCode).toBe(2);
  });

  it('reads a file larger than one 8 MiB chunk, lines spanning chunk ends, non-contiguous queries', () => {
    let text = '';
    for (let i = 0; i < 260_000; i++) text += `q${i % 3} Q0 doc-${i} ${i} ${(1000000 - i) / 7} run-x\n`;
    const path = join(dir, 'big.run');
    writeFileSync(path, text);
    const run = readRunFile(path);
    expect(run.qids).toEqual(['q0', 'q1', 'q2']);
    const q1 = run.byQid.get('q1')!;
    expect(q1.end - q1.start).toBe(86_667);
    expect(runDocno(run, q1.start)).toBe('doc-1');
    expect(run.scores[q1.start + 1]).toBe((1000000 - 4) / 7);
    expect(run.lineOf[q1.start + 1]).toBe(5);
  });

  it('readQrelsFile / readRunFile: a missing file is file_not_found (exit 2)', () => {
    const e = caught(() => readQrelsFile(join(dir, 'nope.txt')));
    expect(e.code).toBe('file_not_found');
    expect(caught(() => readRunFile(join(dir, 'nope.txt'))).code).toBe('file_not_found');
    // any other open failure is an input error naming the path, not an internal error
    const long = caught(() => readRunFile(join(dir, 'x'.repeat(300))));
    expect(long.exitCode).toBe(2);
    expect(long.message).toMatch(/x{300}: cannot be opened \(ENAMETOOLONG/);
  });
});

describe('writeRun / runFromRows', () => {
  it('writes lines that read back to the same docnos and doubles', () => {
    const rows = [
      { qid: 'q1', docno: 'd1', rank: 1, score: 0.1 + 0.2 },
      { qid: 'q1', docno: 'd2', rank: 2, score: 1 / 3 },
    ];
    const text = writeRun(rows, 'mine');
    expect(text).toBe('q1 Q0 d1 1 0.30000000000000004 mine\nq1 Q0 d2 2 0.3333333333333333 mine\n');
    const back = parseRun(buf(text), 'r');
    expect(entries(back, 'q1')).toEqual([
      ['d1', 0.1 + 0.2],
      ['d2', 1 / 3],
    ]);
    const mem = runFromRows(rows, 'mine');
    expect(entries(mem, 'q1')).toEqual(entries(back, 'q1'));
  });

  it('refuses ids with whitespace and non-finite scores', () => {
    expect(() => writeRun([{ qid: 'q 1', docno: 'd', rank: 1, score: 1 }], 'r')).toThrow(RgateError);
    expect(() => writeRun([{ qid: 'q', docno: 'd', rank: 1, score: NaN }], 'r')).toThrow(/not finite/);
    expect(() => writeRun([], 'two words')).toThrow(/run id/);
  });
});

describe('readRunFile on two threads (the compiled worker in dist/)', () => {
  // The worker runs compiled JavaScript, so this exercises dist/ (built by `tsc -p .`, which
  // `npm test` runs first); the single-thread path above is the reference it must equal.
  const distTrec = join(import.meta.dirname, '../../dist/src/trec/index.js');
  const built = existsSync(join(import.meta.dirname, '../../dist/src/trec/run-read-worker.js'));
  type Mod = typeof import('./index.js');
  const load = async (): Promise<Mod> => (await import(pathToFileURL(distTrec).href)) as Mod;

  it.skipIf(!built)(
    'gives exactly the single-thread result: order, queries split across halves, lines',
    async () => {
      const m = await load();
      // queries interleaved line by line, then grouped (queries split across the two halves both times)
      for (const grouped of [false, true]) {
        let text = '';
        for (let i = 0; i < 30_000; i++) {
          const q = grouped ? Math.floor(i / 6000) : (i * 7) % 5;
          text += `q${q} Q0 d${i % 9000}-${i} ${i} ${(i % 13) / 4} r${i % 3}\n`;
        }
        const path = join(dir, 'split.run');
        writeFileSync(path, text);
        const one = m.readRunFile(path, { threads: 1 });
        const two = m.readRunFile(path, { threads: 2 });
        expect(two.qids).toEqual(one.qids);
        expect(two.runId).toBe(one.runId);
        expect(two.lines).toBe(one.lines);
        for (const qid of one.qids) {
          const a = one.byQid.get(qid)!;
          const b = two.byQid.get(qid)!;
          const rows = (run: typeof one, q: typeof a) =>
            Array.from({ length: q.end - q.start }, (_, k) => [
              m.runDocno(run, q.start + k),
              run.scores[q.start + k],
              run.lineOf[q.start + k],
            ]);
          expect(rows(two, b)).toEqual(rows(one, a));
        }
      }
    },
  );

  it.skipIf(!built)(
    'startRunRead: the worker starts first, result() gives the same run; errors wait for result()',
    async () => {
      const m = await load();
      let text = '';
      for (let i = 0; i < 20_000; i++) text += `q${Math.floor(i / 3000)} Q0 d${i} ${i} ${i % 7} r\n`;
      const path = join(dir, 'started.run');
      writeFileSync(path, text);
      const reading = m.startRunRead(path, { threads: 2 });
      const one = m.readRunFile(path, { threads: 1 });
      const two = reading.result();
      expect(two.qids).toEqual(one.qids);
      expect(Array.from(two.scores)).toEqual(Array.from(one.scores));
      expect(Array.from(two.lineOf)).toEqual(Array.from(one.lineOf));
      // cancelled before result(): nothing is read, nothing thrown
      m.startRunRead(path, { threads: 2 }).cancel();
      const missing = m.startRunRead(join(dir, 'no-such.run'), { threads: 2 });
      expect(() => missing.result()).toThrow(/no-such\.run/);
      writeFileSync(path, '# only a comment\n');
      expect(() => m.startRunRead(path, { threads: 2 }).result()).toThrow('started.run: no results');
    },
  );

  it.skipIf(!built)('reports an error in the second half with its true line number', async () => {
    const m = await load();
    let text = '';
    for (let i = 0; i < 2000; i++) text += `q1 Q0 d${i} ${i} 1 r\n`;
    text += 'q1 Q0 broken 1\n';
    const path = join(dir, 'split-bad.run');
    writeFileSync(path, text);
    expect(() => m.readRunFile(path, { threads: 2 })).toThrow(
      'split-bad.run:2001: expected 6 fields, found 4',
    );
    writeFileSync(path, text.replace('q1 Q0 broken 1\n', 'q1 Q0 d5 1 1 r\n'));
    expect(() => m.readRunFile(path, { threads: 2 })).toThrow(
      'split-bad.run:2001: document d5 retrieved twice for query q1 (first at line 6)',
    );
  });
});

describe('run qids interned by their bytes', () => {
  it('2,000 queries interleaved line by line keep first-appearance order and their own results', () => {
    // qids of different lengths sharing prefixes, and a non-ASCII one: the table compares bytes
    const qids = Array.from({ length: 2000 }, (_, i) => (i === 7 ? 'qé7' : `q${i}`));
    let text = '';
    for (let r = 0; r < 3; r++) for (const q of qids) text += `${q} Q0 ${q}-d${r} ${r + 1} ${3 - r} run\n`;
    const run = parseRun(buf(text), 'run');
    expect(run.qids.map(byteStringToText)).toEqual(qids);
    const q = Buffer.from('qé7', 'utf8').toString('latin1');
    expect(entries(run, q).map(([d]) => byteStringToText(d))).toEqual(['qé7-d0', 'qé7-d1', 'qé7-d2']);
    expect(entries(run, 'q1999')).toEqual([
      ['q1999-d0', 3],
      ['q1999-d1', 2],
      ['q1999-d2', 1],
    ]);
  });
});
