import { describe, expect, it } from 'vitest';
import { fittedTable, type FitColumn } from './fitted-table.js';

const SET: FitColumn[] = [
  { head: 'query', width: 10 },
  { head: 'expected', width: 20, kind: 'text' },
  { head: 'actual', width: 48, kind: 'text' },
];

describe('fittedTable', () => {
  it('keeps set widths at 80 columns while every value fits them', () => {
    const lines = fittedTable(SET, [['q-1', 'a b', 'c']], 80);
    expect(lines).toEqual(['query      expected             actual', 'q-1        a b                  c']);
  });

  it("gives a wider line's room to the text columns that wrap, not to the ids", () => {
    const long = 'error: timeout after 5000 ms; '.repeat(2).trim();
    const at80 = fittedTable(SET, [['q-1', 'a', long]], 80);
    const at120 = fittedTable(SET, [['q-1', 'a', long]], 120);
    expect(at80).toHaveLength(3);
    expect(at120).toEqual([
      'query      expected             actual',
      `q-1        a                    ${long}`,
    ]);
  });

  it('lays out from the content when an id is wider than its set width', () => {
    const id = 'scifact/test/q-0000000003';
    expect(fittedTable(SET, [[id, 'a', 'b']], 80)[1]).toBe(`${id} a        b`);
  });

  it('prints a note between rows as given, in a table and in stacked rows', () => {
    const rows = [['q-1', 'a', 'b'], { note: '  why: "text"' }, ['q-2', 'c', 'd']];
    expect(fittedTable(SET, rows, 80)).toEqual([
      'query      expected             actual',
      'q-1        a                    b',
      '  why: "text"',
      'q-2        c                    d',
    ]);
    const cols: FitColumn[] = [{ head: 'query' }, { head: 'expected' }, { head: 'actual' }];
    const wide = [['q-0000000000000001', 'rec-0000000000001', 'rec-0000000000002'], { note: '  n' }];
    expect(fittedTable(cols, wide, 40)).toEqual([
      'q-0000000000000001',
      '  expected rec-0000000000001',
      '  actual rec-0000000000002',
      '  n',
    ]);
  });

  it('indents a stacked value less rather than split an id that fits the line', () => {
    const id = 'notes/config@v1#531f975bd589a7d3+overrides'; // 42 columns
    const lines = fittedTable([{ head: 'artifact' }, { head: 'id' }], [['config_id', id]], 45);
    expect(lines).toEqual(['config_id', '  id', `   ${id}`]);
  });
});
