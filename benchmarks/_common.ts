/** What every benchmark shares: its result shape, where results go, and "run when executed directly". */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface BenchResult {
  name: string;
  ok: boolean;
  figures: Record<string, number | string | boolean | null>;
  goals: Record<string, string>;
}

/** The repository root (benchmarks run from dist/benchmarks/). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Record a result as benchmarks/results/<file>.json, or in $BENCH_RESULTS_DIR when set: the test
 * that checks the docs' figures runs the benchmarks as the docs state them, without rewriting the
 * recorded results (their timings are one measurement, kept with the commit that made it).
 */
export function writeBenchResult(file: string, result: unknown): void {
  const outDir = process.env.BENCH_RESULTS_DIR ?? join(ROOT, 'benchmarks/results');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, `${file}.json`), JSON.stringify(result, null, 2) + '\n');
}

/** True when the module at `url` is the script node was started with (not imported by run-all). */
export function isMain(url: string): boolean {
  return Boolean(process.argv[1]) && url === pathToFileURL(process.argv[1]!).href;
}

/** What a command costs: CPU (user + sys, its children included) and wall clock, per run. */
export interface Cost {
  cpuMs: number;
  wallMs: number;
}

/**
 * Run `argv` `n` times back to back in one bash loop, output discarded, and return its cost per run:
 * CPU from bash's `times` (the children's user + sys, millisecond resolution over the whole loop,
 * where /usr/bin/time rounds each run to 10 ms), wall from here. CPU is what a loaded, shared machine
 * disturbs least; the benchmarks judge on it where their goal allows.
 */
export function costOf(
  argv: readonly string[],
  n: number,
  opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Cost {
  const loop = 'n=$1; shift; for ((i=0;i<n;i++)); do "$@" >/dev/null 2>&1 || exit 1; done; times';
  const t0 = process.hrtime.bigint();
  const p = spawnSync('bash', ['--norc', '--noprofile', '-c', loop, 'cost', String(n), ...argv], {
    encoding: 'utf8',
    cwd: opts.cwd,
    env: opts.env ?? process.env,
  });
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  if (p.status !== 0) throw new Error(`${argv.join(' ')} failed (exit ${p.status}): ${p.stderr}`);
  // `times`: the shell's own user/sys, then its children's, as "0m0.123s 0m0.045s"
  const children = p.stdout.trim().split('\n').pop() ?? '';
  const secs = [...children.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  if (secs.length !== 2) throw new Error(`cannot read bash times: ${JSON.stringify(p.stdout)}`);
  return { cpuMs: ((secs[0]! + secs[1]!) * 1000) / n, wallMs: wallMs / n };
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Every sample of a figure, rounded, as a results file records them ("231 240 236"). */
export function samplesText(xs: readonly number[]): string {
  return xs.map((x) => Math.round(x)).join(' ');
}

/** The 1-minute load average and the cpu count, as the results record them. */
export function machineLoad(): { load_average_1m: number; cpus: number } {
  return { load_average_1m: Number(loadavg()[0]!.toFixed(2)), cpus: cpus().length };
}

/** The command that produced a result, as the results record it (TREC_EVAL included when set). */
export function commandLine(name: string): string {
  const te = process.env.TREC_EVAL;
  return `${te ? `TREC_EVAL=${te} ` : ''}node dist/benchmarks/${name}.js`;
}
