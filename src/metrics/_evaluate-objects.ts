import { compareCodeUnits } from '../core/canonical-json.js';
import { RgateError } from '../core/errors.js';
import { byteStringToText, DocTable, qrelsFromEntries, runFromRows } from '../trec/index.js';
import { evaluateTrec } from './_evaluate.js';
import { parseMeasureArgs } from './_spec.js';

/** Judgments: query id -> document id -> grade (integers; 0 judged not relevant). */
export type QrelsObject = Readonly<Record<string, Readonly<Record<string, number>>>>;
/** A ranking per query: query id -> document id -> score (higher first; ties by docno, as trec_eval). */
export type RunObject = Readonly<Record<string, Readonly<Record<string, number>>>>;

export interface EvaluateOptions {
  /** -l: grade at or above which a document is relevant (default 1) */
  relevanceLevel?: number;
  /** -c: average over every judged query, a query the run lacks scoring 0 */
  averageComplete?: boolean;
  /**
   * Average over the judged queries the run answered, leaving out the ones it lacks (trec_eval 9's
   * means). Without this or averageComplete, a judged query the run lacks is an error, as in
   * `rgate score`: a partial run's mean is not the suite's.
   */
  onlyAnswered?: boolean;
  /** -M: keep only the top n results of each query */
  maxDepth?: number;
}

export interface Evaluation {
  /** evaluated queries (every judged query; with onlyAnswered, those the run answered) */
  num_q: number;
  /** measure name as trec_eval prints it (`map`, `P_10`, `ndcg_cut_5`) -> the value over all queries */
  mean: Record<string, number>;
  /** measure name -> query id -> value */
  perQuery: Record<string, Record<string, number>>;
  /** text measures (relstring): measure name -> query id -> string; they have no mean */
  perQueryText: Record<string, Record<string, string>>;
}

/**
 * trec_eval's numbers from in-memory judgments and rankings, per query and overall (as ranx's
 * `evaluate`). Measures are trec_eval's names with parameters: `map`, `P.5,10`, `ndcg_cut.10`,
 * bundles `official` and `all_trec`.
 * Example: evaluate({ q1: { d1: 1 } }, { q1: { d1: 0.9, d2: 0.4 } }, ['map', 'P.1']).mean.P_1 === 1
 */
export function evaluate(
  qrels: QrelsObject,
  run: RunObject,
  measures: readonly string[] = ['official'],
  o: EvaluateOptions = {},
): Evaluation {
  const { specs } = parseMeasureArgs([...measures]);
  const docs = new DocTable();
  const entries = Object.keys(qrels)
    .sort(compareCodeUnits)
    .flatMap((qid) => Object.entries(qrels[qid]!).map(([docno, rel]) => ({ qid, docno, rel })));
  if (entries.length === 0) throw new RgateError('input_invalid', 'evaluate: the qrels hold no judgments');
  const rows = Object.keys(run)
    .sort(compareCodeUnits)
    .flatMap((qid) =>
      Object.entries(run[qid]!).map(([docno, score]) => {
        if (!Number.isFinite(score))
          throw new RgateError(
            'input_invalid',
            `evaluate: run ${qid} / ${docno}: score must be a finite number`,
          );
        return { qid, docno, score };
      }),
    );
  if (o.onlyAnswered && o.averageComplete)
    throw new RgateError(
      'usage',
      'evaluate: onlyAnswered and averageComplete contradict each other',
      'averageComplete scores an unanswered query 0; onlyAnswered leaves it out of the mean',
    );
  if (!o.onlyAnswered && !o.averageComplete) refuseUnanswered(qrels, run);
  const result = evaluateTrec(qrelsFromEntries(entries, docs), runFromRows(rows, 'evaluate'), specs, {
    relevanceLevel: o.relevanceLevel ?? 1,
    averageComplete: o.averageComplete ?? false,
    ...(o.maxDepth !== undefined ? { maxDepth: o.maxDepth } : {}),
  });
  const mean: Record<string, number> = {};
  const perQuery: Record<string, Record<string, number>> = {};
  const perQueryText: Record<string, Record<string, string>> = {};
  result.specs.forEach((s, si) =>
    s.names.forEach((name, ni) => {
      if (s.measure.kind === 'text') {
        perQueryText[name] = Object.fromEntries(
          result.queries.map((q) => [byteStringToText(q.qid), q.text[si]![ni]!]),
        );
        return;
      }
      mean[name] = result.summary[si]![ni]!;
      perQuery[name] = Object.fromEntries(
        result.queries.map((q) => [byteStringToText(q.qid), q.values[si]![ni]!]),
      );
    }),
  );
  return { num_q: result.numQueries, mean, perQuery, perQueryText };
}

/** Names the judged queries the run has no ranking for (the first five, in code-unit order). */
function refuseUnanswered(qrels: QrelsObject, run: RunObject): void {
  const missing = Object.keys(qrels)
    .filter((qid) => Object.keys(qrels[qid]!).length > 0 && Object.keys(run[qid] ?? {}).length === 0)
    .sort(compareCodeUnits);
  if (missing.length === 0) return;
  const shown = missing.slice(0, 5).join(', ');
  const more = missing.length > 5 ? ` and ${missing.length - 5} more` : '';
  throw new RgateError(
    'input_invalid',
    `evaluate: ${missing.length === 1 ? 'query' : 'queries'} ${shown}${more} ${missing.length === 1 ? 'is' : 'are'} judged but ${missing.length === 1 ? 'has' : 'have'} no ranking in the run`,
    'pass { averageComplete: true } to score them 0 and average over every judged query, or { onlyAnswered: true } to average over the answered queries only',
  );
}
