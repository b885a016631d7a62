/**
 * rgate's own cost per request for a module system (issue 38, item 5), beside a JSON-lines worker and
 * a per-query command, all three answering the same trivial retriever: one fixed rgate answer, no
 * work of its own, so each request's time is what rgate and the way it reaches the retriever cost
 * (for the module: a message to its worker thread and back; for the worker: a JSON line through a pipe
 * to another process and back; for the command: a process spawned). Concurrency 1, N requests after
 * one warm-up request (the thread's or worker's start is timed apart); rounds rotate the order so the
 * machine's drift spreads over the cases; medians are compared. Goal: the module's per-request time at
 * most a tenth of the worker's. Beside them, the same answer from a function in rgate's own thread
 * (the library's `function` system): the floor every adapter shares (reading the answer against its
 * contract, the observation), so module minus function is the thread's round trip.
 * Run: `npm run build && node dist/benchmarks/module-system.js` (MODULE_BENCH_ROUNDS, default 5).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConfig } from '../src/core/resolve-config.js';
import type { QueryRecord, SystemSpec } from '../src/documents/index.js';
import { createSystem, type RequestContext } from '../src/systems/index.js';
import { type BenchResult, isMain, median, samplesText, writeBenchResult } from './_common.js';

const N = 2000;
/** the per-query command spawns a process per request: fewer of them keep the round short */
const N_COMMAND = 200;
const PRINTF = existsSync('/usr/bin/printf') ? '/usr/bin/printf' : '/bin/printf';
const ANSWER =
  '{"selection_mode":"semantic","ranked":[{"id":"doc-1","source_path":"docs/a.md","score":1.5}]}';

const MODULE_SOURCE = `const answer: unknown = ${ANSWER};
export function search(_request: { query: string }): unknown {
  return answer;
}
`;
const WORKER_SOURCE = `import { createInterface } from 'node:readline';
const answer = process.argv[2];
createInterface({ input: process.stdin }).on('line', (line) => {
  const id = JSON.parse(line).id;
  process.stdout.write('{"id":' + JSON.stringify(id) + ',"response":' + answer + '}\\n');
});
`;

type Case = 'function' | 'module' | 'worker' | 'command';

const FIXED: unknown = JSON.parse(ANSWER);

function specFor(c: Case, dir: string): SystemSpec {
  if (c === 'function') return { type: 'function', fn: () => FIXED };
  if (c === 'module') return { type: 'module', path: join(dir, 'retriever.ts'), export: 'search' };
  if (c === 'worker')
    return {
      type: 'command',
      argv: [process.execPath, join(dir, 'worker.mjs'), ANSWER],
      worker: true,
      contract: 'rgate',
    };
  return { type: 'command', argv: [PRINTF, '%s', ANSWER], contract: 'rgate' };
}

/** Microseconds per request through the adapter, and its start (the first request) in ms. */
async function perRequest(c: Case, dir: string): Promise<{ us: number; startMs: number; ok: boolean }> {
  const config = resolveConfig({ mode: 'bm25', k: 10 });
  const adapter = createSystem(specFor(c, dir), { corpus: [], config, dir });
  const ctx: RequestContext = { replay: 1, config, fixtureDir: dir };
  const query = (i: number): QueryRecord => ({ query_id: `q${i}`, text: `query ${i}` });
  const n = c === 'command' ? N_COMMAND : N;
  const s0 = performance.now();
  await adapter.start();
  let ok = (await adapter.request(query(-1), ctx)).ok;
  const startMs = performance.now() - s0;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) ok = (await adapter.request(query(i), ctx)).ok && ok;
  const us = ((performance.now() - t0) * 1000) / n;
  await adapter.close();
  return { us, startMs, ok };
}

const r2 = (x: number): number => Math.round(x * 100) / 100;

export async function run(): Promise<BenchResult> {
  const rounds = Number(process.env['MODULE_BENCH_ROUNDS'] ?? 5);
  const cases: Case[] = ['function', 'module', 'worker', 'command'];
  const dir = mkdtempSync(join(tmpdir(), 'rgate-bench-module-'));
  writeFileSync(join(dir, 'retriever.ts'), MODULE_SOURCE);
  writeFileSync(join(dir, 'worker.mjs'), WORKER_SOURCE);
  const load0 = loadavg()[0] ?? 0;
  const us = new Map<Case, number[]>(cases.map((c) => [c, []]));
  const starts = new Map<Case, number[]>(cases.map((c) => [c, []]));
  let okAll = true;
  try {
    for (const c of cases) await perRequest(c, dir); // warm-up: JIT, the validator, page cache
    for (let r = 0; r < rounds; r++) {
      for (let i = 0; i < cases.length; i++) {
        const c = cases[(i + r) % cases.length]!;
        const t = await perRequest(c, dir);
        us.get(c)!.push(t.us);
        starts.get(c)!.push(t.startMs);
        okAll &&= t.ok;
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const med = (c: Case): number => median(us.get(c)!);
  const ratio = med('module') / med('worker');
  const figures: BenchResult['figures'] = {
    requests: N,
    command_requests: N_COMMAND,
    rounds,
    cpus: cpus().length,
    load_average_1m_start: r2(load0),
    load_average_1m_end: r2(loadavg()[0] ?? 0),
    all_observations_ok: okAll,
    ratio_module_to_worker: Math.round(ratio * 1000) / 1000,
    ratio_module_to_command: Math.round((med('module') / med('command')) * 1000) / 1000,
  };
  for (const c of cases) {
    figures[`${c}_us_per_request`] = r2(med(c));
    figures[`${c}_start_ms`] = r2(median(starts.get(c)!));
    figures[`samples_${c}_us`] = samplesText(us.get(c)!);
  }
  const goals = { ratio_module_to_worker: '<= 0.1', all_observations_ok: 'true' };
  const ok = okAll && ratio <= 0.1;
  let out = `module system, per request (median of ${rounds} rounds, ${cpus().length} cpus, load ${r2(load0)} -> ${r2(loadavg()[0] ?? 0)})\n`;
  for (const c of cases)
    out += `  ${c.padEnd(8)} ${String(r2(med(c))).padStart(10)} µs/request  (start ${r2(median(starts.get(c)!))} ms)\n`;
  out += `  module / worker ${r2(ratio)}x: goal <= 0.1x ${ratio <= 0.1 ? 'OK' : 'MISSED'}\n`;
  process.stdout.write(out);
  const result: BenchResult = { name: 'module-system', ok, figures, goals };
  writeBenchResult('module-system', result);
  return result;
}

if (isMain(import.meta.url)) {
  const r = await run();
  process.exitCode = r.ok ? 0 : 1;
}
