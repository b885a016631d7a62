import { createPrng, deriveSeed, shuffled } from '../src/core/prng.js';
import type { Observation, QueryRecord, RetrievalConfig } from '../src/documents/index.js';
import type { RunStore } from '../src/store/types.js';
import type { SystemAdapter } from '../src/systems/types.js';
import { fingerprint } from './fingerprint.js';
import { runPool } from './pool.js';
import type { Progress } from './progress.js';
import type { RunPlan } from './run-plan.js';

export interface ReplayOptions {
  plan: RunPlan;
  system: SystemAdapter;
  store: RunStore;
  runId: string;
  /** which (replay, query) pairs to perform; default all (a resume skips stored ones, a shard takes its slice) */
  include?: (replay: number, queryId: string) => boolean;
  /** stop: no new request is started once it aborts (requests in flight go on) */
  signal?: AbortSignal;
  /**
   * abandon: requests still in flight when it aborts are cut short (the adapter kills their process
   * group or closes their connection) and not stored, so a resume makes them again; the replay
   * returns without waiting for them
   */
  abandon?: AbortSignal;
  progress: Progress;
  now: () => number;
  /** stop once this many requests in a row failed while none has succeeded (system down) */
  downAfter: number;
}

export interface ReplayResult {
  /** requests made now (not counting stored ones) */
  requests: number;
  succeeded: number;
  /** the failed requests, kept only while none has succeeded (to name a down system's first error) */
  failuresBeforeSuccess: Observation[];
}

/** The seed of replay r's query order: the same for a run, its resume and each of its shards. */
export function orderSeed(seed: number, replay: number): number {
  return deriveSeed(seed, `replay-${replay}`);
}

/**
 * Replay the plan's queries against a started system, replay by replay in seeded shuffled orders,
 * storing each Observation as it arrives (so nothing observed is lost if the process dies).
 * Returns when done, when `signal` aborts (once the requests in flight end, or at once when
 * `abandon` aborts), or when the system looks down.
 */
export async function replayQueries(o: ReplayOptions): Promise<ReplayResult> {
  const { plan, system } = o;
  const { replays, concurrency, seed, restart_between_replays: restart } = plan.settings;
  // a system that is down, missing or crashing on start fails every request: stop after a bounded
  // number instead of waiting out every timeout, and say so (exit 3 in the CLI)
  const stopDown = new AbortController();
  const signal = AbortSignal.any(
    [o.signal, o.abandon, stopDown.signal].filter((s): s is AbortSignal => s !== undefined),
  );
  let requests = 0;
  let succeeded = 0;
  let failedInRow = 0;
  const failuresBeforeSuccess: Observation[] = [];
  for (let r = 1; r <= replays; r++) {
    if (signal.aborted) break;
    const order = shuffled(plan.suite.queries, createPrng(orderSeed(seed, r))).filter(
      (q) => !o.include || o.include(r, q.query_id),
    );
    if (order.length === 0) continue;
    if (r > 1 && restart) await system.restart();
    o.progress.start(`${plan.name} replay ${r}/${replays}`, order.length);
    const pool = runPool(
      order,
      concurrency,
      async (q) => {
        const obs = await observe(system, q, r, plan.config, plan.suite.dir, o.now, o.abandon);
        // an answer cut short, or arriving after rgate stopped waiting, is no observation of the system
        if (o.abandon?.aborted) return;
        o.store.addObservation(o.runId, obs);
        requests++;
        o.progress.tick(obs.ok);
        if (obs.ok) {
          succeeded++;
          failedInRow = 0;
          failuresBeforeSuccess.length = 0;
        } else if (succeeded === 0) {
          failuresBeforeSuccess.push(obs);
          if (++failedInRow >= o.downAfter) stopDown.abort();
        } else failedInRow++;
      },
      signal,
    );
    if (o.abandon) await untilAborted(pool, o.abandon);
    if (!o.abandon?.aborted) await pool;
    o.progress.finish();
    if (o.abandon?.aborted) break;
  }
  return { requests, succeeded, failuresBeforeSuccess };
}

/** `work` settled, or `signal` aborted, whichever comes first (a later rejection of `work` is dropped). */
function untilAborted(work: Promise<unknown>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      signal.removeEventListener('abort', done);
      resolve();
    };
    signal.addEventListener('abort', done, { once: true });
    work.then(done, done);
  });
}

async function observe(
  system: SystemAdapter,
  q: QueryRecord,
  replay: number,
  config: RetrievalConfig,
  fixtureDir: string,
  now: () => number,
  abandon: AbortSignal | undefined,
): Promise<Observation> {
  const started = now();
  let raw;
  try {
    raw = await system.request(q, { replay, config, fixtureDir, ...(abandon ? { signal: abandon } : {}) });
  } catch (e) {
    // Adapters promise never to throw; if one does, that is still the system's failure, recorded.
    raw = {
      query_id: q.query_id,
      ok: false,
      error: { kind: 'adapter_exception', message: (e as Error)?.message ?? String(e) },
      ranked: [],
      fallback: { triggered: false },
      usage: { files: 0, chars: 0, tokens: 0 },
      latency_ms: now() - started,
      contract: { name: system.contract, valid: false, errors: [] },
    };
  }
  return { ...raw, query_id: q.query_id, replay, fingerprint: fingerprint({ ...raw, query_id: q.query_id }) };
}
