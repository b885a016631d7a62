import type { ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { SYSTEM_DEFAULTS } from '../core/defaults.js';

/**
 * Every SUT process rgate started that has not exited yet. Process groups are a resource of the
 * whole rgate process, so they are kept in one place: an exit that cannot wait for the adapters to
 * close (a second Ctrl-C) kills them all with {@link killEveryGroup}, synchronously.
 */
const live = new Set<ChildProcess>();

/** Count `child` among the live SUT processes until it exits (or fails to start). */
export function trackGroup(child: ChildProcess): void {
  live.add(child);
  const forget = (): void => {
    live.delete(child);
  };
  child.once('exit', forget);
  child.once('error', forget);
}

/** SIGKILL the group of every SUT process still alive; for an exit that cannot wait. Returns how many. */
export function killEveryGroup(): number {
  const n = live.size;
  for (const child of live) killGroup(child);
  live.clear();
  return n;
}

/**
 * SIGKILL a child's whole process group (children are spawned `detached`, so each leads its own group):
 * a hung SUT that forked helpers leaves nothing behind. ESRCH (already gone) is fine.
 */
export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** Keeps the last `limit` bytes written to it (stderr kept with a failure). */
export class TailBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  private dropped = false;
  constructor(private readonly limit = SYSTEM_DEFAULTS.stderr_keep_bytes) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    if (this.size > this.limit * 2) this.compact();
  }

  private compact(): void {
    const all = Buffer.concat(this.chunks);
    if (all.length > this.limit) this.dropped = true;
    const keep = all.subarray(Math.max(0, all.length - this.limit));
    this.chunks = [keep];
    this.size = keep.length;
  }

  clear(): void {
    this.chunks = [];
    this.size = 0;
    this.dropped = false;
  }

  text(): string {
    this.compact();
    const s = Buffer.concat(this.chunks).toString('utf8');
    return this.dropped ? `…${s}` : s;
  }
}

/** The child's whole environment: PATH from rgate's own environment plus what the spec states. */
export function childEnv(extra: Record<string, string> | undefined): Record<string, string> {
  return { PATH: process.env['PATH'] ?? '/usr/local/bin:/usr/bin:/bin', ...(extra ?? {}) };
}

/** Whether `path` is a folder a process could be started in. */
export function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Why a process could not be started. Node reports a missing working folder exactly as a missing
 * program (`spawn python3 ENOENT`), so the folder is checked before the program is blamed.
 */
export function spawnFailure(argv0: string, cwd: string, e: Error): string {
  if ((e as NodeJS.ErrnoException).code === 'ENOENT' && !isFolder(cwd))
    return `cannot run ${argv0} in ${cwd}: that working folder does not exist (${e.message})`;
  return `cannot run ${argv0}: ${e.message}`;
}
