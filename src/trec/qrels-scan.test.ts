/**
 * parseQrels reads pieces in WebAssembly (run-scan.wat's `qrels`) and falls back to its JS loop for
 * a piece the scanner declines: both must give the same judgments and the same errors, lines
 * counted across pieces.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseQrels, type Qrels } from './qrels-read.js';
import { useRunScanner } from './run-scan.js';

afterEach(() => useRunScanner(true));

/** Every query's judgments as text, in the qrels' query order. */
function flat(q: Qrels): string[] {
  const out: string[] = [];
  for (const qid of q.qids) {
    const j = q.byQid.get(qid)!;
    j.docs.forEach((d, k) => out.push(`${qid} ${q.docs.stringOf(d)} ${j.rels[k]}`));
  }
  return out;
}

function both(text: string): { scanned: Qrels | string; js: Qrels | string } {
  const run = (scanner: boolean): Qrels | string => {
    useRunScanner(scanner);
    try {
      return parseQrels(Buffer.from(text, 'latin1'), 'q.txt');
    } catch (e) {
      return (e as Error).message;
    }
  };
  return { scanned: run(true), js: run(false) };
}

/**
 * ~20,000 lines (~600 KB: several of the scanner's 256 KiB pieces) in every shape a line may take:
 * tabs, CRLF, blank and comment lines, negative grades, queries coming back, long docnos.
 */
function qrelsText(extra: (i: number) => string = () => ''): string {
  const lines: string[] = [];
  for (let i = 0; i < 20_000; i++) {
    const q = i % 7 === 0 ? `q${(i * 13) % 50}` : `q${Math.floor(i / 400)}`;
    const doc = i % 97 === 0 ? `LONG-${'x'.repeat(300)}-${i}` : `D${i}`;
    const grade = i % 11 === 0 ? -1 : i % 5;
    const sep = i % 3 === 0 ? '\t' : ' ';
    lines.push(`${q}${sep}0 ${doc}${sep}${grade}${i % 17 === 0 ? '\r' : ''}${extra(i)}`);
    if (i % 1000 === 0) lines.push('');
    // a comment line makes the scanner decline its piece: two, so that most pieces are scanned
    if (i === 0 || i === 12_000) lines.push('# a comment');
  }
  return lines.join('\n') + '\n';
}

describe('parseQrels with and without the WebAssembly scanner', () => {
  it('reads the same judgments from many pieces, queries coming back among them', () => {
    const { scanned, js } = both(qrelsText());
    expect(typeof scanned).not.toBe('string');
    expect(flat(scanned as Qrels)).toEqual(flat(js as Qrels));
    expect((scanned as Qrels).qids.length).toBe(50);
  });

  it('reads the pieces the scanner declines (grades "+1", 10 digits) the long way, the rest scanned', () => {
    // lines 3 and 15,000 are written with tabs (every third line is)
    const text = qrelsText().replace('q37\t0 D15000\t0', 'q37\t0 D15000\t+1');
    // ten digits (leading zeros: a grade over MAX_GRADE is refused whichever path reads it)
    const ten = text.replace('q0\t0 D3\t3', 'q0\t0 D3\t0000000003');
    expect(ten).not.toBe(text);
    expect(text).not.toBe(qrelsText());
    for (const t of [text, ten]) {
      const { scanned, js } = both(t);
      expect(flat(scanned as Qrels)).toEqual(flat(js as Qrels));
    }
    expect(flat(both(ten).scanned as Qrels)).toContain('q0 D3 3');
    expect(flat(both(ten).scanned as Qrels)).toContain('q37 D15000 1');
  });

  it('names the same line for a bad line and a document judged twice, in any piece', () => {
    const cases = [
      qrelsText((i) => (i === 18_000 ? ' extra' : '')),
      qrelsText((i) => (i === 3 ? ' 1' : '')),
      qrelsText().replace('q45 0 D18001 1', 'q45 0 D18001 1.5'),
      // a comment trec_eval 10 reads as a judgment, in a piece the scanner would otherwise take
      qrelsText((i) => (i === 18_000 ? '\n  # after blanks' : '')),
      qrelsText((i) => (i === 18_000 ? '\n# one\n# two' : '')),
      // D5 judged again for q0, ~19,000 lines later (its first line is 8: a blank and a comment line precede it)
      qrelsText() + 'q0 0 D5 1\n',
    ];
    for (const text of cases) {
      const { scanned, js } = both(text);
      expect(typeof scanned).toBe('string');
      expect(scanned).toEqual(js);
    }
    expect(both(cases[5]!).scanned).toMatch(
      /q\.txt:\d+: query q0 judges document D5 twice \(first at line 8\)/,
    );
  });
});
