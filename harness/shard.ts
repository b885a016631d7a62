import { canonicalJson, compareCodeUnits } from '../src/core/canonical-json.js';
import { SYSTEM_DEFAULTS } from '../src/core/defaults.js';
import { RgateError } from '../src/core/errors.js';
import { sha256 } from '../src/core/hash.js';
import { SHARD_SCHEMA_VERSION, type Observation, type ShardFile } from '../src/documents/index.js';
import { MemoryRunStore } from '../src/store/memory-store.js';
import { createSystem } from '../src/systems/index.js';
import { silentProgress } from './progress.js';
import { replayQueries } from './replay.js';
import { inReportOrder } from './run-report.js';
import { planRun, systemIdentity, type RunPlan } from './run-plan.js';
import type { RunSuiteOptions } from './run-suite.js';

/** `i/n`: this runner's slice, 1-based. */
export interface Shard {
  index: number;
  count: number;
}

export function parseShard(text: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index < 1 || index > count) {
    throw new RgateError(
      'usage',
      `--shard ${text}: expected i/n with 1 <= i <= n (e.g. 2/3)`,
      'rgate run suite --shard 1/3',
    );
  }
  return { index, count };
}

/**
 * Which shard performs a (replay, query) pair: the pairs are numbered in (replay, query id) order
 * and dealt round-robin, so the slices are disjoint, cover the run, differ in size by at most one,
 * and every shard gets some of every replay.
 */
export function shardOf(plan: RunPlan, count: number): (replay: number, queryId: string) => number {
  const ids = plan.suite.queries.map((q) => q.query_id).sort(compareCodeUnits);
  const position = new Map(ids.map((id, i) => [id, i]));
  return (replay, queryId) => (((replay - 1) * ids.length + position.get(queryId)!) % count) + 1;
}

export type RunShardOptions = Omit<
  RunSuiteOptions,
  'store' | 'runId' | 'startedAt' | 'resume' | 'baseline'
> & {
  shard: Shard;
};

/**
 * Run one shard: the same plan as the whole run (same seed, same replay orders), only this shard's
 * pairs. Its observations go into a shard file, not the history: `rgate merge` makes the run.
 */
export async function runShard(o: RunShardOptions): Promise<ShardFile> {
  const store = new MemoryRunStore();
  const plan = planRun({ ...o, store });
  const system = createSystem(o.spec.system, {
    corpus: plan.suite.corpus,
    config: plan.config,
    dir: plan.suite.dir,
    baseDir: o.root,
  });
  const runId = `shard-${o.shard.index}-of-${o.shard.count}`;
  store.beginRun({
    run_id: runId,
    suite: o.name,
    started_at: '',
    artifacts: plan.artifacts,
    settings: plan.settings,
  });
  const owner = shardOf(plan, o.shard.count);
  try {
    await system.start();
    await replayQueries({
      plan,
      system,
      store,
      runId,
      include: (r, q) => owner(r, q) === o.shard.index,
      ...(o.signal ? { signal: o.signal } : {}),
      ...(o.abandon ? { abandon: o.abandon } : {}),
      progress: o.progress ?? silentProgress,
      now: o.now ?? (() => 0),
      downAfter: o.systemDownAfter ?? SYSTEM_DEFAULTS.down_after_failures,
    });
  } finally {
    await system.close();
  }
  return {
    schema: SHARD_SCHEMA_VERSION,
    suite: o.name,
    shard: o.shard,
    artifacts: plan.artifacts,
    settings: plan.settings,
    spec: o.spec,
    overrides: plan.overrides,
    system: systemIdentity(o.spec, system.contract, plan.config),
    observations: inReportOrder(store.getObservations(runId)),
  };
}

/**
 * Check that shard files belong together (one suite, the same snapshots, settings, spec and shard
 * count, every index exactly once, every pair observed exactly once) and combine their observations.
 * `labels` name the files in errors.
 */
export function combineShards(
  shards: readonly ShardFile[],
  labels: readonly string[],
): { first: ShardFile; observations: Observation[] } {
  if (shards.length === 0) throw new RgateError('usage', 'rgate merge needs the shard files of one run');
  const first = shards[0]!;
  const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
  const checks: [string, (s: ShardFile) => unknown][] = [
    ['suite', (s) => s.suite],
    ['snapshots (corpus, query set and config ids)', (s) => s.artifacts],
    ['settings (replays, concurrency, seed, relevance level)', (s) => s.settings],
    ['suite spec and config overrides', (s) => [s.spec, s.overrides]],
    ['shard count', (s) => s.shard.count],
  ];
  shards.forEach((s, i) => {
    for (const [what, get] of checks) {
      if (!same(get(s), get(first))) {
        throw new RgateError(
          'input_invalid',
          `${labels[i]} and ${labels[0]} differ in their ${what}: they are not shards of one run`,
          'merge the shard files written by one CI run (same commit, same rgate.config.json)',
        );
      }
    }
  });
  const seen = new Map<number, string>();
  shards.forEach((s, i) => {
    const prev = seen.get(s.shard.index);
    if (prev)
      throw new RgateError(
        'input_invalid',
        `${labels[i]} and ${prev} are both shard ${s.shard.index}/${s.shard.count}`,
      );
    seen.set(s.shard.index, labels[i]!);
  });
  const missing = Array.from({ length: first.shard.count }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length) {
    throw new RgateError(
      'input_invalid',
      `shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${first.shard.count}`).join(', ')} missing: a merged run needs every shard`,
      'pass every shard file of the run',
    );
  }
  const byPair = new Map<string, Observation>();
  shards.forEach((s, i) => {
    for (const o of s.observations) {
      const key = `${o.replay}\u0000${o.query_id}`;
      if (byPair.has(key))
        throw new RgateError(
          'input_invalid',
          `${labels[i]}: replay ${o.replay} of query ${o.query_id} is in two shards`,
        );
      byPair.set(key, o);
    }
  });
  return { first, observations: inReportOrder([...byPair.values()]) };
}

/**
 * What a merge is made of, as a digest: the suite, snapshots, settings, spec, overrides and system the
 * shards agree on, and every observation in report order. The same shards (in any order, any number
 * of times) give the same key, so the store keeps one run for them.
 */
export function mergeContentKey(first: ShardFile, observations: readonly Observation[]): string {
  return sha256(
    canonicalJson({
      suite: first.suite,
      artifacts: first.artifacts,
      settings: first.settings,
      spec: first.spec,
      overrides: first.overrides,
      system: first.system,
      observations: inReportOrder([...observations]),
    }),
  );
}
