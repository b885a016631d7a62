import type { PartialConfig, RunSettings, SuiteSpec } from '../src/documents/index.js';
import type { RunStore } from '../src/store/types.js';
import { planRun, type RunPlan } from './run-plan.js';

/** What a stored run (or a shard file) keeps of how it began: enough to plan it again. */
export interface PlanOfRecord {
  suite: string;
  spec: SuiteSpec;
  overrides?: PartialConfig | undefined;
  settings: Pick<RunSettings, 'replays' | 'concurrency' | 'seed'>;
}

/**
 * The plan a stored run was made with, rebuilt from what it stored (its suite spec, overrides and
 * settings) against the project as it is now: resume, `rgate report` of an unfinished run and
 * `rgate merge` all measure with it, so the three cannot plan a run three ways.
 */
export function planOfRecord(r: PlanOfRecord, root: string, store: RunStore): RunPlan {
  return planRun({
    name: r.suite,
    spec: r.spec,
    root,
    store,
    replays: r.settings.replays,
    concurrency: r.settings.concurrency,
    seed: r.settings.seed,
    ...(r.overrides ? { config: r.overrides } : {}),
  });
}
