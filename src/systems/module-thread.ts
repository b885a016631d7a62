import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { RgateError } from '../core/errors.js';
import { deadline } from './deadline.js';
import type { LoadProblem, ThreadReply, ThreadStart } from './module-thread-protocol.js';
import { TailBuffer } from './process-group.js';

export type Answered = Extract<ThreadReply, { t: 'reply' }>;

export type ThreadOutcome =
  | { kind: 'reply'; reply: Answered }
  | { kind: 'timeout' | 'crash' | 'interrupted'; message: string; stderr?: string }
  | { kind: 'load_failed'; problem: LoadProblem };

/**
 * The thread's entry, compiled: beside this file in dist/ (and the run bundle, whose import.meta.url
 * is this module's compiled file); from the sources (vitest), the built copy in dist/.
 */
function entryUrl(): URL {
  const beside = new URL('./module-thread-entry.js', import.meta.url);
  if (existsSync(fileURLToPath(beside))) return beside;
  const built = new URL('../../dist/src/systems/module-thread-entry.js', import.meta.url);
  if (existsSync(fileURLToPath(built))) return built;
  throw new RgateError(
    'internal',
    `module system: the worker thread's entry is missing (${fileURLToPath(beside)})`,
    'build rgate (npm run build)',
  );
}

/**
 * One worker thread running a module system, one request in flight at a time. A timeout, an abandoned
 * request or a thread that dies (an uncaught error, process.exit inside it) ends the thread: `alive`
 * turns false and the pool starts a fresh one. A thrown error or a rejected promise is only that
 * request's failure (the thread lives on).
 */
export class ModuleThread {
  private readonly worker: Worker;
  private readonly output = new TailBuffer();
  private pending: { id: number; resolve: (o: ThreadOutcome) => void; cancel: () => void } | undefined;
  private nextId = 1;
  private problem: LoadProblem | undefined;
  private deathNote: string | undefined;
  private readonly gone: Promise<void>;
  /** resolves once the module is loaded (undefined) or could not be (its problem) */
  readonly loaded: Promise<LoadProblem | undefined>;
  alive = true;
  /** the thread has exited (terminated or of its own accord) */
  exited = false;

  constructor(start: ThreadStart) {
    // execArgv: [] so flags of the parent (a loader, `--input-type`) never reach the thread;
    // stdout/stderr piped to us, never onto rgate's own output
    this.worker = new Worker(entryUrl(), { workerData: start, execArgv: [], stdout: true, stderr: true });
    this.worker.stdout.on('data', (c: Buffer) => this.output.push(c));
    this.worker.stderr.on('data', (c: Buffer) => this.output.push(c));
    let settle!: (p: LoadProblem | undefined) => void;
    this.loaded = new Promise((res) => (settle = res));
    this.worker.on('message', (m: ThreadReply) => {
      if (m.t === 'loaded') settle(undefined);
      else if (m.t === 'load_failed') {
        this.problem = m.problem;
        settle(m.problem);
        this.end({ kind: 'load_failed', problem: m.problem });
      } else if (this.pending?.id === m.id) {
        const p = this.pending;
        this.pending = undefined;
        p.cancel();
        p.resolve({ kind: 'reply', reply: m });
      }
    });
    this.worker.on('error', (e) => {
      this.deathNote = `worker thread crashed: ${e.name}: ${e.message}`;
    });
    this.gone = new Promise((res) =>
      this.worker.on('exit', (code) => {
        this.exited = true;
        const note = this.deathNote ?? `worker thread exited with code ${code}`;
        settle({ kind: 'threw', message: note });
        this.end({ kind: 'crash', message: note });
        res();
      }),
    );
  }

  /** Send one request; resolves with the thread's reply or a failure. Never rejects. */
  request(body: Record<string, unknown>, timeoutMs: number, signal?: AbortSignal): Promise<ThreadOutcome> {
    if (signal?.aborted)
      return Promise.resolve({
        kind: 'interrupted',
        message: 'request abandoned before it was sent: rgate was interrupted',
      });
    if (!this.alive)
      return Promise.resolve(
        this.problem
          ? { kind: 'load_failed', problem: this.problem }
          : { kind: 'crash', message: this.deathNote ?? 'worker thread is gone' },
      );
    const id = this.nextId++;
    return new Promise((resolve) => {
      const cancelTimeout = deadline(timeoutMs, () =>
        this.end({ kind: 'timeout', message: `no answer within ${timeoutMs} ms; worker thread terminated` }),
      );
      const abandon = (): void =>
        this.end({
          kind: 'interrupted',
          message: 'request abandoned: rgate was interrupted; worker thread terminated',
        });
      signal?.addEventListener('abort', abandon, { once: true });
      const cancel = (): void => {
        cancelTimeout();
        signal?.removeEventListener('abort', abandon);
      };
      this.pending = { id, resolve, cancel };
      this.worker.postMessage({ id, body });
    });
  }

  /** Fail the request in flight (if any) and terminate the thread. */
  private end(outcome: Exclude<ThreadOutcome, { kind: 'reply' }>): void {
    this.alive = false;
    void this.worker.terminate();
    const p = this.pending;
    if (!p) return;
    this.pending = undefined;
    p.cancel();
    if (outcome.kind === 'crash' || outcome.kind === 'timeout') {
      const stderr = this.output.text();
      p.resolve(stderr ? { ...outcome, stderr } : outcome);
    } else p.resolve(outcome);
  }

  /** Terminate the thread; resolves when it is gone. */
  async close(): Promise<void> {
    this.alive = false;
    await this.worker.terminate();
    await this.gone;
  }
}
