import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { SYSTEM_DEFAULTS } from '../core/defaults.js';
import { IdlePool } from './idle-pool.js';
import { RgateError } from '../core/errors.js';
import type { ModuleSystemSpec, QueryRecord, RetrievalConfig } from '../documents/index.js';
import { workerRequestBody } from './command-adapter.js';
import { loadError } from './module-load-errors.js';
import { ModuleThread, type ThreadOutcome } from './module-thread.js';
import { failedResponse, normalizeResponse, type NormalizedResponse } from './normalize/index.js';
import { toRawObservation } from './observation.js';
import { querySent } from './probe-inputs.js';
import { rankedEntriesOption } from './ranked-entries.js';
import { pathInList } from './retriever-answer.js';
import { stderrWarnings } from './stderr-warnings.js';
import type { RawObservation, RequestContext, SystemAdapter } from './types.js';

/** What a module or function receives: what a JSON-lines worker receives, and the system's params. */
export function moduleRequestBody(q: QueryRecord, ctx: RequestContext): Record<string, unknown> {
  return { ...workerRequestBody(q, ctx), params: ctx.config.system?.params ?? {} };
}

/** What the function's answer (or failure) means for the observation. */
export function answerResponse(
  contract: string,
  reply: { answer?: unknown; list?: boolean; problem?: string; thrown?: { message: string; stack?: string } },
  options: ReturnType<typeof rankedEntriesOption>,
): NormalizedResponse {
  if (reply.thrown)
    return failedResponse(contract, {
      kind: 'exception',
      message: reply.thrown.message,
      ...(reply.thrown.stack ? { stderr: reply.thrown.stack } : {}),
    });
  if (reply.problem !== undefined)
    return failedResponse(contract, { kind: 'contract_invalid', message: `answer ${reply.problem}` });
  const n = normalizeResponse(contract, reply.answer, options);
  if (!reply.list) return n;
  // a plain list: its violations said where they are in the list the function returned
  const errors = n.contract.errors.map(pathInList);
  return {
    ...n,
    ...(n.error ? { error: { ...n.error, message: n.error.message.replace(/\/ranked(?=[/:])/g, '') } } : {}),
    contract: { ...n.contract, errors },
  };
}

function fromThread(contract: string, o: ThreadOutcome, options: ReturnType<typeof rankedEntriesOption>) {
  if (o.kind === 'reply') return answerResponse(contract, o.reply, options);
  if (o.kind === 'load_failed')
    return failedResponse(contract, { kind: 'load_failed', message: loadError(o.problem, '', '').message });
  return failedResponse(contract, {
    kind: o.kind,
    message: o.message,
    ...(o.stderr ? { stderr: o.stderr } : {}),
  });
}

/**
 * The `module` adapter: a retriever written in TypeScript or JavaScript, loaded by jiti in worker
 * threads, one per concurrent request (the pool grows to the caller's concurrency, as JSON-lines
 * workers do). A thread is terminated on a timeout or an abandoned request, so a hung promise or a
 * busy loop cannot stall the run, and a thread that died is replaced on the next request. start()
 * loads the module once so the errors a team meets first (no such file, no such export, a syntax
 * error, a throw at import) stop the run as one clear line before any request.
 */
export class ModuleAdapter implements SystemAdapter {
  readonly kind = 'module' as const;
  readonly name: string;
  readonly contract: string;
  private readonly file: string;
  private readonly exportName: string;
  private readonly timeoutMs: number;
  private readonly pool = new IdlePool<ModuleThread>();
  private started: ModuleThread[] = [];

  constructor(
    private readonly spec: ModuleSystemSpec,
    private readonly config: RetrievalConfig,
    baseDir: string = process.cwd(),
    name?: string,
  ) {
    this.exportName = spec.export ?? 'default';
    this.name = name ?? `module:${spec.path}#${this.exportName}`;
    this.contract = spec.contract ?? 'rgate';
    this.timeoutMs = spec.timeout_ms ?? SYSTEM_DEFAULTS.timeout_ms;
    this.file = isAbsolute(spec.path) ? spec.path : resolve(baseDir, spec.path);
    if (!existsSync(this.file) || !statSync(this.file).isFile())
      throw new RgateError(
        'config_invalid',
        `system/path: ${spec.path}: no such file (${this.file})`,
        "a module system's path is relative to the rgate.config.json folder",
        { at: 'system/path' },
      );
  }

  async start(): Promise<void> {
    const t = this.spawn();
    const problem = await t.loaded;
    if (problem) {
      this.pool.all.delete(t);
      await t.close();
      throw loadError(problem, this.spec.path, this.exportName, this.file);
    }
    this.pool.release(t);
  }

  async request(q: QueryRecord, ctx: RequestContext): Promise<RawObservation> {
    const t0 = performance.now();
    let n: NormalizedResponse;
    let warnings: string[] | undefined;
    try {
      if (ctx.signal?.aborted)
        n = failedResponse(this.contract, {
          kind: 'interrupted',
          message: 'request abandoned: rgate was interrupted',
        });
      else {
        const t = this.acquire();
        const o = await t.request(
          moduleRequestBody(querySent(this.spec, q), ctx),
          this.timeoutMs,
          ctx.signal,
        );
        this.release(t);
        n = fromThread(this.contract, o, rankedEntriesOption(this.spec, this.config));
        if (o.kind === 'reply') warnings = stderrWarnings(o.reply.warnings.join('\n'));
      }
    } catch (e) {
      // defensive: request() must never throw, whatever goes wrong inside
      n = failedResponse(this.contract, { kind: 'internal', message: (e as Error).message });
    }
    return toRawObservation(q, ctx, n, performance.now() - t0, warnings);
  }

  /** worker threads tracked, and threads ever started that have not exited (tests check none is left after close) */
  threads(): { tracked: number; running: number } {
    return { tracked: this.pool.all.size, running: this.started.filter((t) => !t.exited).length };
  }

  private spawn(): ModuleThread {
    const t = this.pool.add(new ModuleThread({ file: this.file, exportName: this.exportName }));
    this.started = [...this.started.filter((s) => !s.exited), t];
    return t;
  }

  private acquire(): ModuleThread {
    return this.pool.take() ?? this.spawn();
  }

  private release(t: ModuleThread): void {
    this.pool.release(t);
  }

  async restart(): Promise<void> {
    await this.close();
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}
