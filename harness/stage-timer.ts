/**
 * Opt-in stage timings of a run (`RGATE_STAGE_TIMINGS`, read only by the CLI): milliseconds per
 * stage, summed when a stage runs more than once. Timings are diagnostics for benchmarks; they go to
 * the caller's file and never into a report, so a timed run reports the same bytes as an untimed one.
 */
export interface StageTimer {
  now: () => number;
  ms: Record<string, number>;
}

/** Run `f`, adding its duration to `timer.ms[stage]` when a timer is given. */
export function timeStage<T>(timer: StageTimer | undefined, stage: string, f: () => T): T {
  if (!timer) return f();
  const t0 = timer.now();
  try {
    return f();
  } finally {
    timer.ms[stage] = (timer.ms[stage] ?? 0) + timer.now() - t0;
  }
}

/** The async form of timeStage. */
export async function timeStageAsync<T>(
  timer: StageTimer | undefined,
  stage: string,
  f: () => Promise<T>,
): Promise<T> {
  if (!timer) return f();
  const t0 = timer.now();
  try {
    return await f();
  } finally {
    timer.ms[stage] = (timer.ms[stage] ?? 0) + timer.now() - t0;
  }
}
