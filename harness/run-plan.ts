import { functionName } from '../src/systems/function-adapter.js';
import { canonicalJson } from '../src/core/canonical-json.js';
import { CONTRACT_DEFAULTS, SUITE_DEFAULTS } from '../src/core/defaults.js';
import { sha256 } from '../src/core/hash.js';
import { placed, RgateError } from '../src/core/errors.js';
import { resolveConfig } from '../src/core/resolve-config.js';
import type {
  ArtifactRefs,
  GatePolicy,
  MetricEntry,
  PartialConfig,
  PerQueryValues,
  Report,
  RetrievalConfig,
  SuiteSpec,
} from '../src/documents/index.js';
// snapshot's own modules, not its index: that one loads the importers (and tar), which a run never uses
import { checkSnapshotChange } from '../src/snapshot/snapshot-change.js';
import { loadFixtureSet } from '../src/snapshot/fixture-set.js';
import type { PinnedSuite } from '../src/snapshot/types.js';
import type { RunStore } from '../src/store/types.js';
import { loadGatePolicy } from '../gates/index.js';
import { rankingSpecsOf } from '../src/metrics/index.js';
// the engine's preset table alone, not its index (a run loads no more of the engine than it answers with)
import { weightingOf } from '../src/engine/profiles.js';
import { storedBaselineFor } from './run-baseline.js';
import { builtinMode } from '../src/systems/builtin-adapter.js';

/** A baseline for `vs_baseline` rules: a report file given by the caller, or the store's. */
export interface RunBaseline {
  metrics: MetricEntry[];
  source: string;
  run_id?: string;
  artifacts?: ArtifactRefs;
  reset_note?: string;
  /**
   * the baseline's per-query values (metric -> query id -> value), from its report's queries: a
   * baseline rule's detectable effect is one of per-query differences. Absent when the report has none
   */
  per_query?: PerQueryValues;
}

export interface PlanOptions {
  /** suite name (as in rgate.config.json) */
  name: string;
  spec: SuiteSpec;
  /** project root: fixtures/ and gates/ are resolved under it */
  root: string;
  /** where a stored baseline is looked up */
  store: RunStore;
  /** overrides of the suite's settings (CLI flags) */
  replays?: number;
  concurrency?: number;
  seed?: number;
  /** extra config overrides on top of the suite's (tuning comparisons, `--set`) */
  config?: PartialConfig;
  baseline?: RunBaseline;
}

/**
 * Everything a run is before it replays anything: the verified fixture set, the effective config and
 * its ids, the settings, the gate policy and its baseline. Built the same way for a fresh run, a
 * resumed one, a shard and a merge, so all of them measure and gate alike.
 */
export interface RunPlan {
  name: string;
  spec: SuiteSpec;
  root: string;
  suite: PinnedSuite;
  /** the suite's and the caller's config overrides, merged */
  overrides: PartialConfig;
  config: RetrievalConfig;
  artifacts: ArtifactRefs;
  settings: Report['settings'];
  policy?: GatePolicy;
  baseline?: RunBaseline;
  rankingMeasures: string[];
}

/**
 * Load and check everything before the first request: a bad policy or a refused baseline costs
 * nothing. Throws RgateError for the user's mistakes (exit 2).
 */
export function planRun(o: PlanOptions): RunPlan {
  const suite = inPlace('fixture', () => loadFixtureSet(o.spec.fixture, { root: o.root, verify: true }));
  const overrides = mergeOverrides(withSystemParams(o.spec), o.config);
  checkParamsAllowed(o.spec, overrides);
  const config = resolveConfig(overrides, suite.config);
  const artifacts = effectiveArtifacts(suite.artifacts, config);
  const settings: Report['settings'] = {
    replays: o.replays ?? o.spec.replays ?? SUITE_DEFAULTS.replays,
    concurrency: o.concurrency ?? o.spec.concurrency ?? SUITE_DEFAULTS.concurrency,
    seed: o.seed ?? o.spec.seed ?? SUITE_DEFAULTS.seed,
    relevance_level: o.spec.relevance_level ?? SUITE_DEFAULTS.relevance_level,
    restart_between_replays: o.spec.restart_between_replays ?? SUITE_DEFAULTS.restart_between_replays,
  };
  // a measure name is knowable now: a typo must not cost a run whose measures then cannot be computed
  for (const [i, id] of (o.spec.ranking_measures ?? []).entries()) {
    inPlace(`ranking_measures/${i}`, () => rankingSpecsOf([id]));
  }
  const gate = o.spec.gate;
  const policy = gate ? inPlace('gate', () => loadGatePolicy(gate, o.root)) : undefined;
  const baseline = resolveRunBaseline(o, policy, artifacts, suite);
  return {
    name: o.name,
    spec: o.spec,
    root: o.root,
    suite,
    overrides,
    config,
    artifacts,
    settings,
    ...(policy ? { policy } : {}),
    ...(baseline ? { baseline } : {}),
    rankingMeasures:
      o.spec.ranking_measures ?? defaultRankingMeasures(effectiveSystem(o.spec, config), config),
  };
}

/** `f()`, its RgateError (if any) marked as the suite field `at`'s mistake. */
function inPlace<T>(at: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw placed(at, e);
  }
}

/** Every (replay, query) pair of a plan, in replay order then query id order. */
export function plannedRequests(plan: RunPlan): number {
  return plan.settings.replays * plan.suite.queries.length;
}

/**
 * The baseline for `vs_baseline` rules: a report file given by the caller, else the suite's baseline
 * in the run store. Either way, a baseline on other snapshot ids is refused unless the fixture's
 * freeze history carries a reset note for every version step, which the report then cites.
 */
function resolveRunBaseline(
  o: PlanOptions,
  policy: GatePolicy | undefined,
  artifacts: ArtifactRefs,
  suite: PinnedSuite,
): RunBaseline | undefined {
  if (o.baseline) {
    if (!o.baseline.artifacts) return o.baseline;
    const check = checkSnapshotChange(
      o.baseline.artifacts,
      artifacts,
      suite.freeze.history,
      `baseline report ${o.baseline.source}`,
    );
    return check.same ? o.baseline : { ...o.baseline, reset_note: check.reset_note };
  }
  return storedBaselineFor(o.store, o.name, policy, artifacts, suite.freeze);
}

/**
 * The caller's overrides deep-merged onto the suite's: still a partial config, so what neither
 * states keeps the fixture's own value (resolving against the defaults here would put them over it).
 */
function mergeOverrides(a: PartialConfig | undefined, b: PartialConfig | undefined): PartialConfig {
  if (!a) return b ?? {};
  if (!b) return a;
  return resolveConfig(b, a as RetrievalConfig) as PartialConfig;
}

/**
 * The suite's config overrides with its system's own `params` and `ranked_entries` folded in under
 * `system`, so they are hashed with the rest of the config and a `--set system.params.x=...` merges
 * over them. `ranked_entries: auto` is the default and is not folded: a suite that states it keeps
 * the config id of one that does not (and every id stored before the setting was hashed).
 */
export function withSystemParams(spec: SuiteSpec): PartialConfig | undefined {
  const s = spec.system;
  const params = s.type === 'builtin' ? undefined : s.params;
  const ranked = s.type === 'builtin' || s.ranked_entries === 'auto' ? undefined : s.ranked_entries;
  if (params === undefined && ranked === undefined) return spec.config;
  const system = {
    ...(params !== undefined ? { params } : {}),
    ...(ranked !== undefined ? { ranked_entries: ranked } : {}),
  };
  return resolveConfig({ system }, (spec.config ?? {}) as RetrievalConfig) as PartialConfig;
}

/** The built-in engine has no parameters of its own: a `system.params` there would be a variant that changes nothing. */
function checkParamsAllowed(spec: SuiteSpec, overrides: PartialConfig): void {
  if (spec.system.type !== 'builtin' && overrides.system?.mode !== undefined)
    throw new RgateError(
      'usage',
      `system.mode: chooses the builtin engine's mode; this suite's system is a ${spec.system.type} system`,
      'a command or http system takes its own settings as system.params.<key> ({params.<key>} placeholders)',
    );
  if (spec.system.type === 'builtin' && overrides.system?.ranked_entries !== undefined)
    throw new RgateError(
      'usage',
      'system.ranked_entries: the builtin engine ranks its own results',
      'ranked_entries chooses which entries of a context-load-v0 answer a command or http system gives are ranked',
    );
  const params = overrides.system?.params;
  if (spec.system.type !== 'builtin' || params === undefined || Object.keys(params).length === 0) return;
  throw new RgateError(
    'usage',
    `system.params.${Object.keys(params).sort()[0]}: the builtin engine takes no system parameters`,
    'system.params are passed to command and http systems ({params.<key>} placeholders); tune the engine with the config keys its mode reads (rgate compare --set semantic.hybrid_confidence_min=0.9)',
  );
}

/**
 * With config overrides (suite, tuning or system params) that change the effective config, the config
 * id names the effective config, not the frozen file: `<frozen id>+overrides-<12 hex of its sha256>`,
 * so two variants carry two ids. Overrides that restate the frozen values change nothing.
 */
function effectiveArtifacts(frozen: ArtifactRefs, config: RetrievalConfig): ArtifactRefs {
  const digest = sha256(canonicalJson(config));
  if (digest === frozen.config_sha256) return frozen;
  const short = digest.slice('sha256:'.length, 'sha256:'.length + 12);
  return { ...frozen, config_id: `${frozen.config_id}+overrides-${short}`, config_sha256: digest };
}

function defaultRankingMeasures(system: SuiteSpec['system'], config: RetrievalConfig): string[] {
  return (system.type === 'builtin' ? system.mode : config.mode) === 'bm25'
    ? ['map', 'P.30', 'ndcg_cut.10', 'recall.1000']
    : ['ndcg_cut.5', 'recall.10', 'recip_rank'];
}

/**
 * The system a run's config makes of the suite's: a builtin system with the mode it runs (a
 * variant's `system.mode` over the suite's, builtinMode), any other as the suite states it.
 */
export function effectiveSystem(spec: SuiteSpec, config: RetrievalConfig): SuiteSpec['system'] {
  const s = spec.system;
  return s.type === 'builtin' ? { ...s, mode: builtinMode(s.mode, config) } : s;
}

/** How a report names the system: `builtin:<mode>`, the command line, `<path>#<export>`, or the URL. */
export function systemName(spec: SuiteSpec, config?: RetrievalConfig): string {
  const s = config ? effectiveSystem(spec, config) : spec.system;
  if (s.type === 'builtin') return `builtin:${s.mode ?? 'config'}`;
  if (s.type === 'command') return s.argv.join(' ');
  if (s.type === 'module') return `${s.path}#${s.export ?? 'default'}`;
  if (s.type === 'function') return `function ${functionName(s)}`;
  return s.url;
}

/**
 * How a report names the system under test, with the selection modes its contract counts as
 * semantic wins (the system's `semantic_win_modes`, else the default; builtin systems use the default).
 */
export function systemIdentity(
  spec: SuiteSpec,
  contract: string,
  config?: RetrievalConfig,
): Report['system'] {
  const s = spec.system;
  const modes =
    (s.type === 'builtin' ? undefined : s.semantic_win_modes) ?? CONTRACT_DEFAULTS.semantic_win_modes;
  // the effective setting (a `--set system.ranked_entries=...` variant included), for the contract that reads it
  const ranked =
    contract === 'context-load-v0' && s.type !== 'builtin'
      ? (config?.system?.ranked_entries ?? s.ranked_entries ?? 'auto')
      : undefined;
  // only the builtin context-load engine is known to read weighting_mode; its own preset table says the weights
  const weighting =
    s.type === 'builtin' && contract === 'context-load-v0' && config
      ? weightingOf(config.weighting_mode)
      : undefined;
  return {
    name: systemName(spec, config),
    kind: s.type,
    contract,
    semantic_win_modes: [...modes],
    ...(ranked !== undefined ? { ranked_entries: ranked } : {}),
    ...(weighting ? { weighting } : {}),
  };
}
