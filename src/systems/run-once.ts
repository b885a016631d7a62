import { spawn } from 'node:child_process';
import { deadline } from './deadline.js';
import { killGroup, spawnFailure, TailBuffer, trackGroup } from './process-group.js';

/** How long to wait for stdio to close after the process exited. */
const DRAIN_MS = 500;

export interface RunOnceOptions {
  env: Record<string, string>;
  cwd: string;
  timeoutMs: number;
  maxOutputBytes: number;
  /** abandon the run: its process group is killed and the result is `interrupted` */
  signal?: AbortSignal;
}

export type RunOnceResult =
  | { kind: 'exit'; code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }
  | {
      kind: 'timeout' | 'output_too_large' | 'spawn_failed' | 'interrupted';
      message: string;
      stderr: string;
    };

const ABANDONED = 'request abandoned: rgate was interrupted';

/**
 * Run one process to completion: no shell, stdin closed, stdout collected up to a cap, the stderr tail
 * kept. The timeout counts from this process's start. On timeout, or as soon as stdout crosses the cap,
 * the whole process group is SIGKILLed. Once the main process exits its group is killed too, so a
 * SUT's stray background children neither leak nor hold stdout open. `o.signal` abandons it the
 * same way (group killed, result `interrupted`). Never rejects.
 */
export function runOnce(argv: readonly string[], o: RunOnceOptions): Promise<RunOnceResult> {
  if (o.signal?.aborted) {
    return Promise.resolve({ kind: 'interrupted', message: `${ABANDONED} before it started`, stderr: '' });
  }
  return new Promise((resolve) => {
    let settled = false;
    let failure: RunOnceResult | undefined;
    const out: Buffer[] = [];
    let outBytes = 0;
    const err = new TailBuffer();
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(argv[0] as string, argv.slice(1), {
        cwd: o.cwd,
        env: o.env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      trackGroup(child);
    } catch (e) {
      // invalid arguments throw synchronously (ENOENT and friends arrive as 'error' events below)
      resolve({
        kind: 'spawn_failed',
        message: `cannot run ${argv[0]}: ${(e as Error).message}`,
        stderr: '',
      });
      return;
    }
    let exited = false;
    const finish = (r: RunOnceResult): void => {
      if (settled) return;
      settled = true;
      cancelDeadline();
      o.signal?.removeEventListener('abort', abandon);
      resolve(r);
    };
    const cancelDeadline = deadline(o.timeoutMs, () => {
      // exited while rgate was too busy to notice: its output is being read, it was not late
      if (exited) return;
      failure ??= {
        kind: 'timeout',
        message: `no answer within ${o.timeoutMs} ms; process group killed`,
        stderr: '',
      };
      killGroup(child);
    });
    const abandon = (): void => {
      if (exited) return;
      failure ??= { kind: 'interrupted', message: `${ABANDONED}; process group killed`, stderr: '' };
      killGroup(child);
    };
    o.signal?.addEventListener('abort', abandon, { once: true });
    child.stdout?.on('data', (c: Buffer) => {
      outBytes += c.length;
      if (outBytes <= o.maxOutputBytes) {
        out.push(c);
        return;
      }
      // Stop at the crossing: read no further and kill now, so a flood costs neither memory past the
      // cap nor the time it would take to run to its end (or to its timeout).
      failure ??= {
        kind: 'output_too_large',
        message: `stdout exceeded ${o.maxOutputBytes} bytes (${outBytes} bytes seen); process group killed`,
        stderr: '',
      };
      out.length = 0;
      child.stdout?.destroy();
      killGroup(child);
    });
    child.stderr?.on('data', (c: Buffer) => err.push(c));
    child.on('error', (e) => {
      // spawn failures (ENOENT, EACCES) arrive here; 'close' may or may not follow
      finish({
        kind: 'spawn_failed',
        message: spawnFailure(argv[0] as string, o.cwd, e),
        stderr: err.text(),
      });
    });
    child.on('exit', () => {
      exited = true;
      killGroup(child);
      // a grandchild that left the group (setsid) could hold stdout open forever: stop waiting after a moment
      setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        complete(null, null);
      }, DRAIN_MS).unref();
    });
    let exitCode: number | null = null;
    let exitSignal: NodeJS.Signals | null = null;
    child.on('exit', (code, signal) => {
      exitCode = code;
      exitSignal = signal;
    });
    const complete = (code: number | null, signal: NodeJS.Signals | null): void => {
      if (failure) finish({ ...failure, stderr: err.text() } as RunOnceResult);
      else
        finish({
          kind: 'exit',
          code: code ?? exitCode,
          signal: signal ?? exitSignal,
          stdout: Buffer.concat(out).toString('utf8'),
          stderr: err.text(),
        });
    };
    child.on('close', complete);
  });
}
