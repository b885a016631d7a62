/**
 * The inside of a module system's worker thread: loads the team's module with jiti (TypeScript and
 * ESM, no build step), then answers one request at a time. Console output is captured, not printed:
 * what the function logs since the previous answer goes back with this one as its warnings.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { format } from 'node:util';
import { createJiti } from 'jiti';
import { retrieverAnswer } from './retriever-answer.js';
import type { LoadProblem, ThreadReply, ThreadRequest, ThreadStart } from './module-thread-protocol.js';

const start = workerData as ThreadStart;
const port = parentPort!;
let logged: string[] = [];

for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace', 'dir'] as const) {
  console[method] = (...args: unknown[]): void => {
    logged.push(format(...args));
  };
}

type Call = (body: Record<string, unknown>) => unknown;

/** How to call the export: a function as it is, a LlamaIndex.TS or LangChain.js retriever by its method. */
function callOf(value: unknown): Call | undefined {
  if (typeof value === 'function') return (body) => (value as Call)(body);
  if (typeof value !== 'object' || value === null) return undefined;
  const o = value as Record<string, unknown>;
  if (typeof o['retrieve'] === 'function')
    return (body) => (o['retrieve'] as (p: { query: unknown }) => unknown).call(o, { query: body['query'] });
  if (typeof o['invoke'] === 'function')
    return (body) => (o['invoke'] as (q: unknown) => unknown).call(o, body['query']);
  return undefined;
}

function describe(e: unknown): { message: string; stack?: string } {
  if (e instanceof Error)
    return { message: `${e.name}: ${e.message}`, ...(e.stack ? { stack: e.stack } : {}) };
  return { message: `threw a non-error: ${format(e)}` };
}

async function load(): Promise<Call | LoadProblem> {
  // no module cache: each thread (a fresh one after restart()) runs the module from the top
  const jiti = createJiti(start.file, { moduleCache: false });
  let mod: unknown;
  try {
    mod = await jiti.import(start.file);
  } catch (e) {
    const { message, stack } = describe(e);
    // jiti's transform reports a syntax error as "<name>: <what> \n <file>:<line>:<column>"
    const syntax = /^(?:Error: )?(?:\w*Error): ([^\n]*?)\s*\n\s*(\S+):(\d+):(\d+)\s*$/.exec(message);
    if (syntax)
      return {
        kind: 'syntax',
        message: syntax[1] as string,
        file: syntax[2] as string,
        line: Number(syntax[3]),
        column: Number(syntax[4]),
      };
    return { kind: 'threw', message, ...(stack ? { stack } : {}) };
  }
  const exports = (typeof mod === 'object' && mod !== null ? mod : {}) as Record<string, unknown>;
  if (!(start.exportName in exports) || exports[start.exportName] === undefined)
    return { kind: 'no_export', available: Object.keys(exports).sort() };
  const value = exports[start.exportName];
  const call = callOf(value);
  if (!call) return { kind: 'not_callable', what: value === null ? 'null' : typeof value };
  return call;
}

function post(reply: ThreadReply): void {
  try {
    port.postMessage(reply);
  } catch (e) {
    // functions, symbols or class instances holding them cannot be copied out of the thread
    port.postMessage({
      t: 'reply',
      id: reply.t === 'reply' ? reply.id : 0,
      warnings: [],
      problem: `: the answer cannot leave the worker thread (${(e as Error).message}); return plain data`,
    } satisfies ThreadReply);
  }
}

const loaded = await load();
if (typeof loaded !== 'function') {
  port.postMessage({ t: 'load_failed', problem: loaded } satisfies ThreadReply);
} else {
  port.postMessage({ t: 'loaded' } satisfies ThreadReply);
  port.on('message', (req: ThreadRequest) => {
    void (async () => {
      let reply: ThreadReply;
      try {
        const r = retrieverAnswer(await loaded(req.body));
        reply = { t: 'reply', id: req.id, warnings: [], ...r };
      } catch (e) {
        reply = { t: 'reply', id: req.id, warnings: [], thrown: describe(e) };
      }
      reply.warnings = logged;
      logged = [];
      post(reply);
    })();
  });
}
