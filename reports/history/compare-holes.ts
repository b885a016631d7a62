/**
 * The judgment holes of a comparison, in each medium: per variant, how many documents in its top k
 * the qrels do not judge. A variant that wins by ranking unjudged documents has not been shown
 * better; this says so before anyone reads the deltas. Sessions made before holes were counted have
 * none, and then nothing is drawn.
 */
import type { CompareSession, JudgmentHoles } from '../../src/documents/index.js';
import { mdEscape } from '../escape.js';
import { safe, type Paint } from './shared.js';
import { fittedTable } from '../fitted-table.js';
import { wrap } from '../wrap.js';

interface HoleRow {
  id: string;
  label: string;
  cells: { k: number; text: string; any: boolean }[];
}

function cell(h: JudgmentHoles): { k: number; text: string; any: boolean } {
  const share = h.ranked ? ` (${((100 * h.unjudged) / h.ranked).toFixed(1)}%)` : '';
  return {
    k: h.k,
    text: `${h.unjudged}/${h.ranked}${share}, ${h.queries_with_unjudged}/${h.queries} q`,
    any: h.unjudged > 0,
  };
}

function rows(s: CompareSession): HoleRow[] {
  return s.variants
    .filter((v) => v.judgment_holes?.length)
    .map((v) => ({ id: v.id, label: v.label, cells: v.judgment_holes!.map(cell) }));
}

function cutoffs(s: CompareSession): number[] {
  return s.variants.find((v) => v.judgment_holes?.length)?.judgment_holes?.map((h) => h.k) ?? [];
}

const EXPLAIN = 'unjudged/ranked documents in the top k, then queries with a hole/queries with qrels';

function hint(s: CompareSession): string {
  return `grade them: rgate label queue ${s.environment.session_id}`;
}

/** Terminal lines of at most `width` (empty when the session has no hole counts). */
export function holesTerminal(s: CompareSession, p: Paint, width: number): string[] {
  const r = rows(s);
  if (!r.length) return [];
  const t = fittedTable(
    [
      { head: 'id' },
      { head: 'variant', kind: 'text' },
      ...cutoffs(s).map((k) => ({ head: `unjudged @${k}`, kind: 'text' as const })),
    ],
    r.map((row) => [row.id, safe(row.label), ...row.cells.map((c) => c.text)]),
    width,
  );
  const out = [p('bold', 'Judgment holes'), ...wrap(EXPLAIN, width, '    ', '  '), ...t];
  if (r.some((row) => row.cells.some((c) => c.any))) out.push(...wrap(safe(hint(s)), width, '    ', '  '));
  return [...out, ''];
}

/** Markdown lines (empty when the session has no hole counts). */
export function holesMarkdown(s: CompareSession): string[] {
  const r = rows(s);
  if (!r.length) return [];
  const ks = cutoffs(s);
  const out = [
    '',
    '### Judgment holes',
    '',
    `${EXPLAIN}.`,
    '',
    `| id | variant | ${ks.map((k) => `unjudged @${k}`).join(' | ')} |`,
    `| --- | --- | ${ks.map(() => '---').join(' | ')} |`,
  ];
  for (const row of r)
    out.push(`| ${row.id} | ${mdEscape(row.label)} | ${row.cells.map((c) => c.text).join(' | ')} |`);
  if (r.some((row) => row.cells.some((c) => c.any))) out.push('', `\`${hint(s)}\``);
  return out;
}

/** What compare.hbs draws in its holes section (null: no section). */
export function holesView(s: CompareSession) {
  const r = rows(s);
  if (!r.length) return null;
  return {
    cutoffs: cutoffs(s),
    explain: EXPLAIN,
    rows: r,
    hint: r.some((row) => row.cells.some((c) => c.any)) ? hint(s) : '',
  };
}
