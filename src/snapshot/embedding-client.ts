import { EMBEDDER_DEFAULTS } from '../core/defaults.js';
import { RgateError } from '../core/errors.js';
import type { EmbedderConfig } from '../documents/index.js';

type HttpEmbedder = Extract<EmbedderConfig, { type: 'http' }>;

/**
 * The client of an HTTP embedding server, used at freeze time only (runs read pinned vectors).
 * - ollama: `POST <url>/api/embeddings {model, prompt}` -> `{embedding: number[]}`, one text a request.
 * - openai: `POST <url>/v1/embeddings {model, input: string[]}` -> `{data: [{index, embedding}]}`,
 *   EMBEDDER_DEFAULTS.batch_size texts a request, put back in `index` order.
 * Requests go one after another (a local server is usually single-threaded; the order of calls
 * never matters to the result). A timeout, a refused connection, a non-2xx status or a malformed
 * body is an RgateError('sut_error', exit 3) naming the URL; the caller writes nothing then.
 */
export async function embedTexts(cfg: HttpEmbedder, texts: readonly string[]): Promise<number[][]> {
  const base = cfg.url.replace(/\/+$/, '');
  const out: number[][] = [];
  if (cfg.api === 'ollama') {
    for (const text of texts) {
      const body = await post(cfg, `${base}/api/embeddings`, { model: cfg.model, prompt: text });
      out.push(vectorOf((body as { embedding?: unknown })?.embedding, `${base}/api/embeddings`, 'embedding'));
    }
    return out;
  }
  const size = EMBEDDER_DEFAULTS.batch_size;
  for (let i = 0; i < texts.length; i += size) {
    const batch = texts.slice(i, i + size);
    const url = `${base}/v1/embeddings`;
    const body = (await post(cfg, url, { model: cfg.model, input: batch })) as { data?: unknown };
    if (!Array.isArray(body?.data) || body.data.length !== batch.length)
      throw bad(url, `expected data[] with ${batch.length} embeddings`);
    const got: number[][] = new Array<number[]>(batch.length);
    body.data.forEach((d: { index?: unknown; embedding?: unknown }, j: number) => {
      const at = typeof d?.index === 'number' ? d.index : j;
      if (!Number.isInteger(at) || at < 0 || at >= batch.length || got[at])
        throw bad(url, `data[${j}].index ${String(d?.index)} is not a fresh index below ${batch.length}`);
      got[at] = vectorOf(d?.embedding, url, `data[${j}].embedding`);
    });
    out.push(...got);
  }
  return out;
}

function bad(url: string, what: string): RgateError {
  return new RgateError(
    'sut_error',
    `embedding server ${url}: malformed answer: ${what}`,
    'check config.embedder.api (ollama or openai) and the server',
  );
}

function vectorOf(v: unknown, url: string, path: string): number[] {
  if (!Array.isArray(v) || v.length === 0 || !v.every((x) => typeof x === 'number' && Number.isFinite(x)))
    throw bad(url, `${path} is not a non-empty array of finite numbers`);
  return v as number[];
}

/** Socket errors of a connection closed under a request (not a refused or timed-out one), tried again. */
const RETRIED_CODES: readonly string[] = ['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE'];
const SOCKET_ATTEMPTS = 3;

async function post(cfg: HttpEmbedder, url: string, payload: unknown): Promise<unknown> {
  const timeout = cfg.timeout_ms ?? EMBEDDER_DEFAULTS.timeout_ms;
  let res: Response | undefined;
  for (let attempt = 1; !res; attempt++) {
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(timeout),
      });
    } catch (e) {
      const err = e as Error & { cause?: { code?: string; message?: string } };
      const timedOut = err.name === 'TimeoutError' || err.name === 'AbortError';
      // a kept-alive socket the server closed as it was reused: embedding is idempotent, so ask again
      if (!timedOut && attempt < SOCKET_ATTEMPTS && RETRIED_CODES.includes(err.cause?.code ?? '')) continue;
      throw new RgateError(
        'sut_error',
        timedOut
          ? `embedding server ${url}: no answer within ${timeout} ms`
          : `embedding server ${url}: ${err.cause?.code ?? err.cause?.message ?? err.message}`,
        timedOut
          ? 'is the server up and the model loaded? raise config.embedder.timeout_ms for a slow model'
          : 'is the server running at config.embedder.url?',
      );
    }
  }
  let text: string;
  try {
    text = await res.text();
  } catch (e) {
    throw new RgateError(
      'sut_error',
      `embedding server ${url}: reading the answer failed: ${(e as Error).message}`,
    );
  }
  if (!res.ok)
    throw new RgateError(
      'sut_error',
      `embedding server ${url}: HTTP ${res.status}${text ? `: ${text.slice(0, 200)}` : ''}`,
      'check config.embedder.model and the server log',
    );
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw bad(url, 'the body is not JSON');
  }
}
