import { RgateError } from '../core/errors.js';
import { findRankingMeasure, MEASURE_BUNDLES, NOT_OFFERED, RANKING_MEASURES } from './registry.js';
import type { MeasureSpec, NumericSpec, ParsedSpecs } from './_types.js';

/**
 * Read trec_eval-style `-m` arguments: a measure name, `name.params`, or a nickname (`official`,
 * `set`, `all_trec`, ...: MEASURE_BUNDLES). As in trec_eval each measure is computed once and printed
 * in the registry's order, whatever the order on the command line; the first parameters given for a
 * measure win. A measure trec_eval has but rgate does not compute (preference and judgment-group
 * measures, also through a nickname) is refused, naming the first in trec_eval's order: the one
 * trec_eval itself stops at when the qrels are plain qrels, the only format rgate reads.
 */
export function parseMeasureArgs(args: readonly string[]): ParsedSpecs {
  const chosen = new Map<string, string | undefined>();
  /** a requested measure rgate does not compute -> the -m argument that asked for it */
  const notOffered = new Map<string, string>();
  let runid = false;
  const want = (name: string, params: string | undefined, arg: string): void => {
    if (name === 'runid') {
      if (params !== undefined) throw new RgateError('usage', `-m ${arg}: runid takes no parameters`);
      runid = true;
      return;
    }
    if (NOT_OFFERED.some((m) => m.id === name)) {
      if (!notOffered.has(name)) notOffered.set(name, arg);
      return;
    }
    if (!findRankingMeasure(name)) {
      throw new RgateError(
        'usage',
        `unknown measure "${name}"`,
        `known: ${RANKING_MEASURES.map((m) => m.id).join(', ')}, runid; nicknames: ${Object.keys(MEASURE_BUNDLES).join(', ')}`,
      );
    }
    if (!chosen.has(name) || chosen.get(name) === undefined) chosen.set(name, params);
  };
  for (const arg of args) {
    const dot = arg.indexOf('.');
    const name = dot < 0 ? arg : arg.slice(0, dot);
    const params = dot < 0 ? undefined : arg.slice(dot + 1);
    if (params === '') {
      // trec_eval: "improper measure in parameter", then "illegal measure" (exit 1)
      throw new RgateError(
        'usage',
        `-m ${arg}: nothing after the dot`,
        `write ${name} alone for its default parameters, or ${name}.<params>; trec_eval refuses ${arg} too`,
      );
    }
    const bundle = MEASURE_BUNDLES[name];
    if (bundle) {
      if (params !== undefined) {
        throw new RgateError(
          'usage',
          `-m ${arg}: ${name} is a nickname for a list of measures and takes no parameters`,
          `give them to a measure of its list: -m ${name} -m <measure>.<params> (trec_eval ignores them here)`,
        );
      }
      for (const m of bundle) want(m, undefined, arg);
      continue;
    }
    want(name, params, arg);
  }
  const specs: MeasureSpec[] = [];
  for (const measure of RANKING_MEASURES) {
    if (!chosen.has(measure.id)) continue;
    const text = chosen.get(measure.id);
    const params = text === undefined ? measure.defaults : measure.parseParams(text);
    specs.push({ measure, params, names: measure.names(params) });
  }
  // after the parameters, as trec_eval initialises every measure before it computes one
  const refused = NOT_OFFERED.find((m) => notOffered.has(m.id));
  if (refused) {
    const arg = notOffered.get(refused.id)!;
    const which = MEASURE_BUNDLES[arg] ? `its measure ${refused.id}` : refused.id;
    throw new RgateError(
      'usage',
      `-m ${arg}: ${which} needs ${refused.needs}, which rgate does not read`,
      `rgate reads plain qrels (-R qrels); with those trec_eval 10 stops too ("Can't calculate measure '${refused.id}'", exit 4)`,
    );
  }
  return { specs, runid };
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
