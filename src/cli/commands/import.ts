import { existsSync, readdirSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { RECORD_KINDS, type ImportOutput, type PartialConfig } from '../../documents/index.js';
import { EXIT, RgateError } from '../../core/errors.js';
import { readJsonFile } from '../../core/jsonl.js';
import { validateOrThrow } from '../../contracts/ajv.js';
import { validateConfig } from '../../contracts/config.js';
import {
  importBeir,
  importDir,
  importMemoryCli,
  importSmart,
  importSafely,
  importTrec,
  type ImportResult,
} from '../../snapshot/index.js';
import type { CliIo, RgateCommand } from '../command.js';
import { shellWord } from '../../core/shell-word.js';
import { emptyCorpusWarning } from '../empty-corpus.js';

type Kind = 'beir' | 'trec' | 'smart' | 'dir' | 'memory-cli';

export interface ImportArgs {
  kind: Kind;
  path?: string;
  out: string;
  corpus?: string;
  docs?: string;
  queries?: string;
  topics?: string;
  qrels?: string[];
  config?: string;
  'only-judged'?: boolean;
  'all-queries'?: boolean;
  'topic-field'?: 'title' | 'description' | 'title+description';
  'positional-query-ids'?: boolean;
  'reverse-grades'?: string;
  negative?: 'drop' | 'zero';
  'record-kind'?: 'canonical' | 'tactical';
  ext?: string[];
  freeze?: boolean;
  force?: boolean;
  'follow-symlinks'?: boolean;
  'keep-unknown-judgments'?: boolean;
  'dot-dir'?: string[];
  version?: string;
  'reset-note'?: string;
  date?: string;
  domain?: string;
  json?: boolean;
}

const PATH_OPTIONS = ['corpus', 'docs', 'queries', 'topics', 'qrels', 'config'] as const;

/**
 * The command line as the user could retype it, for PROVENANCE.md (paths as given): every option that
 * changes the set written, so running it again writes the same set (import.test.ts holds each one to
 * that). Options that only decide whether or how it is written (--force, --freeze and its --date,
 * --version, --reset-note, --json) are left out.
 */
export function commandLine(a: ImportArgs): string {
  const parts = ['rgate', 'import', a.kind];
  if (a.path) parts.push(a.path);
  const opt = (name: string, v: unknown): void => {
    if (v === undefined || v === false) return;
    if (v === true) parts.push(`--${name}`);
    else if (Array.isArray(v)) for (const x of v) parts.push(`--${name}`, String(x));
    else parts.push(`--${name}`, String(v));
  };
  for (const k of PATH_OPTIONS) opt(k, a[k]);
  opt('all-queries', a['all-queries']);
  opt('topic-field', a['topic-field']);
  opt('positional-query-ids', a['positional-query-ids']);
  opt('reverse-grades', a['reverse-grades']);
  if (a.negative && a.negative !== 'drop') opt('negative', a.negative);
  if (a['record-kind'] && a['record-kind'] !== 'canonical') opt('record-kind', a['record-kind']);
  opt('ext', a.ext);
  opt('dot-dir', a['dot-dir']);
  opt('follow-symlinks', a['follow-symlinks']);
  opt('keep-unknown-judgments', a['keep-unknown-judgments']);
  opt('domain', a.domain);
  opt('out', a.out);
  return parts.map(shellWord).join(' ');
}

function need(a: ImportArgs, name: keyof ImportArgs): string {
  const v = a[name];
  if (typeof v !== 'string' || v === '')
    throw new RgateError(
      'usage',
      `rgate import ${a.kind} needs --${String(name)}`,
      `see rgate import --help`,
    );
  return v;
}

/** `rgate import <kind>`: turn BEIR / TREC / SMART files or a document tree into a fixture set folder. */
export const importCommand: RgateCommand<ImportArgs> = {
  command: 'import <kind> [path]',
  describe:
    'Import BEIR, TREC, SMART files, a document tree (project_dir) or a memory-cli root into fixtures/<set>',
  // Long because: the command's flags, one declaration each in yargs' builder chain (every importer's
  // inputs in one list, the way --help shows them); split, the list would be scattered.
  builder: (y: Argv) =>
    y
      .positional('kind', {
        choices: ['beir', 'trec', 'smart', 'dir', 'memory-cli'] as const,
        describe: 'source format',
      })
      .positional('path', {
        type: 'string',
        describe:
          'dir: the directory or .tar.gz to snapshot; beir: a BEIR folder (corpus.jsonl, queries.jsonl, qrels/*.tsv); memory-cli: the memory root (its index.yaml)',
      })
      .option('out', {
        type: 'string',
        demandOption: true,
        describe: 'fixture set folder to write, e.g. fixtures/my-set',
      })
      .option('corpus', { type: 'string', describe: 'beir: corpus.jsonl (optional)' })
      .option('docs', {
        type: 'string',
        describe:
          'trec: directory/.tar.gz of HTML or text, or of TREC <DOC> files, or one TREC <DOC> file; smart: tagged document file',
      })
      .option('queries', {
        type: 'string',
        describe: 'beir: queries.jsonl; smart: tagged query file; dir, memory-cli: rgate queries.jsonl',
      })
      .option('topics', { type: 'string', describe: 'trec: topics file (<top> or <DOC><DOCNO> style)' })
      .option('qrels', {
        type: 'string',
        array: true,
        describe: 'judgments (repeatable): BEIR TSV, TREC qrels, SMART qrels',
      })
      .option('config', {
        type: 'string',
        describe: 'partial config JSON to write as config.json (default: bm25, k 1000)',
      })
      .option('only-judged', {
        type: 'boolean',
        describe: 'beir: keep only the queries the qrels judge (the default, as BEIR evaluates)',
      })
      .option('all-queries', {
        type: 'boolean',
        describe:
          'beir: keep every query of queries.jsonl, judged or not (they score 0 in every ranking measure)',
      })
      .option('topic-field', {
        choices: ['title', 'description', 'title+description'] as const,
        describe: 'trec <top>: query text',
      })
      .option('positional-query-ids', {
        type: 'boolean',
        describe: 'smart: qrels query n = the n-th .I of the query file',
      })
      .option('reverse-grades', {
        type: 'string',
        describe: 'smart: codes run backwards; grade = max+1-code ("max" or a number)',
      })
      .option('negative', {
        choices: ['drop', 'zero'] as const,
        default: 'drop' as const,
        describe: 'smart: negative codes',
      })
      .option('record-kind', {
        choices: RECORD_KINDS,
        describe: 'dir/trec: corpus record kind',
      })
      .option('ext', {
        type: 'string',
        array: true,
        describe: 'dir: file extensions to take (default .txt .md .html ...)',
      })
      .option('freeze', { type: 'boolean', default: false, describe: 'freeze the set right after importing' })
      .option('force', {
        type: 'boolean',
        default: false,
        describe: 'replace an existing set in --out (a frozen one also needs --version and --reset-note)',
      })
      // `--version` here is the fixture version, not rgate's own (as in `rgate freeze`)
      .version(false)
      .option('version', {
        type: 'string',
        describe: 'with --force on a frozen set: the new fixture version (higher than the frozen one)',
      })
      .option('reset-note', {
        type: 'string',
        describe: 'with --version: why the baseline moves (kept in freeze.json history)',
      })
      .option('follow-symlinks', {
        type: 'boolean',
        default: false,
        describe: 'dir: take symlinked files from outside the tree (default: refuse them)',
      })
      .option('dot-dir', {
        type: 'string',
        array: true,
        describe: 'dir: a dot-directory to take anyway (.cortex); other dot-entries are skipped',
      })
      .option('keep-unknown-judgments', {
        type: 'boolean',
        default: false,
        describe: 'dir: keep judgments on ids not in the corpus, with a warning (default: refuse the import)',
      })
      .option('domain', { type: 'string', describe: "memory-cli: only this domain's entries (as --domain)" })
      .option('date', { type: 'string', describe: 'with --freeze: frozen_on (default today, UTC)' })
      .option('json', { type: 'boolean', default: false, describe: 'print the import result as JSON' })
      .example(
        'rgate import beir --queries scifact/queries.jsonl --qrels scifact/qrels/test.tsv --out fixtures/scifact',
        'BEIR queries + qrels (corpus optional)',
      )
      .example(
        'rgate import beir datasets/scifact --out fixtures/scifact',
        'a BEIR folder; every qrels/*.tsv is read',
      )
      .example(
        'rgate import trec --topics topics.cacm.txt --qrels qrels.cacm.txt --docs cacm.tar.gz --out fixtures/cacm',
        'TREC topics + qrels + a tarball of HTML documents',
      )
      .example(
        'rgate import smart --docs cran.all.1400 --queries cran.qry --qrels cranqrel --positional-query-ids --reverse-grades max --out fixtures/cranfield',
        'a SMART collection with positional query ids and reversed codes',
      )
      .example(
        'rgate import dir ./docs --out fixtures/project-docs --freeze',
        'snapshot a project tree and freeze it',
      )
      .example(
        'rgate import dir ../cortex --ext md json dsl --dot-dir .cortex --queries q.jsonl --out fixtures/cortex',
        'a cortex project: ids are paths with their extension, .cortex/ decisions included',
      )
      .example(
        'rgate import memory-cli ~/.athena/memory --out fixtures/my-memory --freeze',
        "a memory-cli root: ids and source paths are the CLI's own",
      )
      .example(
        'rgate import trec ... --out fixtures/cacm --force --version v2 --reset-note "topics 65-70 added"',
        'replace a frozen set on purpose: a version bump with its reset note',
      ),
  async handler(a, io) {
    const p = (v: string | undefined): string | undefined =>
      v === undefined ? undefined : resolve(io.cwd, v);
    const out = resolve(io.cwd, a.out);
    const command = commandLine(a);
    const config: PartialConfig | undefined = a.config
      ? validateOrThrow(validateConfig, readJsonFile(p(a.config)!), { file: a.config })
      : undefined;
    const qrels = (a.qrels ?? []).map((q) => p(q)!);
    const importInto = (dir: string): Promise<ImportResult> =>
      importKind(a, p, { out: dir, command, ...(config ? { config } : {}) }, qrels);
    const { result: r, frozen } = await importSafely(
      out,
      {
        force: !!a.force,
        freeze: !!a.freeze,
        ...(a.version !== undefined ? { version: String(a.version) } : {}),
        ...(a['reset-note'] !== undefined ? { resetNote: a['reset-note'] } : {}),
        frozenOn: a.date ?? new Date().toISOString().slice(0, 10),
      },
      importInto,
    );
    printImport(a, io, r, frozen);
    return EXIT.ok;
  },
};

/**
 * `--out` as `rgate freeze` takes it back: a bare name there means fixtures/<name>, so a folder
 * given as a bare name (`--out my-set`, written in the cwd) is named `./my-set`.
 */
function asFolderArg(out: string): string {
  return isAbsolute(out) || out.startsWith('.') || /[\\/]/.test(out) ? out : `./${out}`;
}

type Resolve = (v: string | undefined) => string | undefined;
type ImportBase = { out: string; command: string; config?: PartialConfig };

/** One import, by kind: the importer the kind names, with the flags it reads. */
async function importKind(
  a: ImportArgs,
  p: Resolve,
  base: ImportBase,
  qrels: string[],
): Promise<ImportResult> {
  let r: ImportResult;
  switch (a.kind) {
    case 'beir': {
      beirFolderInputs(a, p, qrels);
      r = importBeir({
        ...base,
        queries: p(need(a, 'queries'))!,
        qrels,
        ...(a.corpus ? { corpus: p(a.corpus)! } : {}),
        allQueries: !!a['all-queries'],
      });
      break;
    }
    case 'trec':
      r = await importTrec({
        ...base,
        topics: p(need(a, 'topics'))!,
        qrels,
        ...(a.docs ? { docs: p(a.docs)! } : {}),
        ...(a['topic-field'] ? { topicField: a['topic-field'] } : {}),
        ...(a['record-kind'] ? { kind: a['record-kind'] } : {}),
      });
      break;
    case 'smart': {
      if (qrels.length > 1) throw new RgateError('usage', 'rgate import smart takes one --qrels file');
      const reverse = reverseGradesOf(a['reverse-grades']);
      r = importSmart({
        ...base,
        queries: p(need(a, 'queries'))!,
        ...(a.docs ? { docs: p(a.docs)! } : {}),
        ...(qrels[0] ? { qrels: qrels[0] } : {}),
        positionalQueryIds: !!a['positional-query-ids'],
        ...(reverse !== undefined ? { reverseGrades: reverse } : {}),
        negative: a.negative ?? 'drop',
      });
      break;
    }
    case 'memory-cli':
      r = importMemoryCli({
        ...base,
        root: p(a.path ?? need(a, 'path'))!,
        ...(a.queries ? { queries: p(a.queries)! } : {}),
        ...(a.domain !== undefined ? { domain: a.domain } : {}),
      });
      break;
    case 'dir':
      r = await importDir({
        ...base,
        path: p(a.path ?? a.docs ?? need(a, 'path'))!,
        ...(a.queries ? { queries: p(a.queries)! } : {}),
        ...(a['record-kind'] ? { kind: a['record-kind'] } : {}),
        ...(a.ext ? { extensions: a.ext.map((e) => (e.startsWith('.') ? e : `.${e}`).toLowerCase()) } : {}),
        followSymlinks: !!a['follow-symlinks'],
        keepUnknownJudgments: !!a['keep-unknown-judgments'],
        ...(a['dot-dir'] ? { dotDirs: a['dot-dir'] } : {}),
      });
      break;
  }
  return r;
}

/** `rgate import beir <folder>`: BEIR's own layout (corpus.jsonl?, queries.jsonl, qrels/*.tsv). */
function beirFolderInputs(a: ImportArgs, p: Resolve, qrels: string[]): void {
  if (a.path) {
    const folder = p(a.path)!;
    if (!a.queries) a.queries = join(folder, 'queries.jsonl');
    if (!a.corpus && existsSync(join(folder, 'corpus.jsonl'))) a.corpus = join(folder, 'corpus.jsonl');
    // BEIR evaluates a split (its loader's default: test): train and dev judgments mixed in
    // would put other splits' queries in the set. Without test.tsv, every split file.
    if (qrels.length === 0 && existsSync(join(folder, 'qrels'))) {
      if (existsSync(join(folder, 'qrels', 'test.tsv'))) qrels.push(join(folder, 'qrels', 'test.tsv'));
      else
        for (const f of readdirSync(join(folder, 'qrels'))
          .filter((n) => n.endsWith('.tsv'))
          .sort())
          qrels.push(join(folder, 'qrels', f));
    }
  }
}

/** `--reverse-grades max|<n>`, checked. */
function reverseGradesOf(rg: string | undefined): number | 'max' | undefined {
  if (rg === undefined) return undefined;
  const reverse = rg === 'max' ? 'max' : Number(rg);
  if (reverse !== 'max' && !(Number.isInteger(reverse) && reverse > 0))
    throw new RgateError('usage', `--reverse-grades ${rg}: expected "max" or a positive integer`);
  return reverse;
}

/** What was imported: the import-result document with --json, else its counts and the next step. */
function printImport(
  a: ImportArgs,
  io: CliIo,
  r: ImportResult,
  frozen: Awaited<ReturnType<typeof importSafely>>['frozen'],
): void {
  if (r.counts.corpus_records === 0) io.err(emptyCorpusWarning(a.out, !!frozen));
  if (a.json) {
    const doc: ImportOutput = { ...r, ...(frozen ? { freeze: frozen.freeze } : {}) };
    io.out(JSON.stringify(doc, null, 2));
  } else {
    const c = r.counts;
    io.out(`imported ${a.kind} -> ${r.dir}`);
    io.out(
      `  ${c.corpus_records} corpus records, ${c.queries} queries, ${c.judged_queries} judged, ${c.judgments} judgments`,
    );
    for (const n of r.notes) io.out(`  note: ${n}`);
    if (frozen) io.out(`  frozen: ${frozen.freeze.artifact_id} ${frozen.freeze.version} (${frozen.action})`);
    else io.out(`  next: rgate freeze ${shellWord(asFolderArg(a.out))}`);
  }
}
