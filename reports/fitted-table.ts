/**
 * A borderless table laid out for a terminal of a given width. An identifier (a metric name, a run
 * or query id, a number) is never broken: its column is as wide as its longest value. Free text
 * wraps at spaces in the room left over. When even that does not fit, each row becomes a block (its
 * first cell on a line, then "heading value" pairs packed under it), so nothing is cut or split
 * mid-name at any width. Lines carry no trailing padding.
 */
import { borderlessTable } from './borderless-table.js';
import { wrap } from './wrap.js';

export interface FitColumn {
  head: string;
  /** `id` (the default): shown whole; `text`: may wrap between words */
  kind?: 'id' | 'text';
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

/** Columns a string takes on a terminal (colour codes take none). */
function visibleLength(s: string): number {
  return [...s.replace(ANSI, '')].length;
}

function longest(values: readonly string[], pieces: (v: string) => string[]): number {
  return Math.max(0, ...values.flatMap((v) => pieces(v).map(visibleLength)));
}

const lines = (v: string) => v.split('\n');
const words = (v: string) => v.split(/\s+/);

/** Each column's width when the table fits `width`, else null (the rows are then stacked). */
function columnWidths(
  columns: readonly FitColumn[],
  rows: readonly string[][],
  width: number,
): number[] | null {
  const cells = columns.map((c, i) => [c.head, ...rows.map((r) => r[i] ?? '')]);
  const natural = cells.map((values) => longest(values, lines));
  const least = cells.map((values, i) =>
    columns[i]!.kind === 'text' ? longest(values, words) : natural[i]!,
  );
  const room = width - (columns.length - 1);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  if (sum(natural) <= room) return natural;
  if (sum(least) > room) return null;
  // the spare columns go one at a time to the text column furthest from its natural width
  const widths = [...least];
  for (let spare = room - sum(least); spare > 0; spare--) {
    let best = -1;
    for (let i = 0; i < widths.length; i++) {
      const short = natural[i]! - widths[i]!;
      if (short > 0 && (best < 0 || short > natural[best]! - widths[best]!)) best = i;
    }
    if (best < 0) break;
    widths[best]!++;
  }
  return widths;
}

/**
 * One row as a block: its first cell, then "heading value" pairs joined by " · " on lines of at most
 * `width`, indented two spaces; a pair too long for a line of its own wraps between words.
 */
function stackedRow(columns: readonly FitColumn[], row: readonly string[], width: number): string[] {
  const flat = (v: string) => v.split('\n').join(' ').trim();
  const out = wrap(flat(row[0] ?? ''), width, '  ');
  let line = '';
  for (let i = 1; i < columns.length; i++) {
    const value = flat(row[i] ?? '');
    if (!value) continue;
    const item = `${columns[i]!.head} ${value}`;
    if (line && visibleLength(line) + 3 + visibleLength(item) <= width) {
      line += ` · ${item}`;
      continue;
    }
    if (line) out.push(line);
    line = `  ${item}`;
    if (visibleLength(line) > width) {
      const [first = '', ...rest] = wrap(item, width, '    ', '  ');
      out.push(...[first, ...rest].slice(0, -1));
      line = [first, ...rest].at(-1)!;
    }
  }
  if (line) out.push(line);
  return out;
}

/** The table's lines, at most `width` columns each (unless one identifier alone is wider). */
export function fittedTable(
  columns: readonly FitColumn[],
  rows: readonly string[][],
  width: number,
): string[] {
  const widths = columnWidths(columns, rows, width);
  if (!widths) return rows.flatMap((r) => stackedRow(columns, r, width));
  const t = borderlessTable(
    columns.map((c) => c.head),
    widths.map((w) => Math.max(1, w)),
  );
  for (const r of rows) t.push([...r]);
  return t
    .toString()
    .split('\n')
    .map((l) => l.replace(/[ ]+$/, ''));
}
