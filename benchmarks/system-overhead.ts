/**
 * What rgate adds to each request, for each kind of system, against calling the same trivial
 * retriever directly (issue 36, item 5). The retriever answers one fixed rgate-format JSON record and
 * does nothing else, so whatever separates the two sides is the caller's own cost:
 *   - command (per query): a bash script printing the answer, through the command adapter (node's
 *     spawn, stdout capture, parse, contract check, Observation) against a bash loop running the same
 *     script with the same arguments and capturing each answer (`x=$(sut.sh id query)`);
 *   - JSON-lines worker: a node script answering one line per line, through the adapter in worker
 *     mode against this process writing the same request lines to the same script and reading each
 *     answer line (JSON.parse of it) before the next;
 *   - HTTP: a node server in a process of its own, through the http adapter against the same POSTs
 *     (the same RetrievalQuery body and headers) from node's http client on a keep-alive agent,
 *     each response body read and parsed.
 * For the per-query command a third side, node's own `spawn` of the script with the adapter's options
 * and nothing else, says how much of rgate's overhead is node's fork (recorded, no goal).
 * One request in flight at a time. Each round runs every case in an order rotated per round, so
 * drift in the machine's load spreads over all of them; medians are compared. The figure that
 * matters is the overhead per request: rgate's median minus the direct median, divided by the number
 * of requests, in CPU (judged: a shared machine disturbs it least) and in wall time (recorded). CPU
 * is the caller's: this process's own and, for the per-query command, that of the children it
 * reaped (/proc/self/stat) against the bash loop's (`times`), the retriever's included on both
 * sides; a worker or server runs in its own process and is the same on both sides. Processes are
 * started, and one warm-up request sent, before a round's clock starts: the fixed cost of a whole
 * `rgate run` is fixed-costs.ts's.
 * Run: `npm run build && node dist/benchmarks/system-overhead.js` (SYSTEM_BENCH_ROUNDS, default 5).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { resolveConfig } from '../src/core/resolve-config.js';
import type { QueryRecord, SystemSpec } from '../src/documents/index.js';
import { createSystem, type RequestContext, type SystemAdapter } from '../src/systems/index.js';
import { workerRequestBody } from '../src/systems/command-adapter.js';
import { retrievalQuery } from '../src/systems/http-adapter.js';
import {
  commandLine,
  isMain,
  machineLoad,
  median,
  ROOT,
  samplesText,
  writeBenchResult,
  type BenchResult,
} from './_common.js';

const ANSWER =
  '{"selection_mode":"semantic","ranked":[{"id":"doc-1","source_path":"docs/a.md","score":1.5}]}';

/** The per-query retriever: the query id and text as arguments, the answer on stdout. */
const SUT_SH = `#!/bin/bash
printf '%s' '${ANSWER}'
`;

/** The worker: one answer line per request line, the request's id echoed. */
const WORKER_JS = `import { createInterface } from 'node:readline';
const answer = process.argv[2];
createInterface({ input: process.stdin }).on('line', (line) => {
  const id = JSON.parse(line).id;
  process.stdout.write('{"id":' + JSON.stringify(id) + ',"response":' + answer + '}\\n');
});
`;

/** The HTTP retriever: every POST answered with the record, the port printed once listening. */
const SERVER_JS = `import http from 'node:http';
const answer = process.argv[2];
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    JSON.parse(Buffer.concat(chunks).toString('utf8'));
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
    res.end(answer);
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
`;

type Kind = 'command' | 'worker' | 'http';

/**
 * The budget per request, in CPU (what a shared machine disturbs least; wall is recorded beside it):
 * a tenth of a millisecond for the two kinds that spawn nothing per request (2% of a 5 ms
 * retriever); for a per-query command, 2 ms, about node's fork of itself here (bash forks for much
 * less), which rgate cannot avoid while libuv forks on Linux.
 */
const GOALS_MS: Record<Kind, number> = { command: 2, worker: 0.1, http: 0.1 };

interface Side {
  /** one round: `n` requests one after another; wall and this process's CPU, in ms */
  round(n: number): Promise<{ wallMs: number; cpuMs: number; ok: number }>;
  close(): Promise<void>;
}

const config = resolveConfig({ mode: 'bm25', k: 10 });
const ctx: RequestContext = { replay: 1, config, fixtureDir: ROOT };
const query = (i: number): QueryRecord => ({ query_id: `q${i}`, text: `where is topic${i}` });

/**
 * CPU (user + sys, ms) of the children this process has reaped, from /proc/self/stat (cutime and
 * cstime, in clock ticks of 10 ms: summed over hundreds of children they sample well); 0 elsewhere.
 */
function reapedChildrenCpuMs(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[13]) + Number(f[14])) * 10;
  } catch {
    return 0;
  }
}

/** `n` requests one after another: wall, and the CPU of this process and of the children it reaped. */
async function timed(n: number, one: (i: number) => Promise<boolean>) {
  const k0 = reapedChildrenCpuMs();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let ok = 0;
  for (let i = 0; i < n; i++) if (await one(i)) ok++;
  const wallMs = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { wallMs, cpuMs: (c.user + c.system) / 1000 + reapedChildrenCpuMs() - k0, ok };
}

async function viaRgate(spec: SystemSpec): Promise<Side> {
  const adapter: SystemAdapter = createSystem(spec, { corpus: [], config, dir: ROOT });
  await adapter.start();
  // a worker starts on its first request: started before the clock, as the HTTP connection is
  await adapter.request(query(-1), ctx);
  return {
    round: (n) => timed(n, async (i) => (await adapter.request(query(i), ctx)).ok),
    close: () => adapter.close(),
  };
}

/** A bash loop capturing the script's answer `n` times: bash's fork, as a team's own loop pays it. */
function shellLoop(sut: string): Side {
  return {
    round: (n) =>
      new Promise((res, rej) => {
        // `times` last: the shell's own CPU, then its children's (_common.ts costOf reads it so too)
        const script = `for ((i=0;i<${n};i++)); do x=$(${JSON.stringify(sut)} "q$i" "where is topic$i"); done; times`;
        const t0 = performance.now();
        const c = spawn('bash', ['--norc', '--noprofile', '-c', script], {
          stdio: ['ignore', 'pipe', 'ignore'],
        });
        let out = '';
        c.stdout.on('data', (b: Buffer) => (out += b.toString('utf8')));
        c.on('error', rej);
        c.on('close', (code) => {
          const secs = [...out.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
          if (code !== 0 || secs.length !== 4) rej(new Error(`shell loop exited ${code}: ${out}`));
          else res({ wallMs: performance.now() - t0, cpuMs: secs.reduce((a, b) => a + b, 0) * 1000, ok: n });
        });
      }),
    close: async () => {},
  };
}

/**
 * node's own `spawn` of the script with the command adapter's options (no shell, its own process
 * group, stdout and stderr piped, stdout collected), nothing else: what any node caller pays per
 * child, so rgate's side minus this is what rgate itself adds around the spawn.
 */
function nodeSpawnLoop(sut: string, cwd: string): Side {
  const one = (i: number): Promise<boolean> =>
    new Promise((res) => {
      const c = spawn(sut, [`q${i}`, `where is topic${i}`], {
        cwd,
        env: process.env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      let out = '';
      c.stdout.on('data', (b: Buffer) => (out += b.toString('utf8')));
      c.stderr.resume();
      c.on('error', () => res(false));
      c.on('close', (code) => res(code === 0 && out === ANSWER));
    });
  return { round: (n) => timed(n, one), close: async () => {} };
}

/** The worker script driven by hand: the same request lines, one answer line awaited per request. */
async function workerDirect(workerFile: string): Promise<Side> {
  const child = spawn(process.execPath, [workerFile, ANSWER], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  let waiting: ((line: string) => void) | undefined;
  lines.on('line', (l) => waiting?.(l));
  const one = (i: number): Promise<boolean> =>
    new Promise((res) => {
      waiting = (l) => res((JSON.parse(l) as { id: number }).id === i);
      child.stdin!.write(JSON.stringify({ id: i, ...workerRequestBody(query(i), ctx) }) + '\n');
    });
  await one(-1);
  return { round: (n) => timed(n, one), close: () => stop(child) };
}

/** Plain node http POSTs on a keep-alive agent: what a team's own client does. */
async function httpDirect(url: string): Promise<Side> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const spec = { type: 'http' as const, url };
  const one = (i: number): Promise<boolean> =>
    new Promise((res, rej) => {
      const q = query(i);
      const body = JSON.stringify(retrievalQuery(spec, q, ctx));
      const req = http.request(url, {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'content-length': Buffer.byteLength(body),
          'x-rgate-query-id': encodeURIComponent(q.query_id),
          'x-rgate-replay': '1',
        },
      });
      req.on('error', rej);
      req.on('response', (r) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => {
          const payload = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { ranked?: unknown[] };
          res(r.statusCode === 200 && Array.isArray(payload.ranked));
        });
      });
      req.end(body);
    });
  await one(-1);
  return { round: (n) => timed(n, one), close: async () => agent.destroy() };
}

function startServer(serverFile: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [serverFile, ANSWER], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((res, rej) => {
    child.on('error', rej);
    createInterface({ input: child.stdout! }).once('line', (port) =>
      res({ child, url: `http://127.0.0.1:${port.trim()}/retrieve` }),
    );
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((res) => {
    child.once('exit', () => res());
    child.kill();
  });
}

type Samples = Map<string, number[]>;

/** One kind's figures and goal, rgate's side against the direct one; its summary line. */
function pairFigures(
  kind: Kind,
  n: number,
  wall: Samples,
  cpu: Samples,
  figures: BenchResult['figures'],
  goals: Record<string, string>,
): { ok: boolean; line: string } {
  const ours = median(wall.get(`${kind}_rgate`)!);
  const ref = median(wall.get(`${kind}_direct`)!);
  const oursCpu = median(cpu.get(`${kind}_rgate`)!);
  const refCpu = median(cpu.get(`${kind}_direct`)!);
  const perReq = (ours - ref) / n;
  const perReqCpu = (oursCpu - refCpu) / n;
  goals[`${kind}_overhead_cpu_ms_per_request`] = `<= ${GOALS_MS[kind]}`;
  figures[`${kind}_requests`] = n;
  figures[`${kind}_rgate_cpu_ms_per_request`] = r3(oursCpu / n);
  figures[`${kind}_direct_cpu_ms_per_request`] = r3(refCpu / n);
  figures[`${kind}_overhead_cpu_ms_per_request`] = r3(perReqCpu);
  figures[`ratio_${kind}_cpu`] = r3(oursCpu / refCpu);
  figures[`${kind}_rgate_wall_ms_per_request`] = r3(ours / n);
  figures[`${kind}_direct_wall_ms_per_request`] = r3(ref / n);
  figures[`${kind}_overhead_wall_ms_per_request`] = r3(perReq);
  figures[`ratio_${kind}_wall`] = r3(ours / ref);
  for (const side of ['rgate', 'direct']) {
    for (const [unit, m] of [
      ['wall', wall],
      ['cpu', cpu],
    ] as const) {
      figures[`samples_${kind}_${side}_${unit}_ms`] = samplesText(m.get(`${kind}_${side}`)!);
    }
  }
  return {
    ok: perReqCpu <= GOALS_MS[kind],
    line:
      `${kind.padEnd(7)} ${String(n).padStart(5)} requests: CPU ${r3(oursCpu / n)} / ${r3(refCpu / n)} ms a request, ` +
      `+${r3(perReqCpu)} ms (goal <= ${GOALS_MS[kind]}), ${r3(oursCpu / refCpu)}x; ` +
      `wall ${r3(ours / n)} / ${r3(ref / n)} ms, +${r3(perReq)} ms, ${r3(ours / ref)}x`,
  };
}

/** The per-query command's rgate side against node's bare spawn (no goal: an attribution). */
function nodeSpawnFigures(n: number, cpu: Samples, figures: BenchResult['figures']): string {
  const node = median(cpu.get('command_node_spawn')!);
  const ours = median(cpu.get('command_rgate')!);
  figures.command_node_spawn_cpu_ms_per_request = r3(node / n);
  figures.command_rgate_beyond_node_spawn_cpu_ms_per_request = r3((ours - node) / n);
  figures.samples_command_node_spawn_cpu_ms = samplesText(cpu.get('command_node_spawn')!);
  return (
    `command: node's own spawn of the script ${r3(node / n)} ms of CPU a request; ` +
    `rgate beyond it ${r3((ours - node) / n)} ms`
  );
}

const r3 = (x: number): number => Math.round(x * 1000) / 1000;

export async function run(): Promise<BenchResult> {
  const rounds = Number(process.env.SYSTEM_BENCH_ROUNDS ?? 5);
  const sizes: Record<Kind, number> = { command: 200, worker: 2000, http: 2000 };
  const tmp = mkdtempSync(join(tmpdir(), 'rgate-bench-overhead-'));
  const load0 = machineLoad();
  const figures: BenchResult['figures'] = {
    rounds,
    cpus: load0.cpus,
    load_average_1m_start: load0.load_average_1m,
    node: process.version,
    command: commandLine('system-overhead'),
    answer: ANSWER,
  };
  const goals: Record<string, string> = {};
  let ok = true;
  const lines: string[] = [];
  const sut = join(tmp, 'sut.sh');
  writeFileSync(sut, SUT_SH);
  chmodSync(sut, 0o755);
  const workerFile = join(tmp, 'worker.mjs');
  writeFileSync(workerFile, WORKER_JS);
  const serverFile = join(tmp, 'server.mjs');
  writeFileSync(serverFile, SERVER_JS);
  const server = await startServer(serverFile);
  const pairs: { kind: Kind; rgate: Side; direct: Side }[] = [];
  try {
    pairs.push({
      kind: 'command',
      rgate: await viaRgate({ type: 'command', argv: [sut, '{query_id}', '{query}'], contract: 'rgate' }),
      direct: shellLoop(sut),
    });
    pairs.push({
      kind: 'worker',
      rgate: await viaRgate({
        type: 'command',
        argv: [process.execPath, workerFile, ANSWER],
        contract: 'rgate',
        worker: true,
      }),
      direct: await workerDirect(workerFile),
    });
    pairs.push({
      kind: 'http',
      rgate: await viaRgate({ type: 'http', url: server.url, contract: 'rgate' }),
      direct: await httpDirect(server.url),
    });
    const steps = [
      ...pairs.flatMap((p) => [
        { key: `${p.kind}_rgate`, side: p.rgate, n: sizes[p.kind] },
        { key: `${p.kind}_direct`, side: p.direct, n: sizes[p.kind] },
      ]),
      { key: 'command_node_spawn', side: nodeSpawnLoop(sut, tmp), n: sizes.command },
    ];
    const wall = new Map<string, number[]>(steps.map((s) => [s.key, []]));
    const cpu = new Map<string, number[]>(steps.map((s) => [s.key, []]));
    // warm-up: JIT, the validator, the page cache
    for (const s of steps) await s.side.round(Math.min(s.n, 100));
    let allOk = true;
    for (let r = 0; r < rounds; r++) {
      for (let i = 0; i < steps.length; i++) {
        const s = steps[(i + r) % steps.length]!;
        const t = await s.side.round(s.n);
        wall.get(s.key)!.push(t.wallMs);
        cpu.get(s.key)!.push(t.cpuMs);
        allOk &&= t.ok === s.n;
      }
    }
    figures.all_requests_ok = allOk;
    goals.all_requests_ok = 'true';
    ok &&= allOk;
    for (const p of pairs) {
      const r = pairFigures(p.kind, sizes[p.kind], wall, cpu, figures, goals);
      ok &&= r.ok;
      lines.push(r.line);
    }
    lines.push(nodeSpawnFigures(sizes.command, cpu, figures));
  } finally {
    for (const p of pairs) {
      await p.rgate.close();
      await p.direct.close();
    }
    await stop(server.child);
    rmSync(tmp, { recursive: true, force: true });
  }
  figures.load_average_1m_end = machineLoad().load_average_1m;
  const result: BenchResult = { name: 'system-overhead', ok, figures, goals };
  process.stdout.write(
    `rgate's overhead per request, against calling the system directly (median of ${rounds} rounds, ` +
      `${figures.cpus} cpus, load ${figures.load_average_1m_start} -> ${figures.load_average_1m_end})\n` +
      lines.map((l) => `  ${l}\n`).join(''),
  );
  writeBenchResult('system-overhead', result);
  return result;
}

if (isMain(import.meta.url)) {
  const r = await run();
  process.exitCode = r.ok ? 0 : 1;
}
