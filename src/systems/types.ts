import type { CorpusRecord, Observation, QueryRecord, RetrievalConfig } from '../core/index.js';

/** What the harness hands an adapter with each request. */
export interface RequestContext {
  /** 1-based replay number */
  replay: number;
  /** the resolved retrieval config of the suite (fixture config + suite overrides) */
  config: RetrievalConfig;
  /** the fixture set folder, substituted for `{corpus_dir}` */
  fixtureDir: string;
}

/** An Observation before the harness stamps it: the harness adds `replay` and `fingerprint`. */
export type RawObservation = Omit<Observation, 'fingerprint' | 'replay'>;

/**
 * One system under test. `request` NEVER throws or rejects: every failure (spawn, timeout, crash, bad
 * JSON, broken contract, HTTP status) comes back as `ok: false` with `error {kind, message, stderr?}`.
 */
export interface SystemAdapter {
  readonly name: string;
  readonly kind: 'builtin' | 'command' | 'http';
  /** the response contract the adapter validates against (see CONTRACT_NAMES) */
  readonly contract: string;
  start(): Promise<void>;
  request(q: QueryRecord, ctx: RequestContext): Promise<RawObservation>;
  /** fresh process / engine instance, to flush hidden state between replays */
  restart(): Promise<void>;
  /** afterwards no process or socket of the adapter is left */
  close(): Promise<void>;
}

export type BuiltinMode = 'bm25' | 'context-load' | 'semantic';

export interface BuiltinSystemSpec {
  type: 'builtin';
  /** defaults to the suite config's `mode` */
  mode?: BuiltinMode;
}

export interface CommandSystemSpec {
  type: 'command';
  /** argv template; argv[0] is resolved on PATH. No shell is involved, so placeholders cannot inject. */
  argv: string[];
  /** keep one process per concurrency slot speaking JSON lines instead of spawning per query */
  worker?: boolean;
  /** response contract name (see CONTRACT_NAMES) */
  contract: string;
  /** per request; default 30000 */
  timeout_ms?: number;
  /** stdout cap per response; default 16 MiB */
  max_output_bytes?: number;
  /** the child's whole environment is PATH (from rgate's own environment) plus these */
  env?: Record<string, string>;
  /** working directory; relative to the rgate.config.json folder; default that folder */
  cwd?: string;
  /**
   * @deprecated Ignored: per-query mode always uses node's child_process.spawn. Still accepted (any of
   * the old values) so configs written when Python and Perl spawn servers existed stay valid; for
   * speed, use `worker: true` (docs/DECISIONS.md, "Systems").
   */
  launcher?: 'auto' | 'python' | 'perl' | 'node';
}

export interface HttpSystemSpec {
  type: 'http';
  /** endpoint receiving `POST` with a RetrievalQuery (seed 004) body */
  url: string;
  /** default `context-pack` */
  contract?: string;
  /** RetrievalQuery `filters` sent with every request (seed 004: repo, tenant, run_id ...) */
  filters?: Record<string, string>;
  /** RetrievalQuery `overlay_policy`; default `include` */
  overlay_policy?: 'include' | 'skip';
  /** RetrievalQuery `transport`; default `direct` */
  transport?: 'direct' | 'gateway';
  /** per request; default 30000 */
  timeout_ms?: number;
  headers?: Record<string, string>;
  /** response body cap; default 16 MiB */
  max_output_bytes?: number;
}

export type SystemSpec = BuiltinSystemSpec | CommandSystemSpec | HttpSystemSpec;

/** What createSystem needs from the pinned suite. */
export interface SuiteContext {
  corpus: readonly CorpusRecord[];
  config: RetrievalConfig;
  /** fixture set folder */
  dir: string;
  /** folder that relative `cwd` values are resolved against (the rgate.config.json folder); default process.cwd() */
  baseDir?: string;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_OUTPUT_BYTES = 16 * 1024 * 1024;
/** stderr kept with a failure: its last this-many bytes */
export const STDERR_KEEP_BYTES = 8 * 1024;
