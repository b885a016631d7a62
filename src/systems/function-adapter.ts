import { SYSTEM_DEFAULTS } from '../core/defaults.js';
import { RgateError } from '../core/errors.js';
import type {
  FunctionSystemSpec,
  QueryRecord,
  RetrievalConfig,
  RetrieverRequest,
} from '../documents/index.js';
import { deadline } from './deadline.js';
import { answerResponse, moduleRequestBody } from './module-adapter.js';
import { failedResponse, type NormalizedResponse } from './normalize/index.js';
import { toRawObservation } from './observation.js';
import { querySent } from './probe-inputs.js';
import { rankedEntriesOption } from './ranked-entries.js';
import { retrieverAnswer } from './retriever-answer.js';
import type { RawObservation, RequestContext, SystemAdapter } from './types.js';

/** How reports name a function system: its `name`, else the function's own name. */
export function functionName(spec: FunctionSystemSpec): string {
  return spec.name ?? (spec.fn?.name || 'anonymous');
}

type Outcome =
  | { kind: 'answer'; value: unknown }
  | { kind: 'thrown'; error: unknown }
  | { kind: 'timeout' | 'interrupted'; message: string };

/**
 * The `function` adapter (library only): a retriever function the caller holds, called in rgate's own
 * thread with what a module system's function receives, its answer read the same way. A thrown error
 * or a rejected promise is an `exception` of that request. A timeout or an abandoned request stops
 * waiting (the function cannot be stopped in this thread: a module system's can). Console output is
 * not captured: it is the caller's own console (vitest's).
 */
export class FunctionAdapter implements SystemAdapter {
  readonly kind = 'function' as const;
  readonly name: string;
  readonly contract: string;
  private readonly fn: (request: RetrieverRequest) => unknown;
  private readonly timeoutMs: number;

  constructor(
    private readonly spec: FunctionSystemSpec,
    private readonly config: RetrievalConfig,
    name?: string,
  ) {
    if (typeof spec.fn !== 'function')
      throw new RgateError(
        'config_invalid',
        'system/fn: a function system needs the function itself, which exists only in code',
        'pass it from the library (runSuite({spec: {system: {type: \'function\', fn}}})); in rgate.config.json, name a module instead: {"type": "module", "path": "./src/retriever.ts", "export": "search"}',
        { at: 'system/fn' },
      );
    this.fn = spec.fn;
    this.name = name ?? `function ${functionName(spec)}`;
    this.contract = spec.contract ?? 'rgate';
    this.timeoutMs = spec.timeout_ms ?? SYSTEM_DEFAULTS.timeout_ms;
  }

  async start(): Promise<void> {}

  async request(q: QueryRecord, ctx: RequestContext): Promise<RawObservation> {
    const t0 = performance.now();
    let n: NormalizedResponse;
    if (ctx.signal?.aborted)
      n = failedResponse(this.contract, {
        kind: 'interrupted',
        message: 'request abandoned: rgate was interrupted',
      });
    else {
      const body = moduleRequestBody(querySent(this.spec, q), ctx) as unknown as RetrieverRequest;
      const o = await this.call(body, ctx.signal);
      n = this.response(o);
    }
    return toRawObservation(q, ctx, n, performance.now() - t0);
  }

  private call(body: RetrieverRequest, signal?: AbortSignal): Promise<Outcome> {
    return new Promise((resolve) => {
      const cancelTimeout = deadline(this.timeoutMs, () =>
        settle({
          kind: 'timeout',
          message: `no answer within ${this.timeoutMs} ms (the function runs on in this thread; a module system's thread would be terminated)`,
        }),
      );
      const abandon = (): void =>
        settle({ kind: 'interrupted', message: 'request abandoned: rgate was interrupted' });
      signal?.addEventListener('abort', abandon, { once: true });
      const settle = (o: Outcome): void => {
        cancelTimeout();
        signal?.removeEventListener('abort', abandon);
        resolve(o);
      };
      // a synchronous throw and a rejection alike are this request's exception
      Promise.resolve()
        .then(() => this.fn(body))
        .then(
          (value) => settle({ kind: 'answer', value }),
          (error: unknown) => settle({ kind: 'thrown', error }),
        );
    });
  }

  private response(o: Outcome): NormalizedResponse {
    const options = rankedEntriesOption(this.spec, this.config);
    if (o.kind === 'answer') return answerResponse(this.contract, retrieverAnswer(o.value), options);
    if (o.kind === 'thrown') {
      const e = o.error;
      const thrown =
        e instanceof Error
          ? { message: `${e.name}: ${e.message}`, ...(e.stack ? { stack: e.stack } : {}) }
          : { message: `threw a non-error: ${String(e)}` };
      return answerResponse(this.contract, { thrown }, options);
    }
    return failedResponse(this.contract, { kind: o.kind, message: o.message });
  }

  async restart(): Promise<void> {}

  async close(): Promise<void> {}
}
