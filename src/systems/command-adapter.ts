import { SYSTEM_DEFAULTS } from '../core/defaults.js';
import { RgateError } from '../core/errors.js';
import { isAbsolute, resolve } from 'node:path';
import type { CommandSystemSpec, QueryRecord, RetrievalConfig } from '../documents/index.js';
import { IdlePool } from './idle-pool.js';
import { JsonLinesWorker, type WorkerReply } from './json-lines-worker.js';
import {
  failedResponse,
  normalizeResponse,
  normalizeText,
  type NormalizedResponse,
  type NormalizeOptions,
} from './normalize/index.js';
import { toRawObservation } from './observation.js';
import { rankedEntriesOption } from './ranked-entries.js';
import {
  checkSystemTemplates,
  expandArgv,
  expandMap,
  placeholderValues,
  type PlaceholderValues,
} from './placeholders.js';
import { childEnv, isFolder } from './process-group.js';
import { querySent } from './probe-inputs.js';
import { runOnce, type RunOnceResult } from './run-once.js';
import { redactObservation, secretsOf, type Secret } from './secrets.js';
import { stderrWarnings } from './stderr-warnings.js';
import { type RawObservation, type RequestContext, type SystemAdapter } from './types.js';

function clock(): number {
  return performance.now();
}

/** What a per-query process run means for the Observation. */
function fromRun(contract: string, r: RunOnceResult, options: NormalizeOptions): NormalizedResponse {
  const stderr = r.stderr ? { stderr: r.stderr } : {};
  if (r.kind !== 'exit') return failedResponse(contract, { kind: r.kind, message: r.message, ...stderr });
  if (r.code === 0) {
    const n = normalizeText(contract, r.stdout, r.stderr || undefined, options);
    return n.ok || !r.stderr || n.error?.stderr ? n : { ...n, error: { ...n.error!, stderr: r.stderr } };
  }
  // a CLI may exit non-zero *and* print a well-formed error envelope: the envelope is the better record
  const parsed = tryParse(r.stdout);
  if (parsed !== undefined && typeof parsed === 'object' && parsed !== null && 'error' in parsed) {
    const n = normalizeResponse(contract, parsed);
    if (n.contract.valid) return { ...n, error: { ...n.error!, ...stderr } };
  }
  const how = r.signal ? `killed by ${r.signal}` : `exited with code ${r.code}`;
  return failedResponse(contract, { kind: 'crash', message: `process ${how}`, ...stderr });
}

function fromWorker(contract: string, r: WorkerReply, options: NormalizeOptions): NormalizedResponse {
  if (r.kind === 'reply') return normalizeResponse(contract, r.response, options);
  return failedResponse(contract, {
    kind: r.kind,
    message: r.message,
    ...(r.stderr ? { stderr: r.stderr } : {}),
  });
}

function tryParse(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}

/** The request a worker receives (besides `id`). */
export function workerRequestBody(q: QueryRecord, ctx: RequestContext): Record<string, unknown> {
  const v = placeholderValues(q, ctx);
  return {
    query_id: v.query_id,
    query: v.query,
    k: v.k,
    profile: v.profile,
    ...(q.exact_key !== undefined ? { exact_key: q.exact_key } : {}),
    replay: v.replay,
    corpus_dir: v.corpus_dir,
    config: ctx.config,
    // a DS012 context matcher filters the intent's conversation units: hand them over when the set has them
    ...(q.ku?.current_turn || q.ku?.session
      ? { ku: { current_turn: q.ku.current_turn ?? [], session: q.ku.session ?? [] } }
      : {}),
  };
}

/**
 * The `command` adapter: any CLI. Per-query mode spawns the argv template for every request with node's
 * child_process.spawn (parallel requests are parallel processes); that costs about 2x a shell loop per
 * call, and worker mode, which spawns nothing per request, is the answer when that matters (the spawn
 * servers that once narrowed the gap lost to it: docs/DECISIONS.md, "Systems"). Worker mode keeps a pool of JSON-lines workers, one per concurrent
 * request (the pool grows to the caller's concurrency, each worker has one request in flight), so a
 * worker never has to multiplex. A dead worker is replaced by a fresh one on the next request; a request
 * the worker never took up (it ended between requests) goes once to a fresh one.
 */
export class CommandAdapter implements SystemAdapter {
  readonly kind = 'command' as const;
  readonly name: string;
  readonly contract: string;
  private readonly timeoutMs: number;
  private readonly maxOutputBytes: number;
  private readonly cwd: string;
  private readonly pool = new IdlePool<JsonLinesWorker>();
  private readonly helpers: number[] = [];
  /** `{env.NAME}` values this system is given, masked in every failure rgate records */
  private readonly secrets: Secret[];

  constructor(
    private readonly spec: CommandSystemSpec,
    private readonly config: RetrievalConfig,
    baseDir: string = process.cwd(),
    name?: string,
  ) {
    checkSystemTemplates(spec, config);
    this.secrets = secretsOf([...spec.argv, ...Object.values(spec.env ?? {})]);
    this.name = name ?? `command:${spec.argv[0]}${spec.worker ? ' (worker)' : ''}`;
    this.contract = spec.contract;
    this.timeoutMs = spec.timeout_ms ?? SYSTEM_DEFAULTS.timeout_ms;
    this.maxOutputBytes = spec.max_output_bytes ?? SYSTEM_DEFAULTS.max_output_bytes;
    this.cwd = spec.cwd ? (isAbsolute(spec.cwd) ? spec.cwd : resolve(baseDir, spec.cwd)) : baseDir;
    // checked now, before any request: started in a missing folder, every request would fail as if
    // the program were missing, and the run would end calling the system down
    if (spec.cwd !== undefined && !isFolder(this.cwd)) {
      throw new RgateError(
        'config_invalid',
        `system/cwd: "${spec.cwd}" is not a folder (${this.cwd})`,
        'cwd is the folder the command runs in, relative to rgate.config.json: fix the path or create the folder',
        { at: 'system/cwd' },
      );
    }
  }

  private normalizeOptions(): NormalizeOptions {
    return rankedEntriesOption(this.spec, this.config);
  }

  /** The child's whole environment: PATH plus `env`, its values expanded like argv. */
  private envFor(values: PlaceholderValues): Record<string, string> {
    return childEnv(this.spec.env ? expandMap(this.spec.env, values) : undefined);
  }

  async start(): Promise<void> {
    // nothing to start ahead: workers start lazily, one per concurrent request
  }

  /** pids of live worker processes (tests check none is left after close) */
  workerPids(): number[] {
    return [...this.pool.all].map((w) => w.pid).filter((p): p is number => p !== undefined);
  }

  /** pids of every long-lived process this adapter ever started (its workers), for leak checks */
  helperPids(): number[] {
    return [...this.helpers];
  }

  async request(q: QueryRecord, ctx: RequestContext): Promise<RawObservation> {
    const t0 = clock();
    let n: NormalizedResponse;
    let warnings: string[] | undefined;
    try {
      if (ctx.signal?.aborted)
        n = failedResponse(this.contract, {
          kind: 'interrupted',
          message: 'request abandoned: rgate was interrupted',
        });
      else {
        const sent = querySent(this.spec, q);
        ({ n, warnings } = await (this.spec.worker ? this.viaWorker(sent, ctx) : this.viaProcess(sent, ctx)));
      }
    } catch (e) {
      // defensive: request() must never throw, whatever goes wrong inside
      n = failedResponse(this.contract, { kind: 'internal', message: (e as Error).message });
    }
    return redactObservation(toRawObservation(q, ctx, n, clock() - t0, warnings), this.secrets);
  }

  /**
   * One process per request; its stderr, when it answered, is kept as the request's warnings. (A
   * worker's stderr is not: its stderr and stdout are separate pipes, so a line cannot be told apart
   * as this request's or the previous one's; a worker says so in its answer's `warnings`.)
   */
  private async viaProcess(
    q: QueryRecord,
    ctx: RequestContext,
  ): Promise<{ n: NormalizedResponse; warnings?: string[] | undefined }> {
    const values = placeholderValues(q, ctx);
    const argv = expandArgv(this.spec.argv, values);
    const nul = argv.findIndex((a) => a.includes('\0'));
    if (nul !== -1) {
      // an OS argument cannot hold NUL; refusing beats silently splitting or truncating the argument
      return {
        n: failedResponse(this.contract, {
          kind: 'spawn_failed',
          message: `argument ${nul} contains a NUL character, which a process argument cannot carry`,
        }),
      };
    }
    const r = await runOnce(argv, {
      env: this.envFor(values),
      cwd: this.cwd,
      timeoutMs: this.timeoutMs,
      maxOutputBytes: this.maxOutputBytes,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
    return { n: fromRun(this.contract, r, this.normalizeOptions()), warnings: stderrWarnings(r.stderr) };
  }

  /** One request to a pooled worker; the `warnings` of its answer line are kept like a process's stderr. */
  private async viaWorker(
    q: QueryRecord,
    ctx: RequestContext,
  ): Promise<{ n: NormalizedResponse; warnings?: string[] | undefined }> {
    const body = workerRequestBody(q, ctx);
    const w = this.acquire(ctx);
    let r = await w.request(body, this.timeoutMs, ctx.signal);
    this.release(w);
    if (r.kind !== 'reply' && r.untaken) {
      // the worker ended without taking the request up (an idle worker looks alive until its exit
      // arrives): it goes once to a fresh worker, never another idle one that may be ending too
      const fresh = this.spawnWorker(ctx);
      r = await fresh.request(body, this.timeoutMs, ctx.signal);
      this.release(fresh);
    }
    return {
      n: fromWorker(this.contract, r, this.normalizeOptions()),
      warnings: r.kind === 'reply' ? stderrWarnings(r.warnings) : undefined,
    };
  }

  private acquire(ctx: RequestContext): JsonLinesWorker {
    return this.pool.take() ?? this.spawnWorker(ctx);
  }

  private spawnWorker(ctx: RequestContext): JsonLinesWorker {
    // the worker's argv may use {corpus_dir} and {config.*} (per-query values are not known at spawn)
    const values: PlaceholderValues = {
      query: '',
      query_id: '',
      k: ctx.config.k,
      corpus_dir: ctx.fixtureDir,
      profile: ctx.config.retrieval_profile,
      replay: ctx.replay,
      exact_key: '',
      config: ctx.config,
    };
    const argv = expandArgv(this.spec.argv, values);
    const w = new JsonLinesWorker(argv, {
      env: this.envFor(values),
      cwd: this.cwd,
      maxOutputBytes: this.maxOutputBytes,
    });
    if (w.pid !== undefined) this.helpers.push(w.pid);
    return this.pool.add(w);
  }

  private release(w: JsonLinesWorker): void {
    this.pool.release(w);
  }

  async restart(): Promise<void> {
    await this.close();
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}
