/**
 * A borderless table laid out for a terminal of a given width. An identifier (a metric name, a run
 * or query id, a number) is never broken: its column is as wide as its longest value. Free text
 * wraps at spaces in the room left over. When even that does not fit, each row becomes a block (its
 * first cell on a line, then "heading value" pairs packed under it), so nothing is cut or split
 * mid-name at any width. Lines carry no trailing padding.
 *
 * A table drawn for 80 columns (the run report's) gives each column a set `width`: that layout is
 * kept wherever it fits and breaks nothing, so output to a pipe reads as it always has, and the
 * content decides only where the set widths would split a value or the line is narrower.
 */
import { borderlessTable } from './borderless-table.js';
import { wrap } from './wrap.js';

export interface FitColumn {
  head: string;
  /** `id` (the default): shown whole; `text`: may wrap between words */
  kind?: 'id' | 'text';
  /**
   * Its width in a layout drawn for an 80-column line (all columns have one or none does). Kept
   * while every value fits it (an id whole, a text's longest word) and the line has room; a wider
   * line's extra columns go to the text columns that still wrap.
   */
  width?: number;
}

/** A line of the caller's own under the row before it, across the table (a failing query's text). */
export interface FitNote {
  note: string;
}

export type FitRow = readonly string[] | FitNote;

/** The line a set-width layout is drawn for: the width of output to a pipe or a file. */
const SET_FOR = 80;

const isNote = (r: FitRow): r is FitNote => !Array.isArray(r);

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
  const set = columns.map((c) => c.width ?? 0);
  if (columns.every((c) => c.width !== undefined) && sum(set) <= room && least.every((w, i) => w <= set[i]!))
    return widen(set, natural, width - SET_FOR);
  if (sum(natural) <= room) return natural;
  if (sum(least) > room) return null;
  return widen(least, natural, room - sum(least));
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** `spare` columns given one at a time to the column furthest from its natural width. */
function widen(start: readonly number[], natural: readonly number[], spare: number): number[] {
  const widths = [...start];
  for (; spare > 0; spare--) {
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
      // under its heading by four, or less when that would split an id that fits the line
      const room = width - longest([item], words);
      const [first = '', ...rest] = wrap(item, width, ' '.repeat(Math.max(0, Math.min(4, room))), '  ');
      out.push(...[first, ...rest].slice(0, -1));
      line = [first, ...rest].at(-1)!;
    }
  }
  if (line) out.push(line);
  return out;
}

/**
 * The table's lines, at most `width` columns each (unless one identifier alone is wider); a note is
 * printed as given, so the caller keeps it within `width`.
 */
export function fittedTable(columns: readonly FitColumn[], rows: readonly FitRow[], width: number): string[] {
  const cells = rows.filter((r): r is readonly string[] => !isNote(r)).map((r) => [...r]);
  const widths = columnWidths(columns, cells, width);
  if (!widths) return rows.flatMap((r) => (isNote(r) ? [r.note] : stackedRow(columns, r, width)));
  const colWidths = widths.map((w) => Math.max(1, w));
  // a borderless table is its rows' lines one after another, so a note goes between two tables
  const lines: string[] = [];
  let t = borderlessTable(
    columns.map((c) => c.head),
    colWidths,
  );
  let drawn = false;
  const flush = () => {
    if (!drawn) lines.push(...t.toString().split('\n'));
    t = borderlessTable([], colWidths);
    drawn = true;
  };
  for (const r of rows) {
    if (isNote(r)) {
      flush();
      lines.push(r.note);
    } else {
      t.push([...r]);
      drawn = false;
    }
  }
  flush();
  return lines.map((l) => l.replace(/[ ]+$/, ''));
}
