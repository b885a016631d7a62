/**
 * Pooling as TREC does it (`rgate label pool`): several systems, or several modes of the builtin
 * engine, answer every query of one fixture set once; the union of their top k per query, minus what
 * the qrels already judge, is the labeling queue. The queue is blind: no item says which system
 * retrieved it or at what rank, and items come in query then doc id order, so an assessor's grade
 * cannot lean towards (or against) a system.
 */
import { RgateError } from '../src/core/errors.js';
import type { Observation, PartialConfig, SuiteSpec } from '../src/documents/index.js';
import { runSuite } from '../harness/run-suite.js';
import { MemoryRunStore } from '../src/store/memory-store.js';
import type { QueueRankings, RankingSource } from './label-queue.js';

/** One system to pool: a suite run as it is configured, or the target suite in one builtin mode. */
export interface PoolSystem {
  /** s1, s2 ... in the order given */
  id: string;
  /** what the user named: "mode bm25", "suite context-load" */
  label: string;
  /** the suite name its runs carry */
  suite: string;
  spec: SuiteSpec;
}

/**
 * The builtin modes a pool can name: the engine's retrieval modes, plus the semantic mode's two
 * ranking methods by name (`hybrid`: reciprocal-rank fusion of BM25 and the embedder, `cosine`: the
 * embedder alone). `semantic` is the set's own semantic config, whichever method it states.
 */
const MODE_OVERRIDES: Record<
  string,
  { mode: 'bm25' | 'semantic' | 'context-load' | 'ku'; config: PartialConfig }
> = {
  bm25: { mode: 'bm25', config: { mode: 'bm25' } },
  semantic: { mode: 'semantic', config: { mode: 'semantic' } },
  hybrid: { mode: 'semantic', config: { mode: 'semantic', semantic: { method: 'hybrid_rrf' } } },
  cosine: { mode: 'semantic', config: { mode: 'semantic', semantic: { method: 'cosine' } } },
  'context-load': { mode: 'context-load', config: { mode: 'context-load' } },
  ku: { mode: 'ku', config: { mode: 'ku' } },
};

/** Every mode name `--modes` accepts, in the order `--modes all` runs them. */
const POOL_MODES: readonly string[] = ['bm25', 'semantic', 'hybrid', 'cosine', 'context-load', 'ku'];

/** The builtin modes that rank documents of an ordinary fixture set (`--modes all`; ku needs a KU set). */
export const POOL_MODES_ALL: readonly string[] = ['bm25', 'semantic', 'hybrid', 'cosine', 'context-load'];

/** The target suite with its system replaced by the builtin engine in one mode. */
export function modeSystem(suite: string, spec: SuiteSpec, mode: string, id: string): PoolSystem {
  const m = MODE_OVERRIDES[mode];
  if (!m) {
    throw new RgateError(
      'usage',
      `--modes: unknown mode "${mode}"`,
      `known modes: ${POOL_MODES.join(', ')} (or all = ${POOL_MODES_ALL.join(',')})`,
    );
  }
  const config: PartialConfig = {
    ...(spec.config ?? {}),
    ...m.config,
    ...(m.config.semantic ? { semantic: { ...(spec.config?.semantic ?? {}), ...m.config.semantic } } : {}),
  };
  return {
    id,
    label: `mode ${mode}`,
    suite,
    spec: { ...spec, system: { type: 'builtin', mode: m.mode }, config, gate: null },
  };
}

/**
 * One answer's ranking as the gate reads it: the selected record first (what the top-1 measures
 * judge, even when a fallback chose it), then the ranked items in the system's order.
 */
function gateRanking(o: Observation): string[] {
  const ids = o.ranked.map((r) => r.id);
  if (o.selected_id === undefined || o.selected_id === null) return ids;
  return [o.selected_id, ...ids.filter((id) => id !== o.selected_id)];
}

export interface PoolRunOptions {
  /** the suite the pool is for: its fixture is the one every system must answer on */
  suite: string;
  systems: PoolSystem[];
  root: string;
  /** run ids and times come from the caller (the clock lives at the edge) */
  poolId: string;
  startedAt: string;
  seed?: number;
  signal?: AbortSignal;
}

/**
 * Run every system once over the fixture (one replay, an in-memory store: pooling is not history)
 * and return their rankings. A system that answers nothing stops the pool (its holes would go
 * unseen); a system that fails some queries is pooled with what it answered.
 */
export async function rankingsFromSystems(opts: PoolRunOptions): Promise<QueueRankings> {
  if (opts.systems.length === 0)
    throw new RgateError(
      'usage',
      'nothing to pool',
      'name systems with --systems <suite,...> or --modes <mode,...>',
    );
  const fixture = opts.systems[0]!.spec.fixture;
  const store = new MemoryRunStore();
  const sources: RankingSource[] = [];
  let artifacts: QueueRankings['artifacts'] | undefined;
  for (const [i, sys] of opts.systems.entries()) {
    if (sys.spec.fixture !== fixture) {
      throw new RgateError(
        'usage',
        `--systems: suite ${sys.suite} runs on fixture ${sys.spec.fixture}, not ${fixture}`,
        'pool systems that answer the same queries over the same corpus',
      );
    }
    const runId = `${opts.poolId}-${sys.id}`;
    const outcome = await runSuite({
      name: sys.suite,
      spec: sys.spec,
      root: opts.root,
      store,
      runId,
      startedAt: opts.startedAt,
      replays: 1,
      ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
      finishedAt: () => opts.startedAt,
    });
    if (outcome.interrupted)
      throw new RgateError(
        'usage',
        `pool interrupted at system ${i + 1} of ${opts.systems.length} (${sys.label})`,
      );
    const answered = outcome.observations.filter((o) => o.ok);
    if (answered.length === 0) {
      const first = outcome.observations.find((o) => !o.ok)?.error;
      throw new RgateError(
        'sut_error',
        `${sys.label} answered no query${first ? ` (first error: ${first.kind}: ${first.message})` : ''}`,
        'start the system (or fix its command) and pool again',
      );
    }
    artifacts ??= outcome.report.artifacts;
    if (outcome.report.artifacts.corpus_sha256 !== artifacts.corpus_sha256)
      throw new RgateError('usage', `${sys.label} ran on another corpus than the first system`);
    sources.push({
      source: { id: sys.id, label: sys.label, run_id: runId },
      top: new Map(answered.map((o) => [o.query_id, gateRanking(o)])),
    });
  }
  return {
    origin: { kind: 'pool', id: opts.poolId, suite: opts.suite },
    artifacts: artifacts!,
    depth: Number.POSITIVE_INFINITY,
    sources,
  };
}
