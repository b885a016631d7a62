import { RgateError } from '../src/core/errors.js';
import type { GitRef, Report, ShardFile, StoredPlan } from '../src/documents/index.js';
import { thisProcess } from '../src/store/run-owner.js';
import type { RunStore } from '../src/store/types.js';
import { isValidReport } from '../gates/index.js';
import { upgradeReport } from './failure-reasons.js';
import { buildRunReport, inReportOrder } from './run-report.js';
import { plannedRequests } from './run-plan.js';
import { combineShards, mergeContentKey } from './shard.js';
import { planOfRecord } from './stored-plan.js';

export interface MergeShardsOptions {
  shards: readonly ShardFile[];
  /** each shard file as the user named it, for messages */
  labels: readonly string[];
  root: string;
  store: RunStore;
  /** the id and start of the run the merge makes (the clock lives at the edge) */
  newRun: () => { runId: string; startedAt: string };
  finishedAt: () => string;
  git?: GitRef;
  rgateVersion: string;
  /** called once the merged run is known and before anything is stored (the CLI reads the suite's history ahead) */
  beforeStore?: (suite: string, existingRunId: string | undefined) => void;
}

export interface MergeResult {
  runId: string;
  report: Report;
  /** the same shards were merged before: their run is the answer, nothing new was stored */
  again: boolean;
}

/**
 * `rgate merge`'s use-case: the shards of a CI matrix become one run, stored and reported as if run
 * at once. Checks that they cover the run and were made on the suite's snapshots; the same shards
 * merged again (a retried CI job) give back the run they made, and a merge of them that was killed
 * is finished under its own id.
 */
export function mergeShards(o: MergeShardsOptions): MergeResult {
  const { first, observations } = combineShards(o.shards, o.labels);
  const plan = planOfRecord(first, o.root, o.store);
  if (JSON.stringify(plan.artifacts) !== JSON.stringify(first.artifacts)) {
    throw new RgateError(
      'freeze_violation',
      `the shards ran on ${first.artifacts.corpus_id}, ${first.artifacts.query_set_id}, ${first.artifacts.config_id}; the suite's snapshots here are ${plan.artifacts.corpus_id}, ${plan.artifacts.query_set_id}, ${plan.artifacts.config_id}`,
      'merge on the same commit the shards ran on',
    );
  }
  const planned = plannedRequests(plan);
  if (observations.length !== planned) {
    throw new RgateError(
      'input_invalid',
      `the shards hold ${observations.length} of the run's ${planned} requests: a shard was interrupted`,
      'rerun the incomplete shard, then merge again',
    );
  }
  const contentKey = mergeContentKey(first, observations);
  const existing = o.store.findRunByContentKey(contentKey);
  o.beforeStore?.(first.suite, existing?.run_id);
  const keptValue = existing?.status === 'complete' ? o.store.getReport(existing.run_id) : undefined;
  if (existing && isValidReport(keptValue)) {
    return { runId: existing.run_id, report: upgradeReport(keptValue), again: true };
  }
  const { runId: newId, startedAt } = o.newRun();
  const runId = existing?.run_id ?? newId;
  const stored: StoredPlan = { spec: first.spec, overrides: first.overrides, system: first.system };
  if (existing) o.store.resumeRun(runId, thisProcess());
  else {
    o.store.beginRun({
      run_id: runId,
      suite: first.suite,
      started_at: startedAt,
      artifacts: plan.artifacts,
      settings: plan.settings,
      plan: stored,
      owner: thisProcess(),
      content_key: contentKey,
      ...(o.git ? { git: o.git } : {}),
    });
  }
  for (const ob of observations) o.store.addObservation(runId, ob);
  const report = buildRunReport(plan, inReportOrder(o.store.getObservations(runId)), {
    runId,
    startedAt,
    rgateVersion: o.rgateVersion,
    system: first.system,
    wallMs: 0,
  });
  o.store.finishRun(runId, {
    status: 'complete',
    finished_at: o.finishedAt(),
    gate_id: report.gate.gate_id,
    verdict: report.gate.verdict,
    metrics: report.metrics,
    report,
  });
  return { runId, report, again: false };
}
