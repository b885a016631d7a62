/**
 * `RGATE_STAGE_TIMINGS=<file>` (or `-` for stderr): `rgate run` appends one JSON line per suite with
 * its stage timings in ms (prepare, replay, read, report, measure inside report, bootstrap inside
 * measure, store, render) for benchmarks/run-bootstrap-share.ts. Read here, at the CLI edge, only:
 * the timings go to that file, never into a report, and the intervals are the same bytes either way.
 */
import { appendFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { StageTimer } from '../../harness/stage-timer.js';
import { bootstrapTime, timeBootstraps } from '../stats/bootstrap.js';
import type { CliIo } from './command.js';

interface StageTimings {
  timer: StageTimer;
  /** append this suite's line, then start the next suite's timings from zero */
  flush(suite: string): void;
}

/** The timings of this process's runs when RGATE_STAGE_TIMINGS asks for them; undefined otherwise. */
export function stageTimingsFromEnv(io: CliIo): StageTimings | undefined {
  const target = io.env.RGATE_STAGE_TIMINGS;
  if (!target) return undefined;
  const now = () => performance.now();
  const timer: StageTimer = { now, ms: {} };
  timeBootstraps(now);
  return {
    timer,
    flush(suite) {
      const b = bootstrapTime();
      const ms: Record<string, number> = { ...timer.ms, bootstrap: b.ms };
      for (const k of Object.keys(ms)) ms[k] = Math.round(ms[k]! * 1000) / 1000;
      const line = JSON.stringify({ suite, ms, bootstrap_intervals: b.intervals });
      if (target === '-') io.err(line);
      else appendFileSync(resolve(io.cwd, target), line + '\n');
      timer.ms = {};
      timeBootstraps(now);
    },
  };
}
