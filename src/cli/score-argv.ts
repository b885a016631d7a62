/**
 * `rgate score`'s command line, read getopt-style as trec_eval reads its own (node's util.parseArgs:
 * `-m map`, `-mmap`, `-qc`, `-M100`, `--run -`, `--`), without loading yargs: a 50-query score must
 * not pay for the help layout stack. The same table gives yargs the options for `rgate score --help`.
 */
import { parseArgs } from 'node:util';
import { editDistance } from '../core/edit-distance.js';
import { RgateError } from '../core/errors.js';

export interface ScoreOption {
  /** rgate's long name */
  name: string;
  short?: string;
  /** trec_eval's long names (getopt_long) where they differ from rgate's, accepted as they are */
  trecEvalNames?: readonly string[];
  /** what the option takes; none = a flag */
  value?: 'text' | 'integer';
  /** several values collect (-m); otherwise the last one given counts, as with getopt */
  repeat?: boolean;
  choices?: readonly string[];
  /** the default shown in help (the parser applies it) */
  default?: string | number;
  describe: string;
}

export const SCORE_OPTIONS: readonly ScoreOption[] = [
  { name: 'qrels', value: 'text', describe: 'TREC qrels file: qid iter docno grade' },
  { name: 'run', value: 'text', describe: 'TREC run file: qid Q0 docno rank score runid' },
  {
    name: 'measure',
    short: 'm',
    value: 'text',
    repeat: true,
    describe:
      'measure[.params] or nickname, repeatable: map, ndcg_cut.5,10, P.10, ndcg.1=3,2=9, official, set, all_trec',
  },
  {
    name: 'per-query',
    short: 'q',
    trecEvalNames: ['query_eval_wanted'],
    describe: 'print every query, then all',
  },
  {
    name: 'complete',
    short: 'c',
    trecEvalNames: ['complete_rel_info_wanted'],
    describe: 'average over every qrels query (a query missing from the run scores 0)',
  },
  {
    name: 'judged-only',
    short: 'J',
    trecEvalNames: ['Judged_docs_only'],
    describe: 'measure over judged documents only: unjudged ones are dropped from each ranking (after -M)',
  },
  {
    name: 'max-depth',
    short: 'M',
    trecEvalNames: ['Max_retrieved_per_topic'],
    value: 'integer',
    describe: 'keep only the top n results of each query',
  },
  {
    name: 'relevance-level',
    short: 'l',
    trecEvalNames: ['level_for_rel'],
    value: 'integer',
    default: 1,
    describe: 'grade at or above which a document is relevant',
  },
  {
    name: 'docs-in-collection',
    short: 'N',
    trecEvalNames: ['Number_docs_in_coll'],
    value: 'integer',
    default: 0,
    describe: "documents in the collection (utility's non-relevant-not-retrieved count uses it)",
  },
  {
    name: 'no-summary',
    short: 'n',
    trecEvalNames: ['nosummary'],
    describe: 'leave out the summary (all) lines: with -q, per-query lines only',
  },
  {
    name: 'rel-format',
    short: 'R',
    trecEvalNames: ['Rel_info_format'],
    value: 'text',
    choices: ['qrels'],
    default: 'qrels',
    describe:
      'format of the qrels file; qrels is the one rgate reads (no preference judgments or judgment groups)',
  },
  {
    name: 'results-format',
    short: 'T',
    trecEvalNames: ['Results_format'],
    value: 'text',
    choices: ['trec_results'],
    default: 'trec_results',
    describe: 'format of the run file; trec_results is the one there is',
  },
  {
    name: 'list-measures',
    describe: 'print every measure with its definition, formula and source, then exit',
  },
  { name: 'format', value: 'text', choices: ['trec', 'json'], default: 'trec', describe: 'output format' },
];

/** The program-wide flag, accepted here too (`rgate --debug score ...`). */
const DEBUG: ScoreOption = { name: 'debug', describe: 'show stack traces for internal errors' };

/** trec_eval options rgate refuses by name, with why (rather than "unknown"). */
const NOT_OFFERED: Readonly<Record<string, string>> = {
  D: 'trec_eval debug output (-D) is not offered: use --format json for full-precision values',
  Debug_level: 'trec_eval debug output (-D) is not offered: use --format json for full-precision values',
  Z: 'z-scores (-Z) are not offered: rgate compare gives paired tests and intervals',
  Zscore: 'z-scores (-Z) are not offered: rgate compare gives paired tests and intervals',
  o: 'the old output format (-o) is obsolete in trec_eval 10 too',
  Output_old_results_format: 'the old output format (-o) is obsolete in trec_eval 10 too',
};

export interface ScoreArgs {
  /** positional files: qrels then run */
  files: string[];
  qrels?: string;
  run?: string;
  measures: string[];
  perQuery: boolean;
  complete: boolean;
  judgedOnly: boolean;
  noSummary: boolean;
  maxDepth?: number;
  relevanceLevel: number;
  docsInCollection: number;
  format: 'trec' | 'json';
  listMeasures: boolean;
  debug: boolean;
}

function usage(message: string, hint = 'see rgate score --help'): RgateError {
  return new RgateError('usage', message, hint);
}

/** Every spelling of every option, for "did you mean". */
function spellings(): string[] {
  const out: string[] = [];
  for (const o of [...SCORE_OPTIONS, DEBUG]) {
    out.push(`--${o.name}`);
    if (o.short) out.push(`-${o.short}`);
    for (const t of o.trecEvalNames ?? []) out.push(`--${t}`);
  }
  return out;
}

function closestSpelling(raw: string): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const s of spellings()) {
    const d = editDistance(raw, s);
    if (d < bestD || (d === bestD && best !== undefined && s < best)) {
      best = s;
      bestD = d;
    }
  }
  // one-letter options are all near each other: only long ones get a suggestion
  return raw.startsWith('--') && bestD <= Math.max(2, Math.floor(raw.length / 4)) ? best : undefined;
}

function integer(raw: string, flag: string): number {
  const t = raw.trim();
  if (!/^[+-]?\d+$/.test(t)) throw usage(`${flag} ${JSON.stringify(raw)}: not an integer`);
  return Number(t);
}

/** Parse `rgate score`'s arguments (the word `score` taken out); mistakes are usage errors (exit 2). */
export function parseScoreArgv(argv: readonly string[]): ScoreArgs {
  const table = [...SCORE_OPTIONS, DEBUG];
  const byName = new Map<string, ScoreOption>();
  const config: Record<string, { type: 'string' | 'boolean'; short?: string; multiple: true }> = {};
  for (const o of table) {
    for (const name of [o.name, ...(o.trecEvalNames ?? [])]) {
      byName.set(name, o);
      config[name] = {
        type: o.value ? 'string' : 'boolean',
        multiple: true,
        ...(o.short && name === o.name ? { short: o.short } : {}),
      };
    }
  }
  // strict: false so that every mistake is reported here, in rgate's words, and so that a value
  // starting with a dash is taken as the value (getopt: -l -1)
  const { tokens } = parseArgs({
    args: [...argv],
    options: config,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const values = new Map<string, string[]>();
  const flags = new Set<string>();
  const files: string[] = [];
  for (const t of tokens) {
    if (t.kind === 'positional') {
      files.push(t.value);
      continue;
    }
    if (t.kind !== 'option') continue;
    const o = byName.get(t.name);
    if (!o) {
      const why = NOT_OFFERED[t.name];
      if (why) throw usage(`${t.rawName}: ${why}`);
      const near = closestSpelling(t.rawName);
      throw usage(`Unknown argument: ${t.rawName}`, near ? `did you mean ${near}?` : undefined);
    }
    if (!o.value) {
      if (t.value !== undefined)
        throw usage(`${t.rawName} takes no value (given ${JSON.stringify(t.value)})`);
      flags.add(o.name);
      continue;
    }
    if (t.value === undefined) {
      throw usage(`${t.rawName} needs a value`, `e.g. ${t.rawName} ${exampleValue(o)}`);
    }
    const list = values.get(o.name) ?? [];
    list.push(t.value);
    values.set(o.name, list);
  }
  const last = (name: string): string | undefined => values.get(name)?.at(-1);
  const int = (name: string, flag: string): number | undefined => {
    const v = last(name);
    return v === undefined ? undefined : integer(v, flag);
  };
  for (const name of ['qrels', 'run']) {
    const given = values.get(name) ?? [];
    if (given.length > 1 && given.some((g) => g !== given[0])) {
      throw usage(`--${name} is given ${given.length} times (${given.join(', ')}): which one is meant?`);
    }
  }
  for (const o of table) {
    const v = last(o.name);
    if (v !== undefined && o.choices && !o.choices.includes(v)) {
      const flag = o.short ? `-${o.short}` : `--${o.name}`;
      const hint =
        o.name === 'rel-format'
          ? 'rgate reads qrels judgments only; preference measures (prefs, qrels_prefs) and judgment-group measures (qrels_jg) are not implemented'
          : `one of: ${o.choices.join(', ')}`;
      throw usage(`${flag} ${JSON.stringify(v)}: not offered`, hint);
    }
  }
  const maxDepth = int('max-depth', '-M');
  if (maxDepth !== undefined && maxDepth < 0) {
    throw usage(`-M ${maxDepth}: the depth must be a non-negative integer`);
  }
  const docs = int('docs-in-collection', '-N') ?? 0;
  if (docs < 0) throw usage(`-N ${docs}: the number of documents must be a non-negative integer`);
  const qrels = last('qrels');
  const run = last('run');
  return {
    files,
    ...(qrels !== undefined ? { qrels } : {}),
    ...(run !== undefined ? { run } : {}),
    measures: values.get('measure') ?? [],
    perQuery: flags.has('per-query'),
    complete: flags.has('complete'),
    judgedOnly: flags.has('judged-only'),
    noSummary: flags.has('no-summary'),
    ...(maxDepth !== undefined ? { maxDepth } : {}),
    relevanceLevel: int('relevance-level', '-l') ?? 1,
    docsInCollection: docs,
    format: (last('format') ?? 'trec') as 'trec' | 'json',
    listMeasures: flags.has('list-measures'),
    debug: flags.has('debug'),
  };
}

function exampleValue(o: ScoreOption): string {
  if (o.choices) return o.choices[0]!;
  if (o.name === 'measure') return 'map';
  if (o.value === 'integer') return String(o.default ?? 100);
  return o.name === 'qrels' ? 'qrels.txt' : 'run.txt';
}
