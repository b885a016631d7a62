import { spawn, type ChildProcess } from 'node:child_process';
import { deadline } from './deadline.js';
import { killGroup, spawnFailure, TailBuffer, trackGroup } from './process-group.js';

export interface WorkerOptions {
  env: Record<string, string>;
  cwd: string;
  /** longest response line accepted */
  maxOutputBytes: number;
}

export type WorkerReply =
  | {
      kind: 'reply';
      response: unknown;
      /** the line's `warnings` (a worker has no per-request stderr), joined one per line; absent when none */
      warnings?: string;
    }
  | {
      kind:
        'timeout' | 'crash' | 'output_too_large' | 'spawn_failed' | 'protocol' | 'non_json' | 'interrupted';
      message: string;
      stderr: string;
      /**
       * The worker went away without taking this request up (see `untaken` in `die`): the request may
       * go to a fresh worker, which the pool does once.
       */
      untaken?: true;
    };

interface Pending {
  id: number;
  resolve: (r: WorkerReply) => void;
  cancelDeadline: () => void;
  /** the write of this request failed (EPIPE: nobody reads the worker's stdin any more) */
  unsent?: boolean;
  /** stdout bytes arrived after this request was written: the worker had begun its answer */
  begun?: boolean;
}

/** How long a worker gets to exit on its own after stdin closes, before its group is SIGKILLed. */
const EXIT_GRACE_MS = 1000;
/** How long to wait for stdio to drain after the process is gone. */
const DRAIN_MS = 300;

function delay(ms: number): Promise<void> {
  return new Promise((res) => setTimeout(res, ms).unref());
}

/**
 * One persistent SUT process speaking JSON lines: rgate writes `{"id": n, ...request}` + newline to its
 * stdin, the worker answers one line `{"id": n, "response": <contract payload>, "warnings"?: [...]}` on
 * stdout (logs go to stderr; what a request should be warned about goes in `warnings`, since stderr is
 * one stream for every request and its lines cannot be told apart as this request's). One request is in flight at a time. Any protocol break, timeout or crash kills the process
 * group and marks the worker dead; the pool replaces it (fresh state) for the next request.
 */
export class JsonLinesWorker {
  private readonly child: ChildProcess;
  private readonly stderr = new TailBuffer();
  private buf: Buffer[] = [];
  private bufBytes = 0;
  private pending: Pending | undefined;
  private nextId = 1;
  private exitInfo: string | undefined;
  /** the process exited with code 0, of its own accord (a worker recycling itself after N requests) */
  private cleanExit = false;
  /** requests answered */
  private answered = 0;
  /** stdout is no longer read: a broken exchange, the worker is being killed */
  private broken = false;
  private spawnError: string | undefined;
  private readonly closed: Promise<void>;
  alive = true;

  constructor(
    argv: readonly string[],
    private readonly o: WorkerOptions,
  ) {
    this.child = spawn(argv[0] as string, argv.slice(1), {
      cwd: o.cwd,
      env: o.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    trackGroup(this.child);
    this.closed = new Promise((res) => this.child.on('close', () => res()));
    this.child.on('error', (e) => {
      this.spawnError = spawnFailure(argv[0] as string, o.cwd, e);
      this.die('spawn_failed', this.spawnError);
    });
    // a worker that dies mid-write must not crash rgate with EPIPE
    this.child.stdin?.on('error', () => undefined);
    this.child.stdout?.on('data', (c: Buffer) => this.onData(c));
    this.child.stderr?.on('data', (c: Buffer) => this.stderr.push(c));
    this.child.on('exit', (code, signal) => {
      this.exitInfo = signal ? `killed by ${signal}` : `exited with code ${code}`;
      this.cleanExit = code === 0 && !signal;
      this.alive = false;
      killGroup(this.child);
      // an answer written just before the exit may still be in the pipe: read stdout to its end first
      // (bounded: an escaped grandchild may hold the pipe)
      void Promise.race([this.closed, delay(DRAIN_MS)]).then(() =>
        this.die('crash', `worker ${this.exitInfo}`),
      );
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /**
   * Send one request; resolves with the worker's response payload or a failure. Never rejects.
   * `signal` abandons it: the worker's process group is killed and the reply is `interrupted`.
   */
  request(body: Record<string, unknown>, timeoutMs: number, signal?: AbortSignal): Promise<WorkerReply> {
    if (signal?.aborted) {
      return Promise.resolve({
        kind: 'interrupted',
        message: 'request abandoned before it was sent: rgate was interrupted',
        stderr: '',
      });
    }
    if (!this.alive) {
      return Promise.resolve({
        kind: this.spawnError ? 'spawn_failed' : 'crash',
        message: this.spawnError ?? `worker ${this.exitInfo ?? 'is gone'}`,
        stderr: this.stderr.text(),
      });
    }
    const id = this.nextId++;
    return new Promise((resolve) => {
      // counted from this request's write; never another request's time (one in flight per worker),
      // but a fresh worker's start is in it: the protocol has no ready signal to start the clock at
      const cancelTimeout = deadline(timeoutMs, () => {
        this.fail('timeout', `no answer within ${timeoutMs} ms; worker process group killed`);
      });
      const abandon = (): void =>
        this.fail('interrupted', 'request abandoned: rgate was interrupted; worker process group killed');
      signal?.addEventListener('abort', abandon, { once: true });
      const cancelDeadline = (): void => {
        cancelTimeout();
        signal?.removeEventListener('abort', abandon);
      };
      const p: Pending = { id, resolve, cancelDeadline };
      this.pending = p;
      this.child.stdin?.write(JSON.stringify({ id, ...body }) + '\n', (e) => {
        if (!e) return;
        // the worker's stdin is closed: the request never reached it, and no later one can
        p.unsent = true;
        killGroup(this.child);
      });
    });
  }

  private onData(c: Buffer): void {
    // after a broken exchange the worker is being killed: whatever it still writes is nobody's answer
    if (this.broken) return;
    if (this.pending) this.pending.begun = true;
    let start = 0;
    for (let i = c.indexOf(10); i !== -1; i = c.indexOf(10, start)) {
      if (this.overflows(i - start)) return;
      this.buf.push(c.subarray(start, i));
      const line = Buffer.concat(this.buf).toString('utf8');
      this.buf = [];
      this.bufBytes = 0;
      start = i + 1;
      this.onLine(line);
      if (this.broken) return;
    }
    if (start < c.length) {
      if (this.overflows(c.length - start)) return;
      this.buf.push(c.subarray(start));
      this.bufBytes += c.length - start;
    }
  }

  /**
   * Whether `more` bytes would take the line being read past the cap; if so the worker is failed at
   * once, before they are kept, so a flood holds no more than the cap in memory.
   */
  private overflows(more: number): boolean {
    const seen = this.bufBytes + more;
    if (seen <= this.o.maxOutputBytes) return false;
    this.fail(
      'output_too_large',
      `response line exceeded ${this.o.maxOutputBytes} bytes (${seen} bytes seen); worker killed`,
    );
    return true;
  }

  private onLine(line: string): void {
    if (line.trim() === '') return;
    const p = this.pending;
    if (!p) {
      this.fail(
        'protocol',
        `unsolicited stdout line (stdout is for response lines; log to stderr): ${clip(line)}`,
      );
      return;
    }
    let msg: unknown;
    try {
      msg = JSON.parse(line);
    } catch {
      this.fail('non_json', `response line is not JSON: ${clip(line)}`);
      return;
    }
    const m = msg as { id?: unknown; response?: unknown; warnings?: unknown };
    if (typeof msg !== 'object' || msg === null || m.id !== p.id || !('response' in m)) {
      this.fail('protocol', `expected {"id": ${p.id}, "response": ...}, got ${clip(line)}`);
      return;
    }
    const w = m.warnings;
    const warnings =
      typeof w === 'string'
        ? w
        : Array.isArray(w) && w.every((x) => typeof x === 'string')
          ? w.join('\n')
          : undefined;
    if (w !== undefined && w !== null && warnings === undefined) {
      this.fail(
        'protocol',
        `"warnings" must be an array of strings (one warning each), got ${clip(JSON.stringify(w))}`,
      );
      return;
    }
    this.pending = undefined;
    this.answered += 1;
    p.cancelDeadline();
    p.resolve({ kind: 'reply', response: m.response, ...(warnings ? { warnings } : {}) });
  }

  /** Fail the request in flight and kill the worker: after a broken exchange its state is unknown. */
  private fail(kind: Exclude<WorkerReply['kind'], 'reply'>, message: string): void {
    this.broken = true;
    killGroup(this.child);
    // stop reading stdout now (stderr drains on, for the tail) and drop the partial line
    this.child.stdout?.destroy();
    this.buf = [];
    this.bufBytes = 0;
    this.die(kind, message);
  }

  private die(kind: Exclude<WorkerReply['kind'], 'reply'>, message: string): void {
    this.alive = false;
    const p = this.pending;
    if (!p) return;
    this.pending = undefined;
    p.cancelDeadline();
    // Taken up or not, told apart whatever the order in which its exit and rgate's write happened: a
    // write that failed never reached the worker; a worker that had answered before, then exited with
    // code 0 without a byte of this answer, ended of its own accord between requests (recycling after
    // N), and one that dies handling a request does not exit 0. A request that makes a worker exit 0
    // still counts: the fresh worker it goes to has answered nothing, so its exit is a crash.
    // let stderr drain (bounded: an escaped grandchild may hold the pipe) so the tail explains the failure
    // (and a failed write's callback has run)
    void Promise.race([this.closed, delay(DRAIN_MS)]).then(() => {
      const untaken =
        kind === 'crash' && (p.unsent === true || (this.cleanExit && this.answered > 0 && p.begun !== true));
      p.resolve({
        kind,
        message,
        stderr: this.stderr.text(),
        ...(untaken ? { untaken: true as const } : {}),
      });
    });
  }

  /** Close stdin (a well-behaved worker exits), SIGKILL the group after a grace period; resolves when gone. */
  async close(): Promise<void> {
    this.alive = false;
    if (this.child.pid === undefined) return;
    this.child.stdin?.end();
    const grace = setTimeout(() => killGroup(this.child), EXIT_GRACE_MS);
    await Promise.race([this.closed, delay(EXIT_GRACE_MS + DRAIN_MS)]);
    clearTimeout(grace);
    killGroup(this.child);
    this.child.stdout?.destroy();
    this.child.stderr?.destroy();
  }
}

function clip(s: string): string {
  return JSON.stringify(s.length > 200 ? `${s.slice(0, 200)}…` : s);
}
