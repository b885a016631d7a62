import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/program.js';
import { SqliteRunStore } from '../src/store/index.js';
import { captureIo } from './helpers/cli-io.js';
import { compiledCli, REPO } from './helpers/dist.js';
import { until as waitUntil } from './helpers/clock.js';
import { writeTinySet } from './helpers/tiny-set.js';
import { pidAlive } from './systems-contract-suite.js';

/**
 * Ctrl-C and SIGTERM on the real CLI, with real signals, for every kind of system under test. Each
 * test signals only once the child demonstrably replays (its progress line, a SUT's marker file, a
 * request reaching the test's server), and waits on what the child does, never on a clock: a held
 * request is held until released or killed, so no outcome depends on how loaded the machine is.
 */
const tmp = mkdtempSync(join(tmpdir(), 'rgate-sigint-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const HELD = join(REPO, 'test', 'sut', 'runner', 'held.mjs');
/** a grace period no held request could outlast by accident: only a release or a second signal ends it */
const FOREVER = '600000';

/** Children a test started; killed afterwards if a failing test left them running. */
const started: ChildProcess[] = [];
const sutPids: number[] = [];
const servers: http.Server[] = [];
afterAll(() => {
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
});
afterEach(() => {
  for (const c of started.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const pid of sutPids.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone, as it should be
    }
  }
});

type SuiteSystem =
  { kind: 'command' | 'worker'; holdAt?: string; release?: boolean } | { kind: 'http'; url: string };

interface Project {
  dir: string;
  store: string;
  log(suite: string): string;
  marker(suite: string): string;
  release(suite: string): string;
}

const QUERIES = 8;
const REPLAYS = 3;
const PLANNED = QUERIES * REPLAYS;

/** A project of its own: one frozen set (8 queries, 2 docs), suites of 3 replays at concurrency 1. */
function project(name: string, suites: Record<string, SuiteSystem>): Project {
  const dir = join(tmp, name);
  writeTinySet(join(dir, 'fixtures', 'tiny'), { queries: QUERIES, frozenOn: '2026-11-26' });
  const p: Project = {
    dir,
    store: join(dir, '.rgate', 'history.sqlite'),
    log: (s) => join(dir, `${s}.log`),
    marker: (s) => join(dir, `${s}.held`),
    release: (s) => join(dir, `${s}.release`),
  };
  const specs = Object.fromEntries(
    Object.entries(suites).map(([suite, sys]) => {
      writeFileSync(p.log(suite), '');
      const system =
        sys.kind === 'http'
          ? { type: 'http', url: sys.url, contract: 'rgate' }
          : {
              type: 'command',
              argv:
                sys.kind === 'worker'
                  ? [process.execPath, HELD, '--worker']
                  : [process.execPath, HELD, '{query_id}', '{query}', '{replay}'],
              ...(sys.kind === 'worker' ? { worker: true } : {}),
              contract: 'rgate',
              env: {
                SUT_LOG: p.log(suite),
                ...(sys.holdAt ? { SUT_HOLD_AT: sys.holdAt, SUT_MARKER: p.marker(suite) } : {}),
                ...(sys.release ? { SUT_RELEASE: p.release(suite) } : {}),
              },
            };
      return [suite, { fixture: 'tiny', system, gate: null, replays: REPLAYS, concurrency: 1 }];
    }),
  );
  writeFileSync(join(dir, 'rgate.config.json'), JSON.stringify({ suites: specs }));
  return p;
}

interface Rgate {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** resolves once stderr matches, rejects if the child exits first */
  stderrMatches(re: RegExp): Promise<void>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function rgate(cwd: string, args: string[], env: Record<string, string> = {}): Rgate {
  const child = spawn(process.execPath, [compiledCli(), ...args], {
    cwd,
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let out = '';
  let err = '';
  const waiters: (() => void)[] = [];
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
    for (const w of [...waiters]) w();
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exit,
    stderrMatches: (re) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          if (!re.test(err)) return;
          waiters.splice(waiters.indexOf(check), 1);
          resolve();
        };
        waiters.push(check);
        check();
        void exit.then(() => {
          if (!re.test(err)) reject(new Error(`rgate exited before stderr matched ${re}:\n${err}`));
        });
      }),
  };
}

/** Resolves once `check` holds (polled); rejects if the child exits first. */
async function until(check: () => boolean, r: Rgate, what = 'the awaited event'): Promise<void> {
  let exited = false;
  void r.exit.then(() => (exited = true));
  while (!check()) {
    if (exited) throw new Error(`rgate exited before ${what}:\n${r.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const fileAppears = (file: string, r: Rgate): Promise<void> =>
  until(() => existsSync(file), r, `${file} appeared`);

/** An http SUT on 127.0.0.1 in this process; closed after the tests. */
async function serve(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/retrieve`;
}

/** The SUT processes the held request started (itself and a grandchild in its group). */
function heldPids(p: Project, suite: string): number[] {
  const { pids } = JSON.parse(readFileSync(p.marker(suite), 'utf8')) as { pids: number[] };
  sutPids.push(...pids);
  return pids;
}

/** Waits until every pid is gone (bounded by the test's timeout only), then says so. */
async function allGone(pids: number[]): Promise<boolean> {
  await waitUntil(
    () => pids.every((pid) => !pidAlive(pid)),
    () => `pids still alive: ${pids.filter(pidAlive).join(', ')}`,
  );
  return true;
}

const calls = (file: string): number => readFileSync(file, 'utf8').split('\n').filter(Boolean).length;

/** The run id from the resume hint; fails the test when the hint is missing. */
function resumeHint(stderr: string): string {
  const m = /rgate: to finish it: rgate run --resume (\S+)/.exec(stderr);
  expect(m, stderr).not.toBeNull();
  return m![1]!;
}

function storedRun(file: string, runId: string): { status: string; observations: number } {
  const store = new SqliteRunStore(file);
  try {
    return { status: store.getRun(runId)!.status, observations: store.getObservations(runId).length };
  } finally {
    store.close();
  }
}

/** The report without the sections that may differ between runs of the same inputs. */
function deterministicPart(file: string): string {
  const r = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  delete r.environment;
  delete r.timing;
  return JSON.stringify(r);
}

/**
 * What an interrupted run leaves: its report FAILs (NONE for a suite no gate judges: no verdict word
 * where no gate ran) with the reason first, the last line says interrupted.
 */
function expectInterruptedReport(dir: string, runId: string, r: Rgate, signal: string, code: number): void {
  const report = JSON.parse(readFileSync(join(dir, 'runs', runId, 'report.json'), 'utf8')) as {
    gate: { gate_id: string; verdict: string; reasons: string[]; overruled?: string };
  };
  expect(report.gate.verdict).toBe(report.gate.gate_id === 'measures-only' ? 'NONE' : 'FAIL');
  expect(report.gate.overruled).toBe('interrupted');
  expect(report.gate.reasons[0]).toMatch(/^run interrupted: \d+ of \d+ planned requests made/);
  // CI's JUnit view: the interruption first as an error, no rule judged (no "label pool" advice)
  const xml = readFileSync(join(dir, 'runs', runId, 'report.xml'), 'utf8');
  expect(xml).toMatch(/<testcase [^>]* name="run">\s*<error message="run interrupted: /);
  expect(xml).not.toContain('<failure');
  const last = r.stdout().trim().split('\n').at(-1)!;
  expect(last).toMatch(new RegExp(`^rgate: interrupted by ${signal}: .* -> exit ${code} \\(interrupted`));
  expect(r.stdout()).not.toMatch(/\bPASS\b/);
  expect(r.stderr()).not.toMatch(/\n\s+at /);
}

/**
 * A bound for failures only, above the default 60 s: each test runs rgate several times, which takes
 * 40 s on a 2-core machine under a load of 25; were a signal missed, cacm's 100 replays would run out.
 */
const SLOW = { timeout: 180_000 };

describe('Ctrl-C during rgate run', SLOW, () => {
  it('builtin engine (cacm, in-process and synchronous): stops, stores the run interrupted, exits 130', async () => {
    const out = join(tmp, 'cacm');
    // 100 replays: the run cannot end before the signal lands, however slow this machine
    const r = rgate(tmp, [
      'run',
      'cacm',
      '--replays',
      '100',
      '--config',
      join(REPO, 'rgate.config.json'),
      '--out-dir',
      out,
    ]);
    await r.stderrMatches(/cacm replay 2\/100: 64 requests/);
    r.child.kill('SIGINT');
    expect(await r.exit).toEqual({ code: 130, signal: null });
    expect(r.stderr()).toContain('rgate: SIGINT: stopping: no new requests');
    const runId = resumeHint(r.stderr());
    const stored = storedRun(join(out, 'history.sqlite'), runId);
    expect(stored.status).toBe('interrupted');
    expect(stored.observations).toBeGreaterThanOrEqual(64);
    expect(stored.observations).toBeLessThan(6400);
    expect(r.stderr()).toContain(`interrupted: ${stored.observations} of 6400 planned requests made`);
    expectInterruptedReport(out, runId, r, 'SIGINT', 130);
    // a bound for a failure only: were the signal missed, 100 replays would run to their end
  }, 180_000);

  it('per-query command: SIGTERM abandons the request in flight after the grace period, kills its process group, exits 143; --resume finishes the run as if never stopped', async () => {
    const p = project('command', { tiny: { kind: 'command', holdAt: '2:q3' } });
    const r = rgate(p.dir, ['run', 'tiny'], { RGATE_INTERRUPT_GRACE_MS: '0' });
    await fileAppears(p.marker('tiny'), r);
    const pids = heldPids(p, 'tiny');
    r.child.kill('SIGTERM');
    expect(await r.exit).toEqual({ code: 143, signal: null });
    expect(r.stderr()).toContain('rgate: SIGTERM: stopping');
    expect(await allGone(pids)).toBe(true);
    const runId = resumeHint(r.stderr());
    const stored = storedRun(p.store, runId);
    expect(stored.status).toBe('interrupted');
    // replay 1 was complete; the held request was abandoned, so it is not among the observations
    expect(stored.observations).toBeGreaterThanOrEqual(QUERIES);
    expect(stored.observations).toBeLessThan(2 * QUERIES);
    expectInterruptedReport(join(p.dir, '.rgate'), runId, r, 'SIGTERM', 143);

    const history = captureIo(p.dir);
    expect(await runCli(['history', 'tiny'], history)).toBe(0);
    expect(history.stdout.join('\n')).toContain(`${runId} (interrupted)`);

    // resumed: only the missing requests are made (the abandoned one among them)
    const before = calls(p.log('tiny'));
    const resumed = captureIo(p.dir);
    expect(await runCli(['run', '--resume', runId], resumed), resumed.stderr.join('\n')).toBe(0);
    expect(calls(p.log('tiny')) - before).toBe(PLANNED - stored.observations);
    expect(storedRun(p.store, runId)).toEqual({ status: 'complete', observations: PLANNED });
    // and its report is an uninterrupted run's
    const clean = captureIo(p.dir);
    expect(await runCli(['run', 'tiny', '--out-dir', 'clean'], clean)).toBe(0);
    const [cleanRun] = readdirSync(join(p.dir, 'clean', 'runs'));
    expect(deterministicPart(join(p.dir, '.rgate', 'runs', runId, 'report.json'))).toBe(
      deterministicPart(join(p.dir, 'clean', 'runs', cleanRun!, 'report.json')),
    );
  });

  it('JSON-lines worker: a request in flight that answers within the grace period is kept; the worker is closed; exit 130', async () => {
    const p = project('worker', { tiny: { kind: 'worker', holdAt: '1:q5', release: true } });
    const r = rgate(p.dir, ['run', 'tiny'], { RGATE_INTERRUPT_GRACE_MS: FOREVER });
    await fileAppears(p.marker('tiny'), r);
    const pids = heldPids(p, 'tiny');
    r.child.kill('SIGINT');
    await r.stderrMatches(/rgate: SIGINT: stopping/);
    writeFileSync(p.release('tiny'), '');
    expect(await r.exit).toEqual({ code: 130, signal: null });
    expect(await allGone(pids)).toBe(true);
    const runId = resumeHint(r.stderr());
    const store = new SqliteRunStore(p.store);
    const observations = store.getObservations(runId);
    expect(store.getRun(runId)!.status).toBe('interrupted');
    store.close();
    // the held request answered after the signal, within the grace period: it counts
    expect(observations.find((o) => o.replay === 1 && o.query_id === 'q5')?.ok).toBe(true);
    expect(observations.length).toBe(calls(p.log('tiny')));
    expect(observations.length).toBeLessThan(PLANNED);
    expectInterruptedReport(join(p.dir, '.rgate'), runId, r, 'SIGINT', 130);
  });

  it('http: the request in flight is aborted (the server sees its connection close), exit 130', async () => {
    const seen: string[] = [];
    let held = false;
    let heldClosed!: Promise<void>;
    const url = await serve((req, res) => {
      const id = `${String(req.headers['x-rgate-replay'])}:${String(req.headers['x-rgate-query-id'])}`;
      seen.push(id);
      req.resume();
      if (id === '1:q4') {
        held = true;
        heldClosed = new Promise((resolve) => res.on('close', () => resolve()));
        return; // never answered
      }
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ranked: [{ id: 'doc-a', source_path: 'docs/a.md', score: 1 }] }));
      });
    });
    const p = project('http', { tiny: { kind: 'http', url } });
    const r = rgate(p.dir, ['run', 'tiny'], { RGATE_INTERRUPT_GRACE_MS: '0' });
    await until(() => held, r);
    r.child.kill('SIGINT');
    await heldClosed;
    expect(await r.exit).toEqual({ code: 130, signal: null });
    const runId = resumeHint(r.stderr());
    const stored = storedRun(p.store, runId);
    expect(stored.status).toBe('interrupted');
    expect(stored.observations).toBe(seen.length - 1);
    expectInterruptedReport(join(p.dir, '.rgate'), runId, r, 'SIGINT', 130);
  });

  it('a second signal exits at once with the first one’s code: SUT process groups killed, run stored interrupted', async () => {
    const p = project('twice', { tiny: { kind: 'command', holdAt: '1:q2' } });
    // the held request never answers and the grace period never ends: only the second signal can stop it
    const r = rgate(p.dir, ['run', 'tiny'], { RGATE_INTERRUPT_GRACE_MS: FOREVER });
    await fileAppears(p.marker('tiny'), r);
    const pids = heldPids(p, 'tiny');
    r.child.kill('SIGINT');
    await r.stderrMatches(/rgate: SIGINT: stopping/);
    r.child.kill('SIGTERM');
    expect(await r.exit).toEqual({ code: 130, signal: null });
    expect(r.stderr()).toContain('rgate: SIGTERM again: exiting now');
    expect(await allGone(pids)).toBe(true);
    const store = new SqliteRunStore(p.store);
    const [run] = store.listRuns({ suite: 'tiny' });
    expect(run!.status).toBe('interrupted');
    expect(store.getObservations(run!.run_id).length).toBe(calls(p.log('tiny')) - 1);
    store.close();
    // and it resumes as any interrupted run does
    const resumed = captureIo(p.dir);
    expect(await runCli(['run', '--resume', run!.run_id], resumed), resumed.stderr.join('\n')).toBe(0);
    expect(storedRun(p.store, run!.run_id)).toEqual({ status: 'complete', observations: PLANNED });
  });

  it('a second signal while an http SUT never answers', async () => {
    let held = false;
    const url = await serve((req) => {
      held = true;
      req.resume(); // never answered
    });
    const p = project('http-twice', { tiny: { kind: 'http', url } });
    const r = rgate(p.dir, ['run', 'tiny'], { RGATE_INTERRUPT_GRACE_MS: FOREVER });
    await until(() => held, r);
    r.child.kill('SIGINT');
    await r.stderrMatches(/rgate: SIGINT: stopping/);
    r.child.kill('SIGINT');
    expect(await r.exit).toEqual({ code: 130, signal: null });
    expect(r.stderr()).toContain('rgate: SIGINT again: exiting now');
    const store = new SqliteRunStore(p.store);
    expect(store.listRuns({ suite: 'tiny' })[0]!.status).toBe('interrupted');
    store.close();
  });

  it('several suites: the one replaying is interrupted, those not started are not run, the summary says interrupted', async () => {
    const p = project('suites', {
      a: { kind: 'command' },
      b: { kind: 'command', holdAt: '2:q1' },
      c: { kind: 'command' },
    });
    const r = rgate(p.dir, ['run', 'a', 'b', 'c'], { RGATE_INTERRUPT_GRACE_MS: '0' });
    await fileAppears(p.marker('b'), r);
    const pids = heldPids(p, 'b');
    r.child.kill('SIGINT');
    expect(await r.exit).toEqual({ code: 130, signal: null });
    expect(await allGone(pids)).toBe(true);
    const store = new SqliteRunStore(p.store);
    expect(store.listRuns({ suite: 'a' }).map((x) => x.status)).toEqual(['complete']);
    expect(store.listRuns({ suite: 'b' }).map((x) => x.status)).toEqual(['interrupted']);
    expect(store.listRuns({ suite: 'c' })).toEqual([]);
    store.close();
    expect(calls(p.log('c'))).toBe(0);
    expect(r.stderr()).toContain('rgate: not run (interrupted before they started): c');
    expect(r.stdout().trim().split('\n').at(-1)).toBe(
      'rgate: interrupted by SIGINT: b interrupted, c not run, a complete -> exit 130 (interrupted: no verdict)',
    );
  });
});

describe('Ctrl-C during rgate compare', SLOW, () => {
  it('stops at the variant replaying, compares nothing, kills the SUT, exits 130', async () => {
    const p = project('compare', { tiny: { kind: 'command', holdAt: '1:q6' } });
    const r = rgate(p.dir, ['compare', 'tiny', '--set', 'k=5', '--set', 'k=6'], {
      RGATE_INTERRUPT_GRACE_MS: '0',
    });
    await fileAppears(p.marker('tiny'), r);
    const pids = heldPids(p, 'tiny');
    r.child.kill('SIGINT');
    expect(await r.exit).toEqual({ code: 130, signal: null });
    expect(await allGone(pids)).toBe(true);
    expect(r.stderr()).toContain('rgate: comparison interrupted at variant 1 of 2 ("k=5"): nothing compared');
    expect(existsSync(join(p.dir, '.rgate', 'compare'))).toBe(false);
  });
});
