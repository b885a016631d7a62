import type {
  CorpusRecord,
  Observation,
  QueryRecord,
  RetrievalConfig,
  SystemSpec,
} from '../documents/index.js';

/** What the harness hands an adapter with each request. */
export interface RequestContext {
  /** 1-based replay number */
  replay: number;
  /** the resolved retrieval config of the suite (fixture config + suite overrides) */
  config: RetrievalConfig;
  /** the fixture set folder, substituted for `{corpus_dir}` */
  fixtureDir: string;
  /**
   * Aborts when rgate stops waiting for this request (a run interrupted past its grace period): the
   * adapter kills the request's process group or closes its connection and answers at once with
   * error kind `interrupted`. That answer says nothing about the system; the harness drops it.
   */
  signal?: AbortSignal;
}

/** An Observation before the harness stamps it: the harness adds `replay` and `fingerprint`. */
export type RawObservation = Omit<Observation, 'fingerprint' | 'replay'>;

/**
 * One system under test. `request` NEVER throws or rejects: every failure (spawn, timeout, crash, bad
 * JSON, broken contract, HTTP status) comes back as `ok: false` with `error {kind, message, stderr?}`.
 */
export interface SystemAdapter {
  readonly name: string;
  readonly kind: SystemSpec['type'];
  /** the response contract the adapter validates against (see CONTRACT_NAMES) */
  readonly contract: string;
  start(): Promise<void>;
  request(q: QueryRecord, ctx: RequestContext): Promise<RawObservation>;
  /** fresh process / engine instance, to flush hidden state between replays */
  restart(): Promise<void>;
  /** afterwards no process or socket of the adapter is left */
  close(): Promise<void>;
}

/** What createSystem needs from the pinned suite. */
export interface SuiteContext {
  corpus: readonly CorpusRecord[];
  config: RetrievalConfig;
  /** fixture set folder */
  dir: string;
  /** folder that relative `cwd` values are resolved against (the rgate.config.json folder); default process.cwd() */
  baseDir?: string;
}
