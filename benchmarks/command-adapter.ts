/**
 * Command adapter overhead, both ways of running a trivial CLI side by side in one run: 200 requests
 * whose answer is a valid rgate-format JSON line, through rgate's command adapter (stdout capture,
 * JSON parse, contract validation, Observation), against the same 200 invocations of `/usr/bin/printf`
 * run back to back by a plain shell loop that captures each output (`x=$(printf ...)`), the reference.
 * Timed at concurrency 1 and 2:
 *   - per query (node's child_process.spawn of printf),
 *   - a JSON-lines worker (`worker: true`) answering the same JSON (a small node script written to a
 *     temporary folder), so no process is spawned per request.
 * The goals (1.05x the loop at concurrency 1, 0.6x at 2) are held by worker mode, the one rgate points
 * teams to for speed; per-query mode is reported without a goal. The Python and Perl spawn servers
 * were timed here too until this benchmark showed they lose to the worker (docs/DECISIONS.md,
 * "Systems"). Each round runs the shell loop, then every case in an order rotated per round, so drift
 * in the machine's load spreads over all cases; medians are compared. The workers' start (one warm-up
 * request per slot) is timed apart, not in the 200 calls.
 * Run: `npx tsc -p . && node dist/benchmarks/command-adapter.js` (COMMAND_BENCH_ROUNDS, default 5).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConfig } from '../src/core/resolve-config.js';
import type { CommandSystemSpec, QueryRecord } from '../src/documents/index.js';
import { createSystem, type CommandAdapter, type RequestContext } from '../src/systems/index.js';
import { type BenchResult, isMain, median, ROOT, samplesText, writeBenchResult } from './_common.js';

const root = ROOT;
const N = 200;
const PRINTF = existsSync('/usr/bin/printf') ? '/usr/bin/printf' : '/bin/printf';
const ANSWER =
  '{"selection_mode":"semantic","ranked":[{"id":"doc-1","source_path":"docs/a.md","score":1.5}]}';

// the worker does what printf does for the per-query modes: answer the same JSON, nothing else
const WORKER_SCRIPT = `import { createInterface } from 'node:readline';
const answer = process.argv[2];
createInterface({ input: process.stdin }).on('line', (line) => {
  const id = JSON.parse(line).id;
  process.stdout.write('{"id":' + JSON.stringify(id) + ',"response":' + answer + '}\\n');
});
`;

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

type Mode = 'node_spawn' | 'worker';

interface Timing {
  ms: number;
  startMs: number;
  ok: number;
}

function specFor(mode: Mode, workerFile: string): CommandSystemSpec {
  return mode === 'worker'
    ? { type: 'command', argv: [process.execPath, workerFile, ANSWER], contract: 'rgate', worker: true }
    : { type: 'command', argv: [PRINTF, '%s', ANSWER], contract: 'rgate' };
}

async function adapterRun(mode: Mode, concurrency: number, workerFile: string): Promise<Timing> {
  const config = resolveConfig({ mode: 'bm25', k: 10 });
  const adapter = createSystem(specFor(mode, workerFile), {
    corpus: [],
    config,
    dir: root,
  }) as CommandAdapter;
  const ctx: RequestContext = { replay: 1, config, fixtureDir: root };
  const query = (i: number): QueryRecord => ({ query_id: `q${i}`, text: `query ${i}` });
  // workers start lazily, so one request per slot starts them, timed apart from the 200 calls
  const s0 = performance.now();
  await adapter.start();
  if (mode === 'worker') {
    await Promise.all(Array.from({ length: concurrency }, (_, i) => adapter.request(query(-1 - i), ctx)));
  }
  const startMs = performance.now() - s0;
  let next = 0;
  let ok = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < N) {
        const o = await adapter.request(query(next++), ctx);
        if (o.ok) ok++;
      }
    }),
  );
  const ms = performance.now() - t0;
  await adapter.close();
  return { ms, startMs, ok };
}

const r2 = (x: number): number => Math.round(x * 100) / 100;

export async function run(): Promise<BenchResult> {
  const rounds = Number(process.env['COMMAND_BENCH_ROUNDS'] ?? 5);
  const modes: Mode[] = ['node_spawn', 'worker'];
  const cases = modes.flatMap((m) => [1, 2].map((c) => ({ mode: m, c, key: `${m}_c${c}` })));
  const tmp = mkdtempSync(join(tmpdir(), 'rgate-bench-worker-'));
  const workerFile = join(tmp, 'worker.mjs');
  writeFileSync(workerFile, WORKER_SCRIPT);
  const load0 = loadavg()[0] ?? 0;
  const ref: number[] = [];
  const refDevNull: number[] = [];
  const ms = new Map<string, number[]>(cases.map((k) => [k.key, []]));
  const starts = new Map<string, number[]>(cases.map((k) => [k.key, []]));
  let okAll = true;
  try {
    // warm-up: page cache, JIT, ajv validator, each interpreter's files
    await shellLoop(true);
    for (const m of modes) await adapterRun(m, 1, workerFile);
    for (let r = 0; r < rounds; r++) {
      ref.push(await shellLoop(true));
      for (let i = 0; i < cases.length; i++) {
        const k = cases[(i + r) % cases.length]!;
        const t = await adapterRun(k.mode, k.c, workerFile);
        ms.get(k.key)!.push(t.ms);
        starts.get(k.key)!.push(t.startMs);
        okAll &&= t.ok === N;
      }
      refDevNull.push(await shellLoop(false));
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const refMs = median(ref);
  const med = (key: string): number => median(ms.get(key) ?? []);
  const figures: BenchResult['figures'] = {
    invocations: N,
    rounds,
    cli: `${PRINTF} '%s' <rgate JSON>; worker: node script answering the same JSON per line`,
    cpus: cpus().length,
    load_average_1m_start: r2(load0),
    load_average_1m_end: r2(loadavg()[0] ?? 0),
    shell_loop_capture_ms: r2(refMs),
    shell_loop_devnull_ms: r2(median(refDevNull)),
  };
  for (const k of cases) {
    figures[`${k.key}_ms`] = r2(med(k.key));
    figures[`ratio_${k.key}`] = r2(med(k.key) / refMs);
  }
  const workerStartMs = median(starts.get('worker_c1') ?? []);
  figures['worker_start_ms'] = r2(workerStartMs);
  figures['all_observations_ok'] = okAll;
  figures['samples_shell_ms'] = samplesText(ref);
  for (const k of cases) figures[`samples_${k.key}_ms`] = samplesText(ms.get(k.key)!);

  const ratio1 = med('worker_c1') / refMs;
  const ratio2 = med('worker_c2') / refMs;
  const goals = { ratio_worker_c1: '<= 1.05', ratio_worker_c2: '<= 0.6', all_observations_ok: 'true' };
  const ok = okAll && ratio1 <= 1.05 && ratio2 <= 0.6;

  const row = (label: string, key: string): string =>
    `  ${label.padEnd(30)} ${String(r2(med(key))).padStart(8)} ms  ${r2(med(key) / refMs)
      .toFixed(2)
      .padStart(5)}x\n`;
  let out =
    `command adapter, ${N} calls (median of ${rounds} rounds, ${cpus().length} cpus, load ${r2(load0)} -> ${r2(loadavg()[0] ?? 0)})\n` +
    `  shell loop (x=$(printf ...))   ${String(r2(refMs)).padStart(8)} ms  1.00x   (>/dev/null variant ${r2(median(refDevNull))} ms)\n`;
  for (const k of cases) out += row(`${k.mode.replace('_', ' ')}, concurrency ${k.c}`, k.key);
  out +=
    `  (worker start, one request per slot, not in the times above: ${r2(workerStartMs)} ms)\n` +
    `  worker goals: concurrency 1 <= 1.05x ${ratio1 <= 1.05 ? 'OK' : 'MISSED'}, concurrency 2 <= 0.6x ${ratio2 <= 0.6 ? 'OK' : 'MISSED'}\n`;
  process.stdout.write(out);
  const result: BenchResult = { name: 'command-adapter', ok, figures, goals };
  writeBenchResult('command-adapter', result);
  return result;
}

if (isMain(import.meta.url)) {
  const r = await run();
  process.exitCode = r.ok ? 0 : 1;
}
