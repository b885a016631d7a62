/**
 * Command adapter overhead: 200 per-query invocations of a trivial CLI (`/usr/bin/printf` printing a
 * valid rgate-format JSON answer) through rgate's command adapter — spawn, stdout capture, JSON parse,
 * contract validation, Observation — against the same 200 invocations run back to back by a plain
 * shell loop that captures each output (`x=$(printf ...)`), measured side by side in one run.
 * Rounds alternate reference and adapter (ABAB...) and the median of each is compared, so load from
 * other processes hits both alike. Goals: concurrency 1 <= 1.05x the loop; concurrency 2 <= 0.6x.
 * Run: `npx tsc -p . && node dist/benchmarks/command-adapter.js` (COMMAND_BENCH_ROUNDS, default 5).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolveConfig } from '../src/core/config-defaults.js';
import type { QueryRecord } from '../src/documents/index.js';
import { createSystem, type CommandAdapter, type RequestContext } from '../src/systems/index.js';
import { isMain, ROOT, writeBenchResult, type BenchResult } from './_common.js';

const root = ROOT;
const N = 200;
const PRINTF = existsSync('/usr/bin/printf') ? '/usr/bin/printf' : '/bin/printf';
const ANSWER =
  '{"selection_mode":"semantic","ranked":[{"id":"doc-1","source_path":"docs/a.md","score":1.5}]}';

function shellLoop(capture: boolean): Promise<number> {
  const body = capture ? `x=$(${PRINTF} '%s' "$j")` : `${PRINTF} '%s' "$j" >/dev/null`;
  const script = `j='${ANSWER}'; for i in $(seq ${N}); do ${body}; done`;
  return new Promise((res, rej) => {
    const t0 = performance.now();
    const c = spawn('bash', ['--norc', '--noprofile', '-c', script], {
      stdio: 'ignore',
      env: { PATH: process.env['PATH'] ?? '' },
    });
    c.on('error', rej);
    c.on('close', (code) =>
      code === 0 ? res(performance.now() - t0) : rej(new Error(`shell loop exited ${code}`)),
    );
  });
}

async function adapterRun(
  concurrency: number,
  launcher: 'auto' | 'node' = 'auto',
): Promise<{ ms: number; startMs: number; ok: number; launcher: string }> {
  const config = resolveConfig({ mode: 'bm25', k: 10 });
  const adapter = createSystem(
    { type: 'command', argv: [PRINTF, '%s', ANSWER], contract: 'rgate', launcher },
    { corpus: [], config, dir: root },
  );
  const ctx: RequestContext = { replay: 1, config, fixtureDir: root };
  const queries: QueryRecord[] = Array.from({ length: N }, (_, i) => ({
    query_id: `q${i}`,
    text: `query ${i}`,
  }));
  // start() brings the spawn server up and waits for its ready line, once per system (as a run does
  // before its first request); it is timed on its own, outside the 200 invocations
  const s0 = performance.now();
  await adapter.start();
  const startMs = performance.now() - s0;
  let next = 0;
  let ok = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < queries.length) {
        const o = await adapter.request(queries[next++] as QueryRecord, ctx);
        if (o.ok) ok++;
      }
    }),
  );
  const ms = performance.now() - t0;
  await adapter.close();
  return { ms, startMs, ok, launcher: (adapter as CommandAdapter).launcher };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

const r2 = (x: number): number => Math.round(x * 100) / 100;

export async function run(): Promise<BenchResult> {
  const rounds = Number(process.env['COMMAND_BENCH_ROUNDS'] ?? 5);
  // warm-up: page cache, JIT, ajv validator
  await shellLoop(true);
  await adapterRun(1);
  const ref: number[] = [];
  const refDevNull: number[] = [];
  const c1: number[] = [];
  const c2: number[] = [];
  const c1Node: number[] = [];
  const starts: number[] = [];
  let okAll = true;
  let launcher = '';
  for (let r = 0; r < rounds; r++) {
    ref.push(await shellLoop(true));
    const a = await adapterRun(1);
    c1.push(a.ms);
    starts.push(a.startMs);
    const b = await adapterRun(2);
    c2.push(b.ms);
    refDevNull.push(await shellLoop(false));
    const n = await adapterRun(1, 'node');
    c1Node.push(n.ms);
    launcher = a.launcher;
    okAll &&= a.ok === N && b.ok === N && n.ok === N;
  }
  const refMs = median(ref);
  const c1Ms = median(c1);
  const c2Ms = median(c2);
  const ratio1 = c1Ms / refMs;
  const ratio2 = c2Ms / refMs;
  const figures: BenchResult['figures'] = {
    invocations: N,
    rounds,
    cli: `${PRINTF} '%s' <rgate JSON>`,
    cpus: cpus().length,
    shell_loop_capture_ms: r2(refMs),
    shell_loop_devnull_ms: r2(median(refDevNull)),
    adapter_c1_ms: r2(c1Ms),
    adapter_c2_ms: r2(c2Ms),
    launcher,
    launcher_start_ms: r2(median(starts)),
    adapter_c1_node_spawn_ms: r2(median(c1Node)),
    ratio_c1_node_spawn: r2(median(c1Node) / refMs),
    load_average_1m: r2(loadavg()[0] ?? 0),
    adapter_c1_per_call_ms: r2(c1Ms / N),
    shell_per_call_ms: r2(refMs / N),
    ratio_c1: r2(ratio1),
    ratio_c2: r2(ratio2),
    all_observations_ok: okAll,
    samples_shell_ms: ref.map((x) => Math.round(x)).join(' '),
    samples_c1_ms: c1.map((x) => Math.round(x)).join(' '),
    samples_c2_ms: c2.map((x) => Math.round(x)).join(' '),
  };
  const goals = { ratio_c1: '<= 1.05', ratio_c2: '<= 0.6', all_observations_ok: 'true' };
  const ok = okAll && ratio1 <= 1.05 && ratio2 <= 0.6;
  process.stdout.write(
    `command adapter, ${N} per-query invocations of printf (median of ${rounds} alternating rounds, ${cpus().length} cpus)\n` +
      `  shell loop (x=$(printf ...))  ${r2(refMs)} ms   (>/dev/null variant ${r2(median(refDevNull))} ms)\n` +
      `  rgate concurrency 1           ${r2(c1Ms)} ms -> ${r2(ratio1)}x (goal <= 1.05) ${ratio1 <= 1.05 ? 'OK' : 'MISSED'}\n` +
      `  rgate concurrency 2           ${r2(c2Ms)} ms -> ${r2(ratio2)}x (goal <= 0.6) ${ratio2 <= 0.6 ? 'OK' : 'MISSED'}\n` +
      `  (launcher ${launcher}, started once per system in ${r2(median(starts))} ms before the first request, not in the times above;\n` +
      `   node child_process.spawn at concurrency 1: ${r2(median(c1Node))} ms -> ${r2(median(c1Node) / refMs)}x; load average ${r2(loadavg()[0] ?? 0)})\n`,
  );
  const result: BenchResult = { name: 'command-adapter', ok, figures, goals };
  writeBenchResult('command-adapter', result);
  return result;
}

if (isMain(import.meta.url)) {
  const r = await run();
  process.exitCode = r.ok ? 0 : 1;
}
