/**
 * The nightly alarm's paired test: the newest run against the run its metrics are compared with,
 * query by query. The interval alarm compares a mean with the other run's own 95% interval, which
 * over a few dozen queries is wide: a re-ranked CACM run that lost nDCG@10 0.4543 -> 0.4195 stayed
 * inside it (paired sign-flip p = .007) and raised nothing. Both runs replayed the same pinned
 * queries, so each gate metric is compared per query, as `rgate compare` compares variants.
 */
import { SUITE_DEFAULTS, STATS_DEFAULTS } from '../src/core/defaults.js';
import { semanticWinModesOf } from '../src/metrics/index.js';
import type { Better, PairedSettings, PairedTest, Report } from '../src/documents/index.js';
import { num, pValue, testP } from '../gates/index.js';
import {
  applyHolm,
  gateDenominator,
  inHolmFamily,
  pairedTest,
  pairUp,
  perQueryValues,
  TIE_EPS,
} from './compare-stats.js';

/** Seeded like a comparison: the same two stored runs give the same p-values on every read. */
export const ALARM_PAIRED_SETTINGS: PairedSettings = {
  seed: SUITE_DEFAULTS.seed,
  alpha: STATS_DEFAULTS.alpha,
  resamples: STATS_DEFAULTS.resamples,
  permutations: STATS_DEFAULTS.permutations,
};

export interface PairedAlarms {
  settings: PairedSettings;
  /**
   * per run compared with (the comparable run, then the suite's baseline), one test per gate metric
   * both reports give per-query values for, in the order asked; Holm over all of them
   */
  tests: PairedTest[];
  /** the suite's baseline run, when the newest run was also tested against it */
  baseline?: string;
}

/**
 * The paired tests of `metrics` (gate metrics, in rule order) of the newest run `b` against each
 * stored report of `against` (the run compared with, then the baseline). Metrics that are not
 * measured per query in both are left out.
 */
export function pairedAlarmTests(
  metrics: readonly string[],
  against: readonly Report[],
  b: Report,
  settings: PairedSettings = ALARM_PAIRED_SETTINGS,
): Omit<PairedAlarms, 'baseline'> {
  const pb = perQueryValues(b.queries, semanticWinModesOf(b));
  const tests: PairedTest[] = [];
  for (const a of against) tests.push(...testsAgainst(metrics, a, b, pb, settings));
  return { settings, tests: applyHolm(tests, settings.alpha) };
}

function testsAgainst(
  metrics: readonly string[],
  a: Report,
  b: Report,
  pb: ReturnType<typeof perQueryValues>,
  settings: PairedSettings,
): PairedTest[] {
  const pa = perQueryValues(a.queries, semanticWinModesOf(a));
  const tests: PairedTest[] = [];
  for (const metric of metrics) {
    const va = pa[metric];
    const vb = pb[metric];
    if (!va || !vb) continue;
    const { x, y, unpaired } = pairUp(va, vb);
    if (x.length === 0) continue;
    const gate_n: [number | null, number | null] = [
      gateDenominator(a.metrics, metric),
      gateDenominator(b.metrics, metric),
    ];
    tests.push(
      pairedTest(metric, a.environment.run_id, b.environment.run_id, x, y, settings, { gate_n, unpaired }),
    );
  }
  return tests;
}

/**
 * The alarm a significant paired test raises when the newest run moved the bad way, or null:
 * "ndcg_cut.10 fell to 0.4195 in r2 from 0.4543 in r1, paired over 52 queries (worse on 14, better
 * on 3, tied on 35): sign-flip p=.0070, Holm p=.0140 over 2 gate metrics".
 */
export function pairedAlarm(
  t: PairedTest,
  tests: readonly PairedTest[],
  better: Better,
  /** what the run compared with is: ", the newest run on the same snapshot ...", " (the suite's baseline)" */
  passedOver: string,
): string | null {
  if (!t.significant || t.mean_delta === null || t.mean_a === null || t.mean_b === null) return null;
  const worse = better === 'higher' ? t.mean_delta < -TIE_EPS : t.mean_delta > TIE_EPS;
  if (!worse) return null;
  const verb = t.mean_delta < 0 ? 'fell' : 'rose';
  const family = tests.filter(inHolmFamily).length;
  const oneRun = tests.every((x) => x.a === t.a);
  const over = oneRun
    ? `${family} gate metric${family === 1 ? '' : 's'}`
    : `${family} test${family === 1 ? '' : 's'} (gate metrics against each run compared with)`;
  const [nWorse, nBetter] = better === 'higher' ? [t.losses, t.wins] : [t.wins, t.losses];
  return (
    `${t.metric} ${verb} to ${num(t.mean_b)} in ${t.b} from ${num(t.mean_a)} in ${t.a}${passedOver}, ` +
    `paired over ${t.n} queries (worse on ${nWorse}, better on ${nBetter}, tied on ${t.ties}): ` +
    `sign-flip p=${testP(t)}, Holm p=${pValue(t.p_holm)} over ${over}`
  );
}
