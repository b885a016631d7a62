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

const SHOWN_PAIRS = 10;

/**
 * One sentence per ranking measure and top-1 rate: its unjudged pairs within its depth (the top-1s) and whether grading them
 * (all 0, all the set's top grade) flips its winner; empty for a session whose variants kept no
 * rankings (it says so once) or that had no query set at hand.
 */
export function winnerHolesLines(s: CompareSession): string[] {
  if (!s.winner_holes) {
    return s.variants.some((v) => !v.rankings)
      ? [
          // said so it is true of both: a session stored before rankings were kept, and stored runs
          // compared on the dashboard (their reports carry no scored rankings)
          `Winners under judgment holes: not available: this comparison keeps no scored ranking of its variants (a session made before rgate compare kept them, or stored runs compared by their reports); rgate compare ${s.suite} names the pairs whose grade could flip a winner`,
        ]
      : [];
  }
  const name = (w: string | null) => w ?? 'no winner';
  const kept = (s.winner_holes_not_rescored ?? []).map(
    (n) =>
      `${n.metric} (top-1): not re-scored: needs ${n.needs}; winner ${name(s.winners.find((w) => w.metric === n.metric)?.winner ?? null)} as measured`,
  );
  const lines = s.winner_holes.map((h) => {
    // a top-1 rate (top1_useful_rate, top1_useful_any_mode) reads one document per answer
    const top1 = h.metric.startsWith('top1_');
    const at = `${h.metric} (${top1 ? 'top-1' : h.depth === null ? 'whole ranking' : `depth ${h.depth}`})`;
    if (!h.pairs.length)
      return `${at}: no unjudged ${top1 ? 'top-1 of any variant' : 'document within the depth of any variant'}; winner ${name(h.winner)}`;
    const n = `${h.pairs.length} unjudged pair${h.pairs.length === 1 ? '' : 's'}`;
    const ends = `graded 0: ${name(h.with_zero)}; graded ${h.top_grade}: ${name(h.with_top)}`;
    if (!h.can_flip) return `${at}: ${n}; winner ${name(h.winner)} either way (${ends})`;
    const shown = h.pairs
      .slice(0, SHOWN_PAIRS)
      .map((p) => `${p.query_id}/${p.doc_id}`)
      .join(', ');
    const more = h.pairs.length > SHOWN_PAIRS ? ` +${h.pairs.length - SHOWN_PAIRS} more` : '';
    return `${at}: ${n} can FLIP the winner ${name(h.winner)} (${ends}): ${shown}${more}`;
  });
  return [...lines, ...kept];
}

const FLIP_HINT = (s: CompareSession) =>
  `grade them first: rgate label pool ${s.suite} --priority verdict --session ${s.environment.session_id}`;

/** Terminal lines of the winners under holes (empty when there is nothing to say). */
export function winnerHolesTerminal(s: CompareSession, p: Paint, width: number): string[] {
  const lines = winnerHolesLines(s);
  if (!lines.length) return [];
  const out = [p('bold', 'Winners under judgment holes')];
  for (const l of lines) out.push(...wrap(safe(l), width, '    ', '  '));
  if (s.winner_holes?.some((h) => h.can_flip)) out.push(...wrap(safe(FLIP_HINT(s)), width, '    ', '  '));
  return [...out, ''];
}

/** Markdown lines of the winners under holes. */
export function winnerHolesMarkdown(s: CompareSession): string[] {
  const lines = winnerHolesLines(s);
  if (!lines.length) return [];
  const out = ['', '### Winners under judgment holes', '', ...lines.map((l) => `- ${mdEscape(l)}`)];
  if (s.winner_holes?.some((h) => h.can_flip)) out.push('', `\`${FLIP_HINT(s)}\``);
  return out;
}

/** What compare.hbs draws in its winners-under-holes section (null: no section). */
export function winnerHolesView(s: CompareSession) {
  const lines = winnerHolesLines(s);
  if (!lines.length) return null;
  return { lines, hint: s.winner_holes?.some((h) => h.can_flip) ? FLIP_HINT(s) : '' };
}
