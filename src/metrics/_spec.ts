import { RgateError } from '../core/errors.js';
import { findRankingMeasure, MEASURE_BUNDLES, RANKING_MEASURES } from './registry.js';
import type { AnyRankingMeasure, RankingMeasure } from './_types.js';

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

/**
 * Read trec_eval-style `-m` arguments: a measure name, `name.params`, or a bundle (`official`,
 * `all_trec`). As in trec_eval each measure is computed once and printed in the registry's order,
 * whatever the order on the command line; the first parameters given for a measure win.
 */
export function parseMeasureArgs(args: readonly string[]): ParsedSpecs {
  const chosen = new Map<string, string | undefined>();
  let runid = false;
  const want = (name: string, params: string | undefined): void => {
    if (name === 'runid') {
      runid = true;
      return;
    }
    if (!findRankingMeasure(name)) {
      throw new RgateError(
        'usage',
        `unknown measure "${name}"`,
        `known: ${RANKING_MEASURES.map((m) => m.id).join(', ')}, runid; bundles: ${Object.keys(MEASURE_BUNDLES).join(', ')}`,
      );
    }
    if (!chosen.has(name) || chosen.get(name) === undefined) chosen.set(name, params);
  };
  for (const arg of args) {
    const dot = arg.indexOf('.');
    const name = dot < 0 ? arg : arg.slice(0, dot);
    const params = dot < 0 ? undefined : arg.slice(dot + 1);
    const bundle = MEASURE_BUNDLES[name];
    if (bundle && params === undefined) {
      for (const m of bundle) want(m, undefined);
      continue;
    }
    want(name, params === '' ? undefined : params);
  }
  const specs: MeasureSpec[] = [];
  for (const measure of RANKING_MEASURES) {
    if (!chosen.has(measure.id)) continue;
    const text = chosen.get(measure.id);
    const params = text === undefined ? measure.defaults : measure.parseParams(text);
    specs.push({ measure, params, names: measure.names(params) });
  }
  return { specs, runid };
}

/** A numeric measure's spec (what gates and reports can average). */
export interface NumericSpec extends MeasureSpec {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  measure: RankingMeasure<any>;
}

/**
 * One ranking metric id as gates and reports name it: `map`, `ndcg_cut.5`, `P.10`, `ndcg.1=3,2=9`.
 * A text measure (relstring) is not a metric: it has no number to average.
 */
export function parseRankingMetricId(id: string): NumericSpec | undefined {
  const dot = id.indexOf('.');
  const name = dot < 0 ? id : id.slice(0, dot);
  const measure = findRankingMeasure(name);
  if (!measure || measure.kind === 'text') return undefined;
  try {
    const params = dot < 0 ? measure.defaults : measure.parseParams(id.slice(dot + 1));
    return { measure, params, names: measure.names(params) };
  } catch {
    return undefined;
  }
}
