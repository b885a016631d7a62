import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { RunOwner, RunStatus } from '../documents/index.js';

/**
 * Which process a running run belongs to, so a run whose process died (kill -9, a crashed CI
 * runner) can be told from one still going: host, pid, and on Linux the process's start time in
 * clock ticks since boot, which tells a reused pid from the original process.
 */
export function thisProcess(): RunOwner {
  const started = processStart(process.pid);
  return { host: hostname(), pid: process.pid, ...(started ? { started } : {}) };
}

/** true: still running; false: gone (or its pid now belongs to another process); undefined: cannot tell (another host). */
export function ownerAlive(owner: RunOwner): boolean | undefined {
  if (owner.host !== hostname()) return undefined;
  try {
    process.kill(owner.pid, 0);
  } catch (e) {
    // EPERM: the pid exists but belongs to someone else; the start time below still decides
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (owner.started === undefined) return true;
  const now = processStart(owner.pid);
  return now === undefined || now === owner.started;
}

/** Field 22 of /proc/<pid>/stat (start time in clock ticks since boot), or undefined off Linux. */
function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) is in parentheses and may contain spaces: count after its end
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19];
  } catch {
    return undefined;
  }
}

/** A stored status as it stands now: `running` whose process is gone reads as `abandoned`. */
export function liveStatus(stored: RunStatus, owner: RunOwner | undefined): RunStatus {
  return stored === 'running' && owner && ownerAlive(owner) === false ? 'abandoned' : stored;
}
