/**
 * `rgate score` from its arguments to its exit code. bin.cts loads this (as one bundled file when the
 * build made it) without yargs or the other commands: scoring 50 queries is mostly start-up.
 */
import { resolve } from 'node:path';
import { EXIT, RgateError } from '../core/errors.js';
import type { ScoreJson } from '../documents/index.js';
// the measure modules themselves, not metrics/index.js: that also loads the gate measures and the
// run pipeline, which `rgate score` never uses
import {
  evaluateTrec,
  refuseUnansweredQueries,
  TrecEvaluator,
  type TrecEvalResult,
} from '../metrics/_evaluate.js';
import { renderTrecEvalBytes, trecEvalJson } from '../metrics/_format.js';
import { parseMeasureArgs } from '../metrics/_spec.js';
import type { MeasureSpec } from '../metrics/_types.js';
import { MEASURE_BUNDLES, RANKING_MEASURES } from '../metrics/registry.js';
import {
  DocTable,
  groupedRunFile,
  inputLabel,
  judgedOnly,
  readQrelsFile,
  SegmentedRun,
  startRunRead,
  startSegmentedRunRead,
  STDIN,
  streamRun,
} from '../trec/index.js';
import type { CliIo } from './command.js';
import { reportFailure } from './failure.js';
import { parseScoreArgv, type ScoreArgs } from './score-argv.js';

/** Parse and run `rgate score` (argv without the word `score`); every failure is printed here. */
export async function runScoreCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    return score(parseScoreArgv(argv), io);
  } catch (e) {
    return reportFailure(e, io, argv.includes('--debug'));
  }
}

function score(args: ScoreArgs, io: CliIo): number {
  if (args.listMeasures) {
    for (const m of RANKING_MEASURES) {
      const params = m.defaultParamText ? ` (default parameters: ${m.defaultParamText})` : '';
      io.out(`${m.id}${params}\n${m.help.replace(/^/gm, '    ')}\n`);
    }
    io.out(
      `nicknames (trec_eval 10's lists; all_prefs, prefs and qrels_jg are refused): ${Object.entries(
        MEASURE_BUNDLES,
      )
        .map(([k, v]) => `${k} = ${v.join(' ')}`)
        .join('; ')}`,
    );
    return EXIT.ok;
  }
  const files = args.files;
  let qrelsPath = args.qrels;
  let runPath = args.run;
  if (files.length > 0) {
    if (qrelsPath !== undefined || runPath !== undefined || files.length !== 2) {
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
  const { maxDepth, relevanceLevel: level } = args;
  const raw = args.measures.length === 0 ? ['official'] : args.measures;
  const { specs, runid } = parseMeasureArgs(raw);
  // relative paths are the user's, from the cwd the command runs in (as for every command)
  const at = (p: string): string => (p === STDIN ? p : resolve(io.cwd, p));
  const evalOpts = {
    relevanceLevel: level,
    averageComplete: args.complete,
    numDocsInCollection: args.docsInCollection,
    judgedOnly: args.judgedOnly,
    ...(maxDepth !== undefined ? { maxDepth } : {}),
  };
  const labels = { qrels: inputLabel(qrelsPath), run: inputLabel(runPath) };
  const result =
    (!args.judgedOnly && groupedRunFile(at(runPath), STREAM_MIN_BYTES)
      ? scoreStreamed(at(qrelsPath), at(runPath), labels, specs, evalOpts, args.complete)
      : undefined) ?? scoreWhole(at(qrelsPath), at(runPath), labels, specs, evalOpts, args);
  const summary = !args.noSummary;
  if (args.format === 'json') {
    const body = trecEvalJson(result, { perQuery: args.perQuery, summary });
    io.out(
      JSON.stringify(
        {
          settings: {
            relevance_level: level,
            complete: args.complete,
            judged_only: args.judgedOnly,
            max_depth: maxDepth ?? null,
            docs_in_collection: args.docsInCollection,
          },
          ...body,
        } satisfies ScoreJson,
        null,
        2,
      ),
    );
  } else {
    const o = { perQuery: args.perQuery, runid, summary };
    const { outBytes } = io;
    // -n without -q prints nothing, as trec_eval does; the bytes end with the line feed io.out adds
    if (outBytes) {
      const rest = renderTrecEvalBytes(result, o, (chunk) => outBytes(chunk));
      if (rest.length > 0) outBytes(rest);
    } else {
      const bytes = renderTrecEvalBytes(result, o);
      const end = bytes.length > 0 && bytes[bytes.length - 1] === 10 ? bytes.length - 1 : bytes.length;
      if (bytes.length > 0) io.out(bytes.toString('utf8', 0, end));
    }
  }
  return EXIT.ok;
}

/**
 * Runs this large, grouped by query, are measured query by query as they are read (trec/run-stream.ts):
 * smaller ones are read whole, a large one's halves on two threads.
 */
const STREAM_MIN_BYTES = 32 << 20;

type EvalOptions = ConstructorParameters<typeof TrecEvaluator>[2];
type Labels = { qrels: string; run: string };

/**
 * The qrels, then the run query by query; undefined when the run turns out not to be grouped by
 * query (the caller reads it whole: the same result, the same errors).
 */
function scoreStreamed(
  qrelsPath: string,
  runPath: string,
  labels: Labels,
  specs: MeasureSpec[],
  opts: EvalOptions,
  complete: boolean,
): TrecEvalResult | undefined {
  const qrels = readQrelsFile(qrelsPath, new DocTable(), labels.qrels);
  const ev = new TrecEvaluator(qrels, specs, opts);
  const run = streamRun(runPath, labels.run, (r, rq) => ev.query(r, rq));
  if (!run) return undefined;
  // trec_eval 10 stops at a judged query the run does not answer, unless -c scores it 0
  if (!complete) refuseUnansweredQueries(qrels, run, labels);
  return ev.finish(run.runId);
}

/** The qrels and the whole run (a large file's second half parsed on another thread meanwhile). */
function scoreWhole(
  qrelsPath: string,
  runPath: string,
  labels: Labels,
  specs: MeasureSpec[],
  opts: EvalOptions,
  args: ScoreArgs,
): TrecEvalResult {
  const docs = new DocTable();
  // a large run's second half is parsed on another thread while this one reads the qrels
  // errors name the files as the user wrote them
  // -J restricts a whole run; otherwise a large one comes as segments, grouped chunk by chunk
  const reading = args.judgedOnly
    ? startRunRead(runPath, { label: labels.run })
    : startSegmentedRunRead(runPath, { label: labels.run });
  let qrels;
  try {
    qrels = readQrelsFile(qrelsPath, docs, labels.qrels);
  } catch (e) {
    reading.cancel();
    throw e;
  }
  const read = reading.result();
  if (read instanceof SegmentedRun) {
    // every query gathered in turn: checked for a docno retrieved twice (the error reading the run
    // whole reports first), then measured
    const ev = new TrecEvaluator(qrels, specs, opts);
    read.forEachQuery(labels.run, (r, rq) => ev.query(r, rq));
    if (!args.complete) refuseUnansweredQueries(qrels, read, labels);
    return ev.finish(read.runId);
  }
  // trec_eval 10 stops at a judged query the run does not answer, unless -c scores it 0
  if (!args.complete) refuseUnansweredQueries(qrels, read, labels);
  const run = args.judgedOnly ? judgedOnly(read, qrels, args.maxDepth) : read;
  return evaluateTrec(qrels, run, specs, opts);
}
