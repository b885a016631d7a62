import type { Argv, Options } from 'yargs';
import type { RgateCommand } from '../command.js';
import { SCORE_OPTIONS } from '../score-argv.js';

/**
 * `rgate score`'s help. The command itself never goes through yargs: runCli and bin.cts hand its
 * arguments to score-main.ts, which reads them getopt-style (score-argv.ts, the same option table).
 */
export const scoreCommand: RgateCommand = {
  command: 'score [files..]',
  describe: 'Score a TREC run against TREC qrels (trec_eval-compatible measures and output)',
  builder: (y: Argv) => {
    let b = y.positional('files', {
      describe: 'qrels then run (trec_eval order), instead of --qrels/--run; - for stdin (one of them)',
      type: 'string',
    });
    for (const o of SCORE_OPTIONS) {
      const opt: Options = {
        describe: o.describe,
        type: o.value === 'integer' ? 'number' : o.value ? 'string' : 'boolean',
        ...(o.short ? { alias: o.short } : {}),
        ...(o.choices ? { choices: [...o.choices] } : {}),
        ...(o.default !== undefined ? { default: o.default } : {}),
      };
      b = b.option(o.name, opt);
    }
    return b
      .example('rgate score --qrels qrels.txt --run run.txt', "trec_eval's official measures")
      .example('rgate score -q -m map -m ndcg_cut.10 qrels.txt run.txt', 'per-query MAP and nDCG@10')
      .example('rgate score -c -M 100 -m all_trec --qrels q.txt --run r.txt', 'all queries, depth 100')
      .example('rgate score -l 2 --format json --qrels q.txt --run r.txt', 'grade >= 2 is relevant; JSON')
      .example('rgate score -J -m P.10 qrels.txt run.txt', 'precision over judged documents only')
      .example('rgate score -q -n -m utility.1,-1,0,1 -N 3204 qrels.txt run.txt', 'per query only; utility')
      .example('zcat run.gz | rgate score qrels.txt -', 'the run from stdin')
      .example('rgate score --list-measures', 'what each measure computes')
      .epilog(
        [
          "Options are read as trec_eval reads them: glued (-mmap, -M100, -l2), grouped (-qc), and trec_eval's",
          `long names (${SCORE_OPTIONS.flatMap((o) => (o.trecEvalNames ?? []).map((n) => `--${n}`)).join(', ')}).`,
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
          "A number that is not an integer (-M 1e3, -l x) is refused; trec_eval's atol reads it as a",
          'prefix or 0. Not offered: preference judgments (-R prefs, qrels_prefs), -D debug output, -Z',
          'z-scores.',
        ].join('\n'),
      );
  },
  handler: async () => {
    // runCli sends `rgate score ...` to score-main.ts before yargs parses anything; only --help and
    // --version reach yargs, which print and stop without calling a handler
    throw new Error('rgate score reached yargs: runCli should have sent it to score-main.ts');
  },
};
