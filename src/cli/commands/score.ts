import type { Argv, Options } from 'yargs';
import { wrap } from '../../../reports/wrap.js';
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
          'Options are read as trec_eval reads them: glued (-mmap, -M100, -l2), grouped',
          "(-qc), and trec_eval's long names:",
          // lines of at most 79 columns: yargs would re-wrap longer ones mid-sentence
          ...wrap(
            SCORE_OPTIONS.flatMap((o) => (o.trecEvalNames ?? []).map((n) => `--${n}`)).join(', ') + '.',
            79,
          ),
          'Files: a path, - for stdin (the qrels or the run, not both), or a pipe such as',
          '/dev/stdin or <(zcat run.gz). Comments, as in trec_eval 10: a run line starting',
          'with # after optional blanks; a qrels line starting with # at its first byte.',
          'Nicknames (-m) request the measures of their trec_eval 10 list (--list-measures',
          'prints them): official (the default), set, all_trec; all_prefs, prefs and',
          'qrels_jg are refused (see below).',
          '',
          'Where rgate knowingly differs from trec_eval 10:',
          '- A query judged in the qrels with no line in the run, without -c: trec_eval',
          '  stops at the first (qid order): "result qid \'<qid>\' not found in qrels",',
          '  exit 4, after printing (with -q) the lines of the queries before it. rgate',
          '  stops too, prints nothing, names the query and both files, and exits 2.',
          '  With -c both score it 0.',
          '- A score that is not a finite decimal number ("12.5abc", "nan", "inf",',
          '  "1e400", "0x10") or a relevance that is not a 32-bit integer ("1.5", "x") is',
          '  refused, naming file and line (exit 2); trec_eval reads them with atof and',
          '  atol: 12.5, NaN, infinity, infinity, 16; 1, 0.',
          '- An option number that is not an integer (-M 1e3, -l x) is refused;',
          "  trec_eval's atol reads a prefix or 0.",
          '- Parameters given to a measure that has none (-m map.5) or to a nickname',
          '  (-m official.5) are refused; trec_eval ignores them.',
          '- The nicknames all_prefs, prefs and qrels_jg, and their measures, need',
          '  preference judgments or judgment groups (-R prefs, qrels_prefs, qrels_jg),',
          '  which rgate does not read: refused before the files are read (exit 2);',
          "  trec_eval with -R qrels stops: \"Can't calculate measure '...'\", exit 4.",
          '- rbp: trec_eval 10 reads its gain bounds uninitialised, so its rbp changes',
          '  with the other measures requested; rgate prints what trec_eval prints with',
          '  all_trec or rbp alone (bounds starting at 0).',
          "- A query whose grades are all negative: trec_eval reuses the previous query's",
          '  grade counts (seen in ideal_dcg); rgate does not.',
          '- Qrels comments: trec_eval 10 reads a # after blanks, and a comment line right',
          '  after another, as a judgment (query "#...") or stops ("Malformed line"):',
          '  rgate refuses them (exit 2). It skips blank qrels lines and a final comment',
          '  line, where trec_eval stops ("Malformed line") or reads past its buffer.',
          '- A grade above 1,000,000 is refused (exit 2): trec_eval, like rgate, keeps a',
          '  count for every grade from 0 up (at 2^31-1 it took 16 GB and 95 s).',
          '- A docno retrieved twice for one query is refused (exit 2) in every query;',
          '  trec_eval stops on one only in a judged query, among its top -M results.',
          '- Measures trec_eval 10 cannot combine (dcg with ndcg: a double free) work here.',
          "- Errors are rgate's: file:line, a hint, exit 2 for usage and input mistakes",
          '  (trec_eval: exit 1, 2 or 4); line numbers count comment lines too.',
          '- Not offered: -R prefs, qrels_prefs, qrels_jg; -D debug output; -Z z-scores.',
        ].join('\n'),
      );
  },
  handler: async () => {
    // runCli sends `rgate score ...` to score-main.ts before yargs parses anything; only --help and
    // --version reach yargs, which print and stop without calling a handler
    throw new Error('rgate score reached yargs: runCli should have sent it to score-main.ts');
  },
};
