/**
 * The shape every ranking measure shares (trec_eval's TREC_MEAS record, as one object per file):
 * an id, help text that doubles as `rgate score --help-measure` output, default parameters, the
 * per-query calculation over a judged ranking, and how per-query values become the summary.
 */

/** Relevance of a retrieved document that is not in the qrels at all (trec_eval RELVALUE_NONPOOL). */
export const REL_NONPOOL = -1;
/** Relevance of a document in the qrels with a negative grade: pooled, not judged (RELVALUE_UNJUDGED). */
export const REL_UNJUDGED = -2;

/**
 * One query's ranking after trec_eval's ordering (score desc, docno desc), the depth cap (-M), and
 * lookup of each document in the qrels (trec_eval's RES_RELS).
 */
export interface JudgedRanking {
  qid: string;
  /** grade of the document at each rank (index 0 = rank 1); REL_NONPOOL / REL_UNJUDGED otherwise */
  rels: Int32Array;
  numRet: number;
  /** number of judged documents (grade >= 0) per grade, index = grade */
  relLevels: number[];
  /** 1 + the highest grade with a judged document (0 when nothing is judged) */
  numRelLevels: number;
  /** judged documents with grade >= the relevance level */
  numRel: number;
  /** retrieved documents with grade >= the relevance level */
  numRelRet: number;
  /** false for a qrels query the run lacks (scored only under -c) */
  inRun: boolean;
  /**
   * A query the run lacks, scored (-c) as trec_eval scores it: on a placeholder ranking of one doc
   * outside the qrels. numRet stays 0 here, and the few measures that see the difference (a precision
   * of 0/1, not 0/0) ask this. False when -J or -M 0 removed the placeholder, as they do in trec_eval.
   */
  standIn: boolean;
}

export interface EvalOptions {
  /** grade at or above which a document counts as relevant (trec_eval -l; default 1) */
  relevanceLevel: number;
  /** documents in the collection (trec_eval -N; 0 when not given): only utility uses it */
  numDocsInCollection?: number;
}

/** Context for the summary ("all") value. */
export interface AggregateContext {
  /** queries averaged over: evaluated queries, or every qrels query under -c */
  numQueries: number;
  averageComplete: boolean;
  /** grades of every qrels line of every query (for num_rel under -c) */
  allQrelsGrades: () => Iterable<number>;
}

export type Aggregate = 'mean' | 'sum' | ((perQuery: readonly number[], ctx: AggregateContext) => number);

/** What every measure declares, numeric or text. */
interface MeasureBase<P> {
  /** trec_eval's name, e.g. "ndcg_cut" */
  id: string;
  /** definition, formula and source */
  help: string;
  /** the parameters used when none are given, and how to read `-m id.<params>` */
  defaults: P;
  /** parameter text as written in a default spec, e.g. "5,10,15" (empty when none) */
  defaultParamText: string;
  parseParams(text: string): P;
  /** the printed names of the values this measure yields, e.g. ["P_5", "P_10"] */
  names(params: P): string[];
  /** per-query lines printed with -q (num_q prints only its summary) */
  printPerQuery: boolean;
}

/** A ranking measure; P is its parameter type (cutoffs, gain table, ...). */
export interface RankingMeasure<P = unknown> extends MeasureBase<P> {
  /** printed as an integer (num_ret...) or with four decimals */
  kind: 'int' | 'float';
  /** one value per name */
  perQuery(j: JudgedRanking, params: P, opts: EvalOptions): number[];
  /** how per-query values become the "all" value (trec_eval: mean over queries, or a sum) */
  aggregate: Aggregate;
}

/**
 * A measure whose per-query value is text (trec_eval's relstring): printed quoted with -q, never
 * summarised (no `all` line), and not a metric gates or reports can name.
 */
export interface TextMeasure<P = unknown> extends MeasureBase<P> {
  kind: 'text';
  /** one string per name */
  perQueryText(j: JudgedRanking, params: P, opts: EvalOptions): string[];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRankingMeasure = RankingMeasure<any> | TextMeasure<any>;

/*
 * The specs of requested measures live here, not in _spec.ts that parses them: _evaluate.ts needs
 * the type, and _spec.ts imports the registry, whose measures import _evaluate.ts (through
 * _format.ts), which made a cycle.
 */

/** A requested measure with its parameters, e.g. `-m ndcg_cut.5,10` -> ndcg_cut with [5, 10]. */
export interface MeasureSpec {
  measure: AnyRankingMeasure;
  params: unknown;
  /** the printed names of its values */
  names: string[];
}

export interface ParsedSpecs {
  specs: MeasureSpec[];
  /** print the runid line (requested by -m runid or a bundle) */
  runid: boolean;
}

/** A numeric measure's spec (what gates and reports can average). */
export interface NumericSpec extends MeasureSpec {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  measure: RankingMeasure<any>;
}
