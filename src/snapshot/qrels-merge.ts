/**
 * `rgate label merge`: graded (query, doc) pairs from a judgments file go into a fixture set's qrels,
 * each with who judged it and when (`judged_by`). Everything is checked before anything is written:
 * every line against the schema, every id against the set, no two grades for one pair (in the file,
 * or against the qrels already there), and a frozen set only moves with a version bump and a reset
 * note. The write goes through importSafely, so a refusal leaves every file as it was.
 */
import { appendFileSync, copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { compareCodeUnits, storedJson } from '../core/canonical-json.js';
import { isRgateError, RgateError } from '../core/errors.js';
import { parseJsonl, readTextFile } from '../core/jsonl.js';
import type { LabelJudgment, LabelMergeOutput, MergedJudgment } from '../documents/index.js';
import { validateOrThrow } from '../contracts/ajv.js';
import { validateLabelJudgment } from '../contracts/label-judgment.js';
import { loadFixtureSet } from './fixture-set.js';
import { hasFreeze, readFreeze } from './freeze-file.js';
import { importSafely } from './import-safely.js';
import type { WriteFreezeResult } from './freeze-write.js';
import { FIXTURE_FILES, type PinnedSuite } from './types.js';
import { compareVersions, nextVersion } from './version.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const HINT =
  'one JSON object per line: {"query_id": "...", "doc_id": "...", "grade": 0-3, "date": "YYYY-MM-DD"}';

export interface QrelsMergeOptions {
  /** who graded (recorded on every merged entry) */
  judge: string;
  /** YYYY-MM-DD for lines that carry no date; also freeze.json's date when the set is re-frozen */
  date?: string;
  /** a frozen set needs both */
  version?: string;
  resetNote?: string;
  /** check everything, write nothing */
  dryRun?: boolean;
}

/** One judgment as merged: its line, and whether it adds a grade or restates one already there. */

/** What a merge did: the label-merge document's fields, with the freeze it made kept whole. */
export type QrelsMergeResult = Omit<LabelMergeOutput, 'freeze'> & { frozen?: WriteFreezeResult };

/** Read and check a judgments file: the schema per line (file:line /path: message, exit 2). */
export function readJudgments(path: string): { line: number; value: LabelJudgment }[] {
  const label = basename(path);
  const lines = parseJsonl(readTextFile(path), label).map((l) => ({
    line: l.line,
    value: validateOrThrow(validateLabelJudgment, l.value, { file: label, line: l.line }, HINT),
  }));
  if (!lines.length)
    throw new RgateError(
      'input_invalid',
      `${label}: no judgments`,
      'grade some documents in the queue page first',
    );
  return lines;
}

function checkDate(date: string, where: string): void {
  const d = new Date(`${date}T00:00:00Z`);
  if (!DATE.test(date) || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== date)
    throw new RgateError(
      'usage',
      `${where} ${date}: not a calendar date`,
      'expected YYYY-MM-DD, e.g. 2026-11-23',
    );
}

/** 1-based line of each query id in queries.jsonl (to name the qrels a judgment conflicts with). */
function queryLines(set: PinnedSuite): Map<string, number> {
  const text = readFileSync(join(set.dir, FIXTURE_FILES.query_set), 'utf8');
  const out = new Map<string, number>();
  for (const l of parseJsonl(text, FIXTURE_FILES.query_set)) {
    const id = (l.value as { query_id?: unknown }).query_id;
    if (typeof id === 'string') out.set(id, l.line);
  }
  return out;
}

/**
 * Check the judgments against the set and decide each one. Pure apart from reading queries.jsonl for
 * line numbers; throws the first problem found, naming the file, line and JSON path.
 */
export function planQrelsMerge(
  set: PinnedSuite,
  file: string,
  lines: readonly { line: number; value: LabelJudgment }[],
  opts: { date?: string },
): MergedJudgment[] {
  const label = basename(file);
  const queries = new Map(set.queries.map((q) => [q.query_id, q]));
  const docs = new Set(set.corpus.map((d) => d.id));
  const qLines = queryLines(set);
  const seen = new Map<string, { grade: number; line: number }>();
  const out: MergedJudgment[] = [];
  for (const { line, value: j } of lines) {
    const at = `${label}:${line}`;
    const q = queries.get(j.query_id);
    if (!q)
      throw new RgateError(
        'input_invalid',
        `${at} /query_id: no query "${j.query_id}" in ${set.name}/${FIXTURE_FILES.query_set}`,
        'was the queue made from another set? rgate label merge <set> takes the set the run used',
      );
    if (!docs.has(j.doc_id))
      throw new RgateError(
        'input_invalid',
        `${at} /doc_id: no document "${j.doc_id}" in ${set.name}/${FIXTURE_FILES.corpus}`,
        'judgments can only be merged for documents of the pinned corpus',
      );
    const date = j.date ?? opts.date;
    if (date === undefined)
      throw new RgateError(
        'input_invalid',
        `${at} /date: missing, and no --date given`,
        'add --date YYYY-MM-DD (the day the grades were given); the date is recorded in the query set',
      );
    if (j.date !== undefined) checkDate(j.date, `${at} /date:`);
    const key = `${j.query_id}\u0000${j.doc_id}`;
    const before = seen.get(key);
    if (before && before.grade !== j.grade)
      throw new RgateError(
        'input_invalid',
        `${at} /grade: ${j.grade} for (${j.query_id}, ${j.doc_id}) conflicts with grade ${before.grade} on line ${before.line}`,
        'keep one grade per (query, doc): delete or correct one of the two lines',
      );
    const existing = q.qrels && Object.hasOwn(q.qrels, j.doc_id) ? q.qrels[j.doc_id] : undefined;
    if (existing !== undefined && existing !== j.grade)
      throw new RgateError(
        'input_invalid',
        `${at} /grade: ${j.grade} for (${j.query_id}, ${j.doc_id}) conflicts with the qrels' grade ${existing} (${FIXTURE_FILES.query_set}:${qLines.get(j.query_id) ?? '?'} /qrels/${j.doc_id})`,
        'a merge never overwrites a judgment: drop the line, or change the qrels by hand and re-freeze with a reset note',
      );
    seen.set(key, { grade: j.grade, line });
    out.push({
      line,
      query_id: j.query_id,
      doc_id: j.doc_id,
      grade: j.grade,
      date,
      action: existing !== undefined || before ? 'unchanged' : 'added',
    });
  }
  return out;
}

/** queries.jsonl with the added judgments: touched lines re-serialised canonically, the rest byte for byte. */
function mergedQueryText(dir: string, added: readonly MergedJudgment[], judge: string): string {
  const byQuery = new Map<string, MergedJudgment[]>();
  for (const a of added) {
    const list = byQuery.get(a.query_id) ?? [];
    list.push(a);
    byQuery.set(a.query_id, list);
  }
  const lines = readFileSync(join(dir, FIXTURE_FILES.query_set), 'utf8').split('\n');
  return lines
    .map((raw, i) => {
      const body = (i === 0 ? raw.replace(/^\uFEFF/, '') : raw).replace(/\r$/, '');
      if (!body.trim()) return raw;
      const rec = JSON.parse(body) as Record<string, unknown> & { query_id: string };
      const mine = byQuery.get(rec.query_id);
      if (!mine) return raw;
      const qrels = { ...((rec['qrels'] as Record<string, number> | undefined) ?? {}) };
      const judgedBy = { ...((rec['judged_by'] as Record<string, unknown> | undefined) ?? {}) };
      for (const a of mine) {
        qrels[a.doc_id] = a.grade;
        judgedBy[a.doc_id] = { judge, date: a.date };
      }
      // the query's text stays as the team wrote it (the hash normalises it, the file keeps it)
      return storedJson({ ...rec, qrels, judged_by: judgedBy }) + (raw.endsWith('\r') ? '\r' : '');
    })
    .join('\n');
}

/** Merge a judgments file into fixtures/<set>: check everything, then write through importSafely. */
export async function mergeQrels(
  dir: string,
  judgmentsPath: string,
  opts: QrelsMergeOptions,
): Promise<QrelsMergeResult> {
  if (!opts.judge.trim())
    throw new RgateError('usage', '--judge: empty', 'name who graded, e.g. --judge "ana (SRE)"');
  if (opts.date !== undefined) checkDate(opts.date, '--date');
  const lines = readJudgments(judgmentsPath);
  // a frozen set that no longer matches its freeze is refused here, as by every load
  const set = loadFixtureSet(dir, { verify: hasFreeze(dir) });
  const plan = planQrelsMerge(set, judgmentsPath, lines, opts.date !== undefined ? { date: opts.date } : {});
  const added = plan.filter((j) => j.action === 'added');
  const date = opts.date ?? [...plan.map((j) => j.date)].sort(compareCodeUnits).at(-1)!;
  const result: QrelsMergeResult = {
    set: set.name,
    dir: set.dir,
    judge: opts.judge,
    added: added.length,
    unchanged: plan.length - added.length,
    queries_touched: new Set(added.map((a) => a.query_id)).size,
    date,
    written: false,
    judgments: plan,
  };
  const frozen = hasFreeze(set.dir) ? readFreeze(set.dir) : undefined;
  if (frozen && added.length && (opts.version === undefined || !opts.resetNote?.trim())) {
    throw new RgateError(
      'freeze_violation',
      `${set.name} is frozen (${frozen.artifact_id} ${frozen.version}); merging ${added.length} judgment(s) changes its query set, which needs a version bump and a reset note; nothing was written`,
      `add --version ${nextVersion(frozen.version)} --reset-note "${added.length} judgments by ${opts.judge} (labeling queue)"`,
    );
  }
  if (frozen && added.length && compareVersions(opts.version!, frozen.version) <= 0) {
    throw new RgateError(
      'freeze_violation',
      `--version ${opts.version}: not above the frozen version ${frozen.version} of ${set.name}; nothing was written`,
      `use a higher version, e.g. --version ${nextVersion(frozen.version)}`,
    );
  }
  if (!added.length || opts.dryRun) return result;

  let written;
  try {
    written = await importSafely(
      set.dir,
      {
        force: true,
        frozenOn: date,
        ...(opts.version !== undefined ? { version: opts.version } : {}),
        ...(opts.resetNote !== undefined ? { resetNote: opts.resetNote } : {}),
      },
      (staged) => {
        for (const f of [FIXTURE_FILES.corpus, FIXTURE_FILES.config])
          copyFileSync(join(set.dir, f), join(staged, f));
        writeFileSync(join(staged, FIXTURE_FILES.query_set), mergedQueryText(set.dir, added, opts.judge));
        const prov = join(staged, FIXTURE_FILES.provenance);
        const note = `- ${date}: ${added.length} judgment(s) over ${result.queries_touched} queries by ${opts.judge}, merged from ${basename(judgmentsPath)} (rgate label merge)\n`;
        if (existsSync(prov)) appendFileSync(prov, `\n${note}`);
        else writeFileSync(prov, `# Provenance: ${set.name}\n\n${note}`);
        return {
          dir: staged,
          counts: {
            corpus_records: set.corpus.length,
            queries: set.queries.length,
            judged_queries: 0,
            judgments: added.length,
          },
          notes: [],
          sources: [],
        };
      },
    );
  } catch (e) {
    if (isRgateError(e) && e.code === 'freeze_violation')
      throw new RgateError(
        e.code,
        e.message,
        `use a version above ${frozen?.version ?? 'the frozen one'} with --version, and --reset-note`,
      );
    throw e;
  }
  return { ...result, written: true, ...(written.frozen ? { frozen: written.frozen } : {}) };
}
