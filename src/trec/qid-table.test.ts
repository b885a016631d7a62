import { describe, expect, it } from 'vitest';
import { hashBytes } from './bytes.js';
import { QidTable } from './qid-table.js';

const bytes = (s: string): Buffer => Buffer.from(s, 'latin1');

function indexOf(t: QidTable, line: string, s: number, e: number): number {
  const b = bytes(line);
  return t.indexOfBytes(b, s, e, hashBytes(b, s, e));
}

describe('QidTable', () => {
  it('numbers qids in first-appearance order and finds a qid again by its bytes anywhere in a buffer', () => {
    const t = new QidTable();
    expect(indexOf(t, '301 Q0 d', 0, 3)).toBe(0);
    expect(indexOf(t, 'x 302 y', 2, 5)).toBe(1);
    expect(indexOf(t, 'abc301', 3, 6)).toBe(0);
    expect(t.indexOf('302')).toBe(1);
    expect(t.indexOf('30')).toBe(2);
    expect(t.qids).toEqual(['301', '302', '30']);
    expect(t.size).toBe(3);
  });

  it('tells qids with the same hash apart by their bytes', () => {
    const t = new QidTable();
    // the hash is the caller's: give two different qids the same one
    expect(t.indexOfBytes(bytes('q1'), 0, 2, 7)).toBe(0);
    expect(t.indexOfBytes(bytes('q2'), 0, 2, 7)).toBe(1);
    expect(t.indexOfBytes(bytes('q22'), 0, 3, 7)).toBe(2);
    expect(t.indexOfBytes(bytes('q2'), 0, 2, 7)).toBe(1);
    expect(t.indexOfBytes(bytes('q1'), 0, 2, 7)).toBe(0);
  });

  it('keeps every qid through its tables growing, non-ASCII bytes included', () => {
    const t = new QidTable();
    const qids = Array.from({ length: 5000 }, (_, i) => (i % 7 === 0 ? `q\u00e9-${i}` : `${i * 31}`));
    qids.forEach((q, i) => expect(t.indexOf(q)).toBe(i));
    qids.forEach((q, i) => expect(t.indexOf(q)).toBe(i));
    expect(t.qids).toEqual(qids);
    // a long qid overflows the first byte arena on its own
    const long = 'L'.repeat(10_000);
    expect(t.indexOf(long)).toBe(5000);
    expect(t.indexOf(long)).toBe(5000);
  });
});
