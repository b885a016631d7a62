import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import { EXIT, RgateError } from '../../core/errors.js';
import { DocTable, readQrelsFile, readRunFile } from '../../trec/index.js';
import {
  evaluateTrec,
  MEASURE_BUNDLES,
  parseMeasureArgs,
  RANKING_MEASURES,
  renderTrecEval,
  trecEvalJson,
} from '../../metrics/index.js';
import type { RgateCommand } from '../command.js';

interface ScoreArgs {
  qrels?: string;
  run?: string;
  files?: string[];
  measure?: string | string[];
  'per-query'?: boolean;
  complete?: boolean;
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
      .positional('files', {
        describe: 'qrels then run (trec_eval order), instead of --qrels/--run',
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
      .example('rgate score --list-measures', 'what each measure computes'),
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
    const files = args.files ?? [];
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
    const maxDepth = args['max-depth'];
    if (maxDepth !== undefined && (!Number.isInteger(maxDepth) || maxDepth < 0)) {
      throw new RgateError('usage', `-M ${maxDepth}: the depth must be a non-negative integer`);
    }
    const level = args['relevance-level'] ?? 1;
    if (!Number.isInteger(level))
      throw new RgateError('usage', `-l ${level}: the relevance level must be an integer`);
    const raw = args.measure === undefined ? ['official'] : ([] as string[]).concat(args.measure);
    const { specs, runid } = parseMeasureArgs(raw);
    const docs = new DocTable();
    // relative paths are the user's, from the cwd the command runs in (as for every command)
    const qrels = readQrelsFile(resolve(io.cwd, qrelsPath), docs);
    const run = readRunFile(resolve(io.cwd, runPath));
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
