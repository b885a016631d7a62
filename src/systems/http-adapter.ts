import { SYSTEM_DEFAULTS } from '../core/defaults.js';
import http from 'node:http';
import https from 'node:https';
import type { RetrievalQuery } from '../documents/index.js';
import type { HttpSystemSpec, KuQuery, QueryRecord, RetrievalConfig } from '../documents/index.js';
import { deadline } from './deadline.js';
import { checkSystemTemplates, expandMap, placeholderValues } from './placeholders.js';
import { failedResponse, normalizeResponse, type NormalizedResponse } from './normalize/index.js';
import { querySent } from './probe-inputs.js';
import { toRawObservation } from './observation.js';
import { redactObservation, secretsOf, type Secret } from './secrets.js';
import { type RawObservation, type RequestContext, type SystemAdapter } from './types.js';
import { rankedEntriesOption } from './ranked-entries.js';

type Agent = http.Agent | https.Agent;

type HttpOutcome =
  | { kind: 'response'; status: number; body: string }
  | { kind: 'timeout' | 'connection_failed' | 'output_too_large' | 'interrupted'; message: string };

const ABANDONED = 'request abandoned: rgate was interrupted';

/**
 * The RetrievalQuery (seed 004) rgate POSTs for one query. A `resolved-intent` (DS012) system also gets
 * `ku`: the intent's ref and the conversation units it must filter (current turn, session), which a
 * context matcher cannot resolve without; every other contract gets seed 004's shape exactly.
 */
export function retrievalQuery(
  spec: HttpSystemSpec,
  q: QueryRecord,
  ctx: RequestContext,
): RetrievalQuery & { ku?: { intent_ref: string } & Pick<KuQuery, 'current_turn' | 'session'> } {
  const budgets: RetrievalQuery['budgets'] = {};
  if (ctx.config.budgets.tokens !== undefined) budgets.tokens = ctx.config.budgets.tokens;
  budgets.latency_ms = spec.timeout_ms ?? SYSTEM_DEFAULTS.timeout_ms;
  return {
    query: q.text,
    top_k: ctx.config.k,
    // filter values may carry placeholders ({params.mode}, {profile}...): the body's shape stays seed 004's
    filters: expandMap(spec.filters, placeholderValues(q, ctx)),
    overlay_policy: spec.overlay_policy ?? 'include',
    transport: spec.transport ?? 'direct',
    budgets,
    ...(spec.contract === 'resolved-intent'
      ? {
          ku: {
            intent_ref: q.query_id,
            current_turn: q.ku?.current_turn ?? [],
            session: q.ku?.session ?? [],
          },
        }
      : {}),
  };
}

/**
 * The `http` adapter: POST a RetrievalQuery as JSON to `url` over a keep-alive agent, read a ContextPack
 * (or whatever `contract` names) or the error envelope. The query id and replay travel as
 * `x-rgate-query-id` / `x-rgate-replay` headers so the body stays exactly seed 004's shape.
 * Non-2xx, bad JSON, timeouts and refused connections are recorded errors.
 */
export class HttpAdapter implements SystemAdapter {
  readonly kind = 'http' as const;
  readonly name: string;
  readonly contract: string;
  private agent: Agent;
  private readonly url: URL;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  /** `{env.NAME}` values the headers carry, masked in every failure rgate records */
  private readonly secrets: Secret[];

  constructor(
    private readonly spec: HttpSystemSpec,
    name?: string,
    private readonly config?: RetrievalConfig,
  ) {
    checkSystemTemplates(spec, config);
    this.secrets = secretsOf(Object.values(spec.headers ?? {}));
    this.url = new URL(spec.url);
    this.name = name ?? `http:${this.url.host}${this.url.pathname}`;
    this.contract = spec.contract ?? 'context-pack';
    this.timeoutMs = spec.timeout_ms ?? SYSTEM_DEFAULTS.timeout_ms;
    this.maxBytes = spec.max_output_bytes ?? SYSTEM_DEFAULTS.max_output_bytes;
    this.agent = this.newAgent();
  }

  private newAgent(): Agent {
    // no socket limit: a request queued for a free socket would spend its timeout waiting on others
    const opts = { keepAlive: true, maxSockets: Infinity };
    return this.url.protocol === 'https:' ? new https.Agent(opts) : new http.Agent(opts);
  }

  async start(): Promise<void> {
    // connections open on first use and are kept alive
  }

  async request(q: QueryRecord, ctx: RequestContext): Promise<RawObservation> {
    const t0 = performance.now();
    let n: NormalizedResponse;
    try {
      const sent = querySent(this.spec, q);
      const out = await this.post(JSON.stringify(retrievalQuery(this.spec, sent, ctx)), sent, ctx);
      n = this.interpret(out);
    } catch (e) {
      n = failedResponse(this.contract, { kind: 'internal', message: (e as Error).message });
    }
    return redactObservation(toRawObservation(q, ctx, n, performance.now() - t0), this.secrets);
  }

  private interpret(out: HttpOutcome): NormalizedResponse {
    if (out.kind !== 'response')
      return failedResponse(this.contract, { kind: out.kind, message: out.message });
    let payload: unknown;
    try {
      payload = JSON.parse(out.body);
    } catch (e) {
      const head = out.body.length > 200 ? `${out.body.slice(0, 200)}…` : out.body;
      return failedResponse(this.contract, {
        kind: out.status >= 200 && out.status < 300 ? 'non_json' : 'http_status',
        message: `HTTP ${out.status}, body is not JSON (${(e as Error).message}): ${JSON.stringify(head)}`,
      });
    }
    const n = normalizeResponse(this.contract, payload, rankedEntriesOption(this.spec, this.config));
    if (out.status >= 200 && out.status < 300) return n;
    // a non-2xx answer carrying a well-formed error envelope keeps the envelope's code as the error kind
    if (!n.ok && n.contract.valid && n.error) {
      return { ...n, error: { ...n.error, message: `HTTP ${out.status}: ${n.error.message}` } };
    }
    return failedResponse(this.contract, { kind: 'http_status', message: `HTTP ${out.status}` });
  }

  private post(body: string, q: QueryRecord, ctx: RequestContext): Promise<HttpOutcome> {
    const mod = this.url.protocol === 'https:' ? https : http;
    const signal = ctx.signal;
    if (signal?.aborted)
      return Promise.resolve({ kind: 'interrupted', message: `${ABANDONED} before it was sent` });
    return new Promise((resolve) => {
      let settled = false;
      const done = (o: HttpOutcome): void => {
        if (settled) return;
        settled = true;
        cancelDeadline();
        signal?.removeEventListener('abort', abandon);
        resolve(o);
      };
      const req = mod.request(this.url, {
        method: 'POST',
        agent: this.agent,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'content-length': Buffer.byteLength(body),
          'x-rgate-query-id': encodeURIComponent(q.query_id),
          'x-rgate-replay': String(ctx.replay),
          ...expandMap(this.spec.headers, placeholderValues(q, ctx)),
        },
      });
      const timeOut = (message: string) => () => {
        done({ kind: 'timeout', message });
        // destroying the socket (not just the request) so a hung server cannot hold a pooled connection
        req.destroy();
      };
      // Connecting has its own bound, and the answer's budget starts once the connection is open, as
      // the server's own clock (budgets.latency_ms) does: a connect that waited on others (rgate busy
      // with another request's flood) is not taken from it.
      let cancelDeadline = deadline(
        this.timeoutMs,
        timeOut(`no connection to ${this.url.host} within ${this.timeoutMs} ms`),
      );
      // the connection is closed under the request (not kept alive), so the server sees it go
      const abandon = (): void => {
        done({ kind: 'interrupted', message: `${ABANDONED}; connection closed` });
        req.destroy();
      };
      signal?.addEventListener('abort', abandon, { once: true });
      req.on('socket', (socket) => {
        const answerClock = (): void => {
          if (settled) return;
          cancelDeadline();
          cancelDeadline = deadline(this.timeoutMs, timeOut(`no answer within ${this.timeoutMs} ms`));
        };
        if (socket.connecting) socket.once('connect', answerClock);
        else answerClock();
      });
      req.on('error', (e) =>
        done({ kind: 'connection_failed', message: `${this.url.href}: ${withCode(e)}` }),
      );
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size <= this.maxBytes) {
            chunks.push(c);
            return;
          }
          // abort at the crossing: no more of the body is read or kept, and the socket is not reused
          chunks.length = 0;
          done({
            kind: 'output_too_large',
            message: `response body exceeded ${this.maxBytes} bytes (${size} bytes seen); response aborted`,
          });
          res.destroy();
          req.destroy();
        });
        res.on('end', () =>
          done({
            kind: 'response',
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', (e) => done({ kind: 'connection_failed', message: withCode(e) }));
      });
      req.end(body);
    });
  }

  async restart(): Promise<void> {
    this.agent.destroy();
    this.agent = this.newAgent();
  }

  async close(): Promise<void> {
    this.agent.destroy();
  }
}

/**
 * An error's message with its code when the message lacks it: node says "socket hang up" for a
 * connection the server accepted and closed, and the code (ECONNRESET) is what tells that apart from
 * nothing listening (ECONNREFUSED).
 */
function withCode(e: Error): string {
  const code = (e as NodeJS.ErrnoException).code;
  return code && !e.message.includes(code) ? `${e.message} (${code})` : e.message;
}
