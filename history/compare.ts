import { STATS_DEFAULTS, SUITE_DEFAULTS } from '../src/core/defaults.js';
/**
 * Tuning comparisons (`rgate compare`): every variant of a suite's config runs with runSuite on the
 * same pinned snapshots and the same seed, then each per-query metric is compared pairwise with
 * paired statistics (compare-stats.ts). The session is a JSON document the renderers draw and the
 * run store keeps, so `rgate compare --list` / `--show` find it again.
 */
import { compareCodeUnits } from '../src/core/canonical-json.js';
import { deepestDepth, keptRankings, semanticWinModesOf, top1IdOf } from '../src/metrics/index.js';
import { RgateError } from '../src/core/errors.js';
import {
  COMPARE_SCHEMA_VERSION,
  RANKING_ONLY,
  type ArtifactRefs,
  type CompareSession,
  type CompareVariant,
  type GitRef,
  type KeptRankings,
  type KeptTop1,
  type PairedSettings,
  type PairedTest,
  type PairedTestKind,
  type QueryOutcome,
  type QueryRecord,
  type Report,
  type SuiteSpec,
  type SweepSpec,
} from '../src/documents/index.js';
import { MemoryRunStore } from '../src/store/memory-store.js';
import type { CompareSessionRow, RunStore } from '../src/store/types.js';
import { runSuite } from '../harness/run-suite.js';
import type { Progress } from '../harness/progress.js';
import {
  applyHolm,
  inHolmFamily,
  gateDenominator,
  nameWinners,
  pairedTest,
  pairUp,
  perQueryValues,
  topFlips,
} from './compare-stats.js';
import { checkVariants, type VariantSpec } from './compare-variants.js';
import { frozenConfigId } from '../src/snapshot/index.js';
import { betterOf, headline } from './trends.js';
import { judgmentHoles } from './label-holes.js';
import { labelEffects, withoutLabelWins } from './compare-labels.js';
import { notApplicableIn } from '../gates/index.js';
import { winnerHoles } from './compare-winner-holes.js';

/** Gate measures first (in DESIGN.md order), then ranking measures by id. */
const METRIC_ORDER = [
  'top1_useful_rate',
  'top1_useful_any_mode',
  'fallback_expectation_met',
  'replay_determinism',
];

function metricOrder(a: string, b: string): number {
  const ia = METRIC_ORDER.indexOf(a);
  const ib = METRIC_ORDER.indexOf(b);
  return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || compareCodeUnits(a, b);
}

export interface AnalyzeInput {
  suite: string;
  kind: 'variants' | 'sweep';
  sweep?: SweepSpec;
  /** rankings: replay 1's scored rankings to the ranking measures' depth (keptRankings) */
  variants: { spec: VariantSpec; report: Report; rankings?: KeptRankings }[];
  settings: PairedSettings;
  environment: { session_id: string; created_at: string };
  /** the query set the variants ran on: with it, each variant counts its unjudged top-k documents */
  queries?: readonly QueryRecord[];
}

/**
 * A variant's top ids (what `rgate label queue` pools), its top-1s with the answer facts a top-1 rate
 * reads (what counts the rates again under other grades) and, given the qrels, its judgment holes.
 */
function withRankings(
  report: Report,
  queries: readonly QueryRecord[] | undefined,
): Pick<CompareVariant, 'top_ids' | 'top1' | 'semantic_win_modes' | 'judgment_holes'> {
  const top_ids = Object.fromEntries(report.queries.map((q) => [q.query_id, q.actual.top_ids]));
  return {
    top_ids,
    top1: keptTop1s(report),
    semantic_win_modes: [...semanticWinModesOf(report)],
    ...(queries ? { judgment_holes: judgmentHoles(top_ids, queries) } : {}),
  };
}

/**
 * Replay 1's top-1 of each query as the run judged it (the gate context's top1: selected_id, else the
 * first ranked id; a leak is the judgment `excluded_tag`, which judgeTop1 decides before any grade).
 */
function keptTop1s(report: Report): Record<string, KeptTop1> {
  const out: Record<string, KeptTop1> = {};
  for (const q of report.queries) {
    const id = q.actual.ok ? top1IdOf(q) : undefined;
    if (id === undefined) continue;
    out[q.query_id] = {
      id,
      ...(q.actual.selection_mode ? { mode: q.actual.selection_mode } : {}),
      ...(q.top1_by === 'excluded_tag' ? { leak: true as const } : {}),
    };
  }
  return out;
}

/** From the variants' reports to the session document. Pure (statistics are seeded). */
export function analyzeCompare(input: AnalyzeInput): CompareSession {
  checkVariants(input.variants.map((v) => v.spec));
  const first = input.variants[0]!.report;
  const key = (a: ArtifactRefs) => [a.corpus_id, a.query_set_id, frozenConfigId(a.config_id)].join('\u0000');
  for (const v of input.variants) {
    if (key(v.report.artifacts) !== key(first.artifacts)) {
      throw new RgateError(
        'internal',
        `variant "${v.spec.label}" ran on ${v.report.artifacts.query_set_id} / ${v.report.artifacts.corpus_id}, not on the reference's snapshot`,
      );
    }
  }
  const opOf = new Map<string, 'min' | 'max'>();
  for (const r of first.gate.rules)
    if (r.metric !== 'query_count' && !opOf.has(r.metric)) opOf.set(r.metric, r.op);
  const better = (m: string) => betterOf(m, opOf.get(m));

  const variants: CompareVariant[] = input.variants.map((v, i) => ({
    id: `v${i + 1}`,
    label: v.spec.label,
    overrides: v.spec.overrides,
    ...(v.spec.sweep_value !== undefined ? { sweep_value: v.spec.sweep_value } : {}),
    run_id: v.report.environment.run_id,
    config_id: v.report.artifacts.config_id,
    config_sha256: v.report.artifacts.config_sha256,
    ...(v.report.system.weighting ? { weighting: v.report.system.weighting } : {}),
    verdict: v.report.gate.verdict,
    ...verdictReason(v.report.gate),
    aggregates: [...v.report.metrics]
      .sort((a, b) => compareCodeUnits(a.id, b.id))
      .map((m) => ({
        metric: m.id,
        kind: m.value.kind,
        value: headline(m.value),
        ...(m.value.kind === 'rate'
          ? { numerator: m.value.numerator, denominator: m.value.denominator }
          : {}),
      })),
    per_query: perQueryValues(v.report.queries, semanticWinModesOf(v.report)),
    ...(v.rankings
      ? {
          rankings: {
            relevance_level: v.report.settings.relevance_level,
            depth: deepestDepth(v.report.metrics.map((m) => m.id)),
            queries: v.rankings,
          },
        }
      : {}),
    ...withRankings(v.report, input.queries),
    selection_modes: selectionModeCounts(v.report.queries),
  }));

  const perQuery = new Set(variants.flatMap((v) => Object.keys(v.per_query)));
  // a measure the run report calls not applicable is neither tested nor counted in Holm's family
  const notTested = untestedMetrics(
    input.variants.map((v, i) => ({ id: variants[i]!.id, report: v.report })),
  ).filter((h) => perQuery.has(h.id));
  const untested = new Set(notTested.map((h) => h.id));
  const metricIds = [...perQuery].filter((m) => !untested.has(m)).sort(metricOrder);
  let tests: PairedTest[] = [];
  for (const m of metricIds) {
    for (let i = 0; i < variants.length; i++) {
      for (let j = i + 1; j < variants.length; j++) {
        const a = variants[i]!;
        const b = variants[j]!;
        const { x, y, unpaired } = pairUp(a.per_query[m] ?? {}, b.per_query[m] ?? {});
        const gate_n: [number | null, number | null] = [
          gateDenominator(input.variants[i]!.report.metrics, m),
          gateDenominator(input.variants[j]!.report.metrics, m),
        ];
        tests.push(pairedTest(m, a.id, b.id, x, y, input.settings, { gate_n, unpaired }));
      }
    }
  }
  tests = applyHolm(tests, input.settings.alpha);
  const ids = variants.map((v) => v.id);
  const ref = variants[0]!;
  const flips = input.variants.slice(1).map((v, i) => ({
    a: ref.id,
    b: variants[i + 1]!.id,
    queries: topFlips(input.variants[0]!.report.queries, v.report.queries),
  }));
  const gate_metrics = [...opOf.keys()];
  const label_effects = labelEffects({ gate_metrics, tests, flips });
  const session: CompareSession = {
    schema: COMPARE_SCHEMA_VERSION,
    suite: input.suite,
    kind: input.kind,
    ...(input.sweep ? { sweep: input.sweep } : {}),
    artifacts: { ...first.artifacts, config_id: frozenConfigId(first.artifacts.config_id) },
    settings: { ...input.settings, replays: first.settings.replays, pairs: 'all' },
    reference: ref.id,
    gate_metrics,
    metrics: metricIds.map((id) => ({ id, better: better(id) })),
    not_applicable: notTested,
    variants,
    tests,
    holm_tests: tests.filter(inHolmFamily).length,
    winners: withoutLabelWins(
      nameWinners(metricIds, ids, tests, better, input.settings),
      label_effects,
      tests,
    ),
    flips,
    label_effects,
    environment: input.environment,
  };
  if (!input.queries || !variants.every((v) => v.rankings)) return session;
  const { environment, ...rest } = session;
  const { holes, not_rescored } = winnerHoles(session, input.queries);
  return {
    ...rest,
    winner_holes: holes,
    ...(not_rescored.length ? { winner_holes_not_rescored: not_rescored } : {}),
    environment,
  };
}

/**
 * The measures left out of the paired tests, each with why: those gates/metric-applies.ts calls not
 * applicable to a variant's run (the rule its run report hides them by). One variant is enough, as a
 * test needs the measure on both sides; when only some variants are concerned the reason names them.
 */
function untestedMetrics(runs: readonly { id: string; report: Report }[]): { id: string; why: string }[] {
  const byMetric = new Map<string, Map<string, string[]>>();
  for (const r of runs) {
    for (const h of notApplicableIn(r.report)) {
      const whys = byMetric.get(h.id) ?? new Map<string, string[]>();
      whys.set(h.why, [...(whys.get(h.why) ?? []), r.id]);
      byMetric.set(h.id, whys);
    }
  }
  return [...byMetric]
    .map(([id, whys]) => ({
      id,
      why: [...whys]
        .map(([why, ids]) => (ids.length === runs.length ? why : `${why} in ${ids.join(', ')}`))
        .join('; '),
    }))
    .sort((a, b) => metricOrder(a.id, b.id));
}

/**
 * Why a variant's verdict is not PASS, in its gate's words: what overruled the run, else the first
 * reason at the verdict's level (its first failing rule or checklist item for a FAIL, though the gate
 * may list WATCH lines before it). None for PASS.
 */
function verdictReason(gate: Report['gate']): { verdict_reason?: string } {
  if (gate.verdict === 'PASS') return {};
  const level = `${gate.verdict} `;
  const line = gate.overruled
    ? gate.reasons[0]
    : (gate.reasons.find((r) => r.startsWith(level)) ?? gate.reasons[0]);
  // the level is the row's verdict already: the reason starts at the rule
  return line === undefined
    ? {}
    : { verdict_reason: line.startsWith(level) ? line.slice(level.length) : line };
}

/** Benchmark queries by replay 1's selection mode, as the run report's selection-mode table counts them. */
function selectionModeCounts(queries: readonly QueryOutcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const q of queries) {
    if (q.kind !== 'benchmark') continue;
    const key = q.actual.ok ? (q.actual.selection_mode ?? RANKING_ONLY) : 'error';
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

export interface CompareOptions {
  suite: string;
  spec: SuiteSpec;
  root: string;
  variants: VariantSpec[];
  kind: 'variants' | 'sweep';
  sweep?: SweepSpec;
  sessionId: string;
  createdAt: string;
  /** the commit and branch the comparison is made on, stored with each variant's run */
  git?: GitRef;
  /** where the variant runs go; default an in-memory store (variants are not nightly history) */
  store?: RunStore;
  seed?: number;
  replays?: number;
  concurrency?: number;
  alpha?: number;
  resamples?: number;
  permutations?: number;
  /** the paired test behind p (default: the sign-flip test) */
  test?: PairedTestKind;
  now?: () => number;
  progress?: Progress;
  /** interrupts the comparison (see RunSuiteOptions.signal); it then throws, nothing half-compared */
  signal?: AbortSignal;
  /** stop waiting for requests in flight (see RunSuiteOptions.abandon) */
  abandon?: AbortSignal;
  rgateVersion?: string;
}

/** Run every variant (same snapshot, same seed) and analyse them. Interrupted: throws, nothing half-compared. */
export async function runCompare(opts: CompareOptions): Promise<CompareSession> {
  checkVariants(opts.variants);
  const store = opts.store ?? new MemoryRunStore();
  const done: AnalyzeInput['variants'] = [];
  let queries: readonly QueryRecord[] | undefined;
  let seed: number | undefined = opts.seed;
  for (let i = 0; i < opts.variants.length; i++) {
    const spec = opts.variants[i]!;
    if (opts.signal?.aborted) throw interruptedAt(i, opts.variants.length, spec);
    const runId = `${opts.sessionId}-v${i + 1}`;
    const outcome = await runSuite({
      name: opts.suite,
      spec: opts.spec,
      root: opts.root,
      store,
      runId,
      compareSession: opts.sessionId,
      ...(opts.git ? { git: opts.git } : {}),
      startedAt: opts.createdAt,
      config: spec.overrides,
      ...(seed !== undefined ? { seed } : {}),
      ...(opts.replays !== undefined ? { replays: opts.replays } : {}),
      ...(opts.concurrency !== undefined ? { concurrency: opts.concurrency } : {}),
      ...(opts.now ? { now: opts.now } : {}),
      ...(opts.progress ? { progress: opts.progress } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.abandon ? { abandon: opts.abandon } : {}),
      ...(opts.rgateVersion ? { rgateVersion: opts.rgateVersion } : {}),
      finishedAt: () => opts.createdAt,
    });
    if (outcome.system_down) {
      const d = outcome.system_down;
      throw new RgateError(
        'sut_error',
        `comparison stopped at variant ${i + 1} of ${opts.variants.length} ("${spec.label}"): the system under test is down (${d.failed_requests} requests failed, none succeeded; first error: ${d.first_error.kind}: ${d.first_error.message})`,
        'start the system (or fix its command) and run the comparison again',
      );
    }
    if (outcome.interrupted) throw interruptedAt(i, opts.variants.length, spec);
    // every variant replays in the same orders: pin the seed the first one used
    seed = outcome.report.settings.seed;
    const r = outcome.report;
    const rankings = keptRankings(
      {
        queries: outcome.suite.queries,
        corpus: outcome.suite.corpus,
        observations: outcome.observations,
        replays: r.settings.replays,
        relevanceLevel: r.settings.relevance_level,
        seed: r.settings.seed,
        semanticWinModes: semanticWinModesOf(r),
      },
      deepestDepth(r.metrics.map((m) => m.id)),
    );
    done.push({ spec, report: r, rankings });
    queries ??= outcome.suite.queries;
  }
  return analyzeCompare({
    suite: opts.suite,
    kind: opts.kind,
    ...(opts.sweep ? { sweep: opts.sweep } : {}),
    variants: done,
    settings: {
      seed: seed ?? SUITE_DEFAULTS.seed,
      alpha: opts.alpha ?? STATS_DEFAULTS.alpha,
      resamples: opts.resamples ?? STATS_DEFAULTS.resamples,
      permutations: opts.permutations ?? STATS_DEFAULTS.permutations,
      ...(opts.test === 't' ? { test: 't' as const } : {}),
    },
    environment: { session_id: opts.sessionId, created_at: opts.createdAt },
    ...(queries ? { queries } : {}),
  });
}

function interruptedAt(i: number, count: number, spec: VariantSpec): RgateError {
  return new RgateError(
    'usage',
    `comparison interrupted at variant ${i + 1} of ${count} ("${spec.label}"): nothing compared`,
  );
}

/** The listing row of a session (what `rgate compare --list` and a project page show). */
export function sessionRow(s: CompareSession): CompareSessionRow {
  return {
    session_id: s.environment.session_id,
    suite: s.suite,
    created_at: s.environment.created_at,
    kind: s.kind,
    variant_count: s.variants.length,
    summary: s.variants.map((v) => `${v.id} ${v.label}`).join(' | '),
  };
}

/** Keep a session in the run store so `rgate compare --list` / `--show` find it. */
export function saveSession(store: RunStore, s: CompareSession): void {
  store.saveCompareSession(sessionRow(s), s);
}

/** A stored session back, checked to be one. */
export function loadSession(store: RunStore, sessionId: string): CompareSession {
  return checkSession(store.getCompareSession(sessionId), sessionId, store.location);
}

/** A stored session document (as any store returns it) checked to be one; `location` names the store. */
export function checkSession(stored: unknown, sessionId: string, location: string): CompareSession {
  const doc = stored as Partial<CompareSession> | undefined;
  if (!doc)
    throw new RgateError(
      'usage',
      `no comparison session ${sessionId} in ${location}`,
      'list them: rgate compare --list',
    );
  if (doc.schema !== COMPARE_SCHEMA_VERSION) {
    throw new RgateError(
      'input_invalid',
      `session ${sessionId} has schema ${String(doc.schema)}, expected ${COMPARE_SCHEMA_VERSION}`,
    );
  }
  const session = doc as CompareSession;
  // a session stored before label effects (or before they withheld a winner): the same computation, on read
  const label_effects = session.label_effects ?? labelEffects(session);
  const winners = withoutLabelWins(session.winners, label_effects, session.tests);
  const same = session.label_effects && winners.every((w, i) => w === session.winners[i]);
  return same ? session : { ...session, label_effects, winners };
}
