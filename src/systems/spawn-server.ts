import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { TailBuffer } from './process-group.js';
import type { RunOnceOptions, RunOnceResult } from './run-once.js';
import { PY_SPAWN_SERVER_SCRIPT } from './spawn-server-python.js';
import { SPAWN_SERVER_SCRIPT } from './spawn-server-script.js';

/** A spawn-server interpreter: Python 3 (posix_spawn) or Perl (fork/exec), same protocol. */
export interface Launcher {
  kind: 'python' | 'perl';
  path: string;
}

interface Pending {
  launcher: ChildProcess;
  resolve: (r: RunOnceResult) => void;
  timer: NodeJS.Timeout;
  hardStop?: NodeJS.Timeout;
  timedOut: boolean;
  timeoutMs: number;
}

/** Prefix of the failure message when the launcher itself broke (not the command it was to run). */
export const SPAWN_SERVER_FAILED = 'spawn server unavailable:';

/** What the launcher's child writes to stderr when exec fails (then exits 127). */
const EXEC_FAILED = '\0rgate-launcher: ';

/** How long after a timeout kill we wait for the launcher's report before giving up on it. */
const REPORT_GRACE_MS = 2000;

/** `name` on the given PATH, if any. */
function onPath(name: string, path: string): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, name);
    if (existsSync(p)) return p;
  }
  return undefined;
}

/** `perl` on the given PATH, if any. */
export function findPerl(path = process.env['PATH'] ?? ''): string | undefined {
  return onPath('perl', path);
}

/** `python3` on the given PATH, if any. */
export function findPython(path = process.env['PATH'] ?? ''): string | undefined {
  return onPath('python3', path);
}

/** The interpreter's argv for the launcher script: Python isolated (-I) and without site (-S). */
function launcherArgs(l: Launcher): string[] {
  return l.kind === 'python' ? ['-I', '-S', '-c', PY_SPAWN_SERVER_SCRIPT] : ['-e', SPAWN_SERVER_SCRIPT];
}

function killGroupPid(pid: number | undefined): void {
  // never 0 or negative: kill(-0) would signal rgate's own process group
  if (pid === undefined || !Number.isInteger(pid) || pid <= 0) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // gone already
  }
}

/**
 * A spawn server: one small Python (posix_spawn) or Perl (fork/exec) process that starts the
 * per-query commands on rgate's behalf. Node's own spawn fork()s the whole node process (~60 MB of page tables) and wakes its event
 * loop several times per child; a small forker costs about what a shell loop costs, and rgate wakes
 * once per command (the result frame). Same semantics as runOnce: no shell, stdin closed, stdout
 * capped, stderr tail kept, each child in its own process group, whose group the launcher SIGKILLs
 * when rgate sends a kill frame (timeout). Many children may run at once (concurrent requests).
 */
export class SpawnServer {
  private child: ChildProcess | undefined;
  private readonly pending = new Map<string, Pending>();
  private nextId = 1;
  private buf: Buffer = Buffer.alloc(0);
  private readonly stderr = new TailBuffer(2048);
  private closed: Promise<void> = Promise.resolve();
  /** resolves when the current launcher has said it is ready (or has died trying) */
  private ready: Promise<void> = Promise.resolve();
  private markReady: () => void = () => undefined;
  /** launchers being shut down on purpose (their exit is not a failure) */
  private readonly closing = new WeakSet<ChildProcess>();

  constructor(
    private readonly launcher: Launcher,
    private readonly o: { env: Record<string, string>; cwd: string; onLaunch?: (pid: number) => void },
  ) {}

  private ensure(): ChildProcess {
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) return this.child;
    // the launcher itself sees only PATH; the children's environment is passed as arguments
    const envArgs = Object.keys(this.o.env)
      .sort()
      .map((k) => `${k}=${this.o.env[k]}`);
    const c = spawn(this.launcher.path, [...launcherArgs(this.launcher), ...envArgs], {
      cwd: this.o.cwd,
      env: { PATH: this.o.env['PATH'] ?? '' },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    this.buf = Buffer.alloc(0);
    this.ready = new Promise((res) => {
      const t = setTimeout(res, 5000);
      this.markReady = () => {
        clearTimeout(t);
        res();
      };
    });
    c.stdin?.on('error', () => undefined);
    c.stdout?.on('data', (d: Buffer) => this.onData(d));
    c.stderr?.on('data', (d: Buffer) => this.stderr.push(d));
    this.closed = new Promise((res) => c.on('close', () => res()));
    c.on('error', (e) => this.failAll(c, `${SPAWN_SERVER_FAILED} could not start (${e.message})`));
    c.on('exit', () => {
      this.markReady();
      this.failAll(
        c,
        this.closing.has(c)
          ? 'spawn server closed'
          : `${SPAWN_SERVER_FAILED} exited unexpectedly ${this.stderr.text()}`.trim(),
      );
    });
    this.child = c;
    if (c.pid !== undefined) this.o.onLaunch?.(c.pid);
    return c;
  }

  /** Start the launcher ahead of the first request; resolves once it is ready (never rejects). */
  warm(): Promise<void> {
    this.ensure();
    return this.ready;
  }

  /** Run one command; resolves like runOnce (never rejects). */
  run(
    argv: readonly string[],
    o: Pick<RunOnceOptions, 'timeoutMs' | 'maxOutputBytes'>,
  ): Promise<RunOnceResult> {
    const c = this.ensure();
    const id = String(this.nextId++);
    return new Promise((resolve) => {
      const p: Pending = {
        launcher: c,
        resolve,
        timedOut: false,
        timeoutMs: o.timeoutMs,
        timer: setTimeout(() => this.onTimeout(id), o.timeoutMs),
      };
      this.pending.set(id, p);
      this.send(c, [id, String(o.maxOutputBytes), ...argv]);
    });
  }

  private send(c: ChildProcess, fields: readonly string[]): void {
    const payload = Buffer.from(fields.join('\0'), 'utf8');
    const frame = Buffer.allocUnsafe(4 + payload.length);
    frame.writeUInt32BE(payload.length, 0);
    payload.copy(frame, 4);
    c.stdin?.write(frame);
  }

  private onTimeout(id: string): void {
    const p = this.pending.get(id);
    if (!p) return;
    p.timedOut = true;
    // the launcher kills the child's process group and then reports it like any exit
    this.send(p.launcher, ['K', id]);
    // the launcher reports the killed child; if it cannot (wedged), give up on it after a grace period
    p.hardStop = setTimeout(() => {
      this.settle(id, { kind: 'timeout', message: this.timeoutMessage(p), stderr: '' });
      this.kill();
    }, REPORT_GRACE_MS);
  }

  private timeoutMessage(p: Pending): string {
    return `no answer within ${p.timeoutMs} ms; process group killed`;
  }

  private settle(id: string, r: RunOnceResult): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    clearTimeout(p.timer);
    if (p.hardStop) clearTimeout(p.hardStop);
    p.resolve(r);
  }

  private onData(d: Buffer): void {
    this.buf = this.buf.length === 0 ? d : Buffer.concat([this.buf, d]);
    for (;;) {
      const nl = this.buf.indexOf(10);
      if (nl === -1) return;
      const head = this.buf.subarray(0, nl).toString('utf8');
      const sp = head.indexOf(' ');
      const type = sp === -1 ? head : head.slice(0, sp);
      const rest = sp === -1 ? '' : head.slice(sp + 1);
      if (type === 'R') {
        // the launcher's "ready" line, once at start
        this.buf = this.buf.subarray(nl + 1);
        this.markReady();
      } else if (type === 'F') {
        const i = rest.indexOf(' ');
        const id = rest.slice(0, i);
        this.buf = this.buf.subarray(nl + 1);
        this.settle(id, { kind: 'spawn_failed', message: rest.slice(i + 1), stderr: '' });
      } else if (type === 'E') {
        const [id = '', status, overflow, errDropped, outLen, errLen] = rest.split(' ');
        const ol = Number(outLen);
        const el = Number(errLen);
        if (this.buf.length < nl + 1 + ol + el) return;
        const out = this.buf.subarray(nl + 1, nl + 1 + ol).toString('utf8');
        const errText = this.buf.subarray(nl + 1 + ol, nl + 1 + ol + el).toString('utf8');
        this.buf = this.buf.subarray(nl + 1 + ol + el);
        const stderr = errDropped === '1' ? `…${errText}` : errText;
        const p = this.pending.get(id);
        const ws = Number(status);
        if (!p) continue;
        if (p.timedOut) this.settle(id, { kind: 'timeout', message: this.timeoutMessage(p), stderr });
        else if (overflow === '1')
          this.settle(id, {
            kind: 'output_too_large',
            message: 'stdout exceeded the output cap; process group killed',
            stderr,
          });
        else if (ws >> 8 === 127 && errText.startsWith(EXEC_FAILED))
          this.settle(id, { kind: 'spawn_failed', message: errText.slice(EXEC_FAILED.length), stderr: '' });
        else
          this.settle(id, {
            kind: 'exit',
            code: ws & 127 ? null : ws >> 8,
            signal: ws & 127 ? signalName(ws & 127) : null,
            stdout: out,
            stderr,
          });
      } else {
        // unknown line: the launcher is broken; drop it
        this.buf = this.buf.subarray(nl + 1);
      }
    }
  }

  /** Fail the requests sent to launcher `c` (it is gone), killing their children's groups. */
  private failAll(c: ChildProcess, message: string): void {
    for (const [id, p] of [...this.pending]) {
      if (p.launcher !== c) continue;
      this.settle(id, { kind: 'spawn_failed', message, stderr: '' });
    }
  }

  private kill(): void {
    killGroupPid(this.child?.pid);
  }

  /** Close stdin: the launcher kills and reaps any child still running, then exits. */
  async close(): Promise<void> {
    const c = this.child;
    if (!c) return;
    this.child = undefined;
    this.closing.add(c);
    // on stdin EOF the launcher SIGKILLs and reaps every child still running, then exits
    c.stdin?.end();
    const grace = setTimeout(() => killGroupPid(c.pid), 1000);
    await Promise.race([this.closed, new Promise((r) => setTimeout(r, 1500).unref())]);
    clearTimeout(grace);
    killGroupPid(c.pid);
    this.failAll(c, 'spawn server closed');
  }
}

const SIGNALS: Record<number, NodeJS.Signals> = {
  1: 'SIGHUP',
  2: 'SIGINT',
  3: 'SIGQUIT',
  4: 'SIGILL',
  6: 'SIGABRT',
  7: 'SIGBUS',
  8: 'SIGFPE',
  9: 'SIGKILL',
  11: 'SIGSEGV',
  13: 'SIGPIPE',
  14: 'SIGALRM',
  15: 'SIGTERM',
  25: 'SIGXFSZ',
};

function signalName(n: number): NodeJS.Signals {
  return SIGNALS[n] ?? ('SIGUNKNOWN' as NodeJS.Signals);
}
