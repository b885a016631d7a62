import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import { EXIT, RgateError } from '../../core/errors.js';
import { DocTable, judgedOnly, readQrelsFile, readRunFile, STDIN } from '../../trec/index.js';
// the measure modules themselves, not metrics/index.js: that also loads the gate measures and the
// run pipeline, which `rgate score` never uses (a tenth of a second of module loading)
import { evaluateTrec } from '../../metrics/_evaluate.js';
import { renderTrecEval, trecEvalJson } from '../../metrics/_format.js';
import { parseMeasureArgs } from '../../metrics/_spec.js';
import { MEASURE_BUNDLES, RANKING_MEASURES } from '../../metrics/registry.js';
import type { RgateCommand } from '../command.js';

interface ScoreArgs {
  qrels?: string;
  run?: string;
  files?: string[];
  measure?: string | string[];
  'per-query'?: boolean;
  complete?: boolean;
  'judged-only'?: boolean;
  'max-depth'?: number;
  'relevance-level'?: number;
  format: 'trec' | 'json';
  'list-measures'?: boolean;
}

/**
 * `rgate score`: trec_eval's numbers from TREC qrels and run files, printed in trec_eval's format
 * so a script that parses trec_eval output can call rgate instead.
 */
export const scoreCommand: RgateCommand<ScoreArgs> = {
  command: 'score [files..]',
  describe: 'Score a TREC run against TREC qrels (trec_eval-compatible measures and output)',
  builder: (y: Argv) =>
    y
      // yargs drops a lone `-` (stdin) as a positional; this keeps it, and an unknown option with it,
      // which the handler then refuses by name as strict mode would
      .parserConfiguration({ 'unknown-options-as-args': true })
      .positional('files', {
        describe: 'qrels then run (trec_eval order), instead of --qrels/--run; - for stdin (one of them)',
        type: 'string',
      })
      .option('qrels', { type: 'string', describe: 'TREC qrels file: qid iter docno grade' })
      .option('run', { type: 'string', describe: 'TREC run file: qid Q0 docno rank score runid' })
      .option('measure', {
        alias: 'm',
        type: 'string',
        describe: 'measure[.params], repeatable: map, ndcg_cut.5,10, P.10, ndcg.1=3,2=9, official, all_trec',
      })
      .option('per-query', {
        alias: 'q',
        type: 'boolean',
        default: false,
        describe: 'print every query, then all',
      })
      .option('complete', {
        alias: 'c',
        type: 'boolean',
        default: false,
        describe: 'average over every qrels query (a query missing from the run scores 0)',
      })
      .option('judged-only', {
        alias: 'J',
        type: 'boolean',
        default: false,
        describe:
          'measure over judged documents only: unjudged ones are dropped from each ranking (after -M)',
      })
      .option('max-depth', {
        alias: 'M',
        type: 'number',
        describe: 'keep only the top n results of each query',
      })
      .option('relevance-level', {
        alias: 'l',
        type: 'number',
        default: 1,
        describe: 'grade at or above which a document is relevant',
      })
      .option('list-measures', {
        type: 'boolean',
        default: false,
        describe: 'print every measure with its definition, formula and source, then exit',
      })
      .option('format', {
        choices: ['trec', 'json'] as const,
        default: 'trec' as const,
        describe: 'output format',
      })
      .example('rgate score --qrels qrels.txt --run run.txt', "trec_eval's official measures")
      .example('rgate score -q -m map -m ndcg_cut.10 qrels.txt run.txt', 'per-query MAP and nDCG@10')
      .example('rgate score -c -M 100 -m all_trec --qrels q.txt --run r.txt', 'all queries, depth 100')
      .example('rgate score -l 2 --format json --qrels q.txt --run r.txt', 'grade >= 2 is relevant; JSON')
      .example('rgate score -J -m P.10 qrels.txt run.txt', 'precision over judged documents only')
      .example('zcat run.gz | rgate score qrels.txt -', 'the run from stdin')
      .example('rgate score --list-measures', 'what each measure computes')
      .epilog(
        [
          'Files: a path, - for stdin (the qrels or the run, not both), or a pipe such as /dev/stdin or',
          '<(zcat run.gz). Lines starting with # (after optional blanks) are comments, as in trec_eval 10.',
          '',
          'Where rgate knowingly differs from trec_eval 10: without -c, a query judged in the qrels but',
          'absent from the run is skipped (not scored 0 and counted), as trec_eval before version 10 did;',
          'pass -c to average over every judged query. rbp: trec_eval 10 reads its gain bounds',
          'uninitialised, so its rbp changes with the other measures requested; rgate prints what',
          'trec_eval prints with all_trec or rbp alone (bounds starting at 0). A query whose grades are',
          "all negative: trec_eval reuses the previous query's grade counts (seen in ideal_dcg); rgate",
          'does not. Measures trec_eval 10 cannot combine (dcg with ndcg: a double free) work here.',
        ].join('\n'),
      ),
  async handler(args, io) {
    if (args['list-measures']) {
      for (const m of RANKING_MEASURES) {
        const params = m.defaultParamText ? ` (default parameters: ${m.defaultParamText})` : '';
        io.out(`${m.id}${params}\n${m.help.replace(/^/gm, '    ')}\n`);
      }
      io.out(
        `bundles: ${Object.entries(MEASURE_BUNDLES)
          .map(([k, v]) => `${k} = ${v.join(' ')}`)
          .join('; ')}`,
      );
      return EXIT.ok;
    }
    let files = args.files ?? [];
    // `--run -` reaches here as run '' plus a positional `-` (yargs reads `-` as no value)
    if (files.length > 0 && files.every((f) => f === STDIN)) {
      const rest = [...files];
      if (args.qrels === '' && rest.length > 0) args.qrels = rest.shift();
      if (args.run === '' && rest.length > 0) args.run = rest.shift();
      files = rest;
    }
    // trec_eval's own Makefile writes measures glued to the flag (-mrelstring.20); yargs would read that
    // as a group of one-letter flags, so it arrives here as an unknown argument
    const glued = files.filter((f) => /^-m[^-]/.test(f)).map((f) => f.slice(2));
    files = files.filter((f) => !/^-m[^-]/.test(f));
    const unknown = files.find((f) => f.startsWith('-') && f !== STDIN);
    if (unknown !== undefined) {
      throw new RgateError('usage', `Unknown argument: ${unknown}`, 'see rgate score --help');
    }
    let qrelsPath = args.qrels;
    let runPath = args.run;
    if (files.length > 0) {
      if (qrelsPath || runPath || files.length !== 2) {
        throw new RgateError(
          'usage',
          'give the qrels and the run either as two positional files or with --qrels and --run',
          'e.g. rgate score qrels.txt run.txt',
        );
      }
      [qrelsPath, runPath] = files as [string, string];
    }
    if (!qrelsPath || !runPath) {
      throw new RgateError(
        'usage',
        'both --qrels and --run are required',
        'e.g. rgate score --qrels q.txt --run r.txt',
      );
    }
    if (qrelsPath === STDIN && runPath === STDIN) {
      throw new RgateError(
        'usage',
        'the qrels and the run cannot both be read from stdin (-)',
        'give one of them as a file, e.g. zcat run.gz | rgate score qrels.txt -',
      );
    }
    const maxDepth = args['max-depth'];
    if (maxDepth !== undefined && (!Number.isInteger(maxDepth) || maxDepth < 0)) {
      throw new RgateError('usage', `-M ${maxDepth}: the depth must be a non-negative integer`);
    }
    const level = args['relevance-level'] ?? 1;
    if (!Number.isInteger(level))
      throw new RgateError('usage', `-l ${level}: the relevance level must be an integer`);
    const given = (args.measure === undefined ? [] : ([] as string[]).concat(args.measure)).concat(glued);
    const raw = given.length === 0 ? ['official'] : given;
    const { specs, runid } = parseMeasureArgs(raw);
    const docs = new DocTable();
    // relative paths are the user's, from the cwd the command runs in (as for every command)
    const at = (p: string): string => (p === STDIN ? p : resolve(io.cwd, p));
    const qrels = readQrelsFile(at(qrelsPath), docs);
    const read = readRunFile(at(runPath));
    const run = args['judged-only'] ? judgedOnly(read, qrels, maxDepth) : read;
    const result = evaluateTrec(qrels, run, specs, {
      relevanceLevel: level,
      averageComplete: Boolean(args.complete),
      ...(maxDepth !== undefined ? { maxDepth } : {}),
    });
    const perQuery = Boolean(args['per-query']);
    if (args.format === 'json') {
      const body = trecEvalJson(result, { perQuery });
      io.out(
        JSON.stringify(
          {
            settings: {
              relevance_level: level,
              complete: Boolean(args.complete),
              judged_only: Boolean(args['judged-only']),
              max_depth: maxDepth ?? null,
            },
            ...(body as object),
          },
          null,
          2,
        ),
      );
    } else {
      io.out(renderTrecEval(result, { perQuery, runid }).replace(/\n$/, ''));
    }
    return EXIT.ok;
  },
};
