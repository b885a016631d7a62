// The adapter contract suite run against every adapter: builtin (three modes), command per-query,
// command worker, http, module (a TypeScript SUT in worker threads). Real subprocesses (test/sut/*.mjs) and a real HTTP server on 127.0.0.1.
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CorpusRecord, QueryRecord } from '../src/documents/index.js';
import { SYSTEM_DEFAULTS } from '../src/core/defaults.js';
import { resolveConfig } from '../src/core/resolve-config.js';
import {
  createSystem,
  type CommandAdapter,
  type HttpAdapter,
  type ModuleAdapter,
} from '../src/systems/index.js';
import { startHttpSut } from './sut/http-sut.js';
import { search } from './sut/module/behaviour.js';
import { until } from './helpers/clock.js';
import {
  adapterContractSuite,
  misbehaviourSuite,
  pidAlive,
  recordedPids,
  type Subject,
  type SubjectFactory,
} from './systems-contract-suite.js';

const SUT = resolve(import.meta.dirname, 'sut');
// rgate's own default: a normal answer never nears it, however loaded the machine, and no test waits
// it out (the hang tests time out on a fake clock)
const TIMEOUT_MS = SYSTEM_DEFAULTS.timeout_ms;

const queries: QueryRecord[] = ['alpha', 'beta gamma', 'delta', 'epsilon', 'zeta', 'eta'].map((t, i) => ({
  query_id: `q${i + 1}`,
  text: t,
}));

function checkSutAnswer(
  q: QueryRecord,
  o: { ranked: Array<{ id: string; source_path: string }>; selected_id?: string },
) {
  expect(o.ranked.map((r) => r.id)).toEqual([`hit-${q.query_id}`, 'other']);
  expect(o.ranked[0]?.source_path).toBe(q.text);
  expect(o.selected_id).toBe(`hit-${q.query_id}`);
}

function commandSubject(worker: boolean): SubjectFactory {
  return async ({ timeoutMs = TIMEOUT_MS } = {}) => {
    const pidDir = mkdtempSync(join(tmpdir(), 'rgate-sut-pids-'));
    const config = resolveConfig({ mode: 'bm25', k: 10 });
    const argv = worker
      ? [process.execPath, join(SUT, 'worker.mjs'), '--k={k}', '--corpus={corpus_dir}']
      : [process.execPath, join(SUT, 'cli.mjs'), '{query_id}', '{query}'];
    const adapter = createSystem(
      {
        type: 'command',
        argv,
        worker,
        contract: 'rgate',
        timeout_ms: timeoutMs,
        max_output_bytes: 64 * 1024,
        env: { SUT_PID_DIR: pidDir, SUT_HOLDING_DIR: pidDir },
      },
      { corpus: [], config, dir: pidDir },
    ) as CommandAdapter;
    return {
      adapter,
      config,
      fixtureDir: pidDir,
      misbehaves: true,
      stateful: worker,
      crashKind: 'crash',
      crashStderr: worker ? 'fatal error in handler' : 'segfault-like failure',
      queries,
      checkAnswer: checkSutAnswer,
      sutPids: () => recordedPids(pidDir),
      holds: (queryId) =>
        readdirSync(pidDir).some(
          (f) => f.startsWith(`${encodeURIComponent(queryId)}.`) && f.endsWith('.holding'),
        ),
      async leftovers() {
        const left: string[] = adapter.workerPids().map((p) => `worker ${p} still tracked`);
        // SUT processes (recorded by the SUT itself) and rgate's own helpers (workers)
        const pids = (): number[] => [...recordedPids(pidDir), ...adapter.helperPids()];
        if (worker) expect(adapter.helperPids().length).toBeGreaterThan(0);
        await until(
          () => pids().every((p) => !pidAlive(p)),
          () => `SUT processes to end: ${pids().filter(pidAlive).join(', ')} alive`,
        );
        return left;
      },
      async dispose() {
        rmSync(pidDir, { recursive: true, force: true });
      },
    };
  };
}

const httpSubject: SubjectFactory = async ({ timeoutMs = TIMEOUT_MS } = {}) => {
  const sut = await startHttpSut();
  const config = resolveConfig({ mode: 'bm25', k: 10, budgets: { tokens: 1200 } });
  const adapter = createSystem(
    {
      type: 'http',
      url: sut.url,
      contract: 'rgate',
      timeout_ms: timeoutMs,
      max_output_bytes: 64 * 1024,
      filters: { repo: 'rgate' },
    },
    { corpus: [], config, dir: '.' },
  ) as HttpAdapter;
  return {
    adapter,
    config,
    fixtureDir: '.',
    misbehaves: true,
    stateful: false,
    crashKind: 'connection_failed',
    queries,
    checkAnswer(q, o) {
      checkSutAnswer(q, o);
      const sent = sut.requests.find((r) => r.headers['x-rgate-query-id'] === q.query_id);
      // the body is exactly seed 004's RetrievalQuery
      expect(sent?.body).toEqual({
        query: q.text,
        top_k: 10,
        filters: { repo: 'rgate' },
        overlay_policy: 'include',
        transport: 'direct',
        budgets: { tokens: 1200, latency_ms: timeoutMs },
      });
    },
    holds: (queryId) => sut.holding.includes(queryId),
    async leftovers() {
      await until(
        async () => (await sut.connections()) === 0,
        () => 'the server to have no connection open',
      );
      return [];
    },
    async dispose() {
      await sut.close();
    },
  };
};

/** The module SUT (test/sut/module/behaviour.ts) in worker threads; it records what it holds in a temp folder. */
const moduleSubject: SubjectFactory = async ({ timeoutMs = TIMEOUT_MS } = {}) => {
  const holdDir = mkdtempSync(join(tmpdir(), 'rgate-sut-hold-'));
  const config = resolveConfig({ mode: 'bm25', k: 10, system: { params: { holding_dir: holdDir } } });
  const adapter = createSystem(
    { type: 'module', path: 'test/sut/module/behaviour.ts', export: 'search', timeout_ms: timeoutMs },
    { corpus: [], config, dir: holdDir, baseDir: resolve(import.meta.dirname, '..') },
  ) as ModuleAdapter;
  return {
    adapter,
    config,
    fixtureDir: holdDir,
    misbehaves: true,
    stateful: true,
    crashKind: 'crash',
    // an answer is a value, not bytes: a string is an answer that breaks the contract, and no cap applies
    kindOf: { garbage: 'contract_invalid', huge: null },
    queries,
    checkAnswer: checkSutAnswer,
    holds: (queryId) => readdirSync(holdDir).includes(`${encodeURIComponent(queryId)}.holding`),
    async leftovers() {
      await until(
        () => adapter.threads().running === 0,
        () => `worker threads to exit: ${adapter.threads().running} running`,
      );
      const { tracked } = adapter.threads();
      return tracked > 0 ? [`${tracked} worker threads still tracked`] : [];
    },
    async dispose() {
      rmSync(holdDir, { recursive: true, force: true });
    },
  };
};

/** The same SUT as a function the caller holds (library): it runs in this thread, so only answers are tested. */
const functionSubject: SubjectFactory = async () => {
  const config = resolveConfig({ mode: 'bm25', k: 10 });
  const adapter = createSystem({ type: 'function', fn: search }, { corpus: [], config, dir: '.' });
  return {
    adapter,
    config,
    fixtureDir: '.',
    misbehaves: false,
    // the function's state is the caller's: restart() has no fresh copy to make
    stateful: false,
    crashKind: 'exception',
    queries,
    checkAnswer: checkSutAnswer,
    leftovers: async () => [],
    dispose: async () => undefined,
  };
};

const corpus: CorpusRecord[] = [
  {
    id: 'd1',
    source_path: 'docs/alpha.md',
    text: 'alpha release checklist and governance',
    kind: 'canonical',
    captured_at: '2026-01-01T00:00:00Z',
    evidence: 0.9,
    outcome: 0.8,
  },
  {
    id: 'd2',
    source_path: 'docs/beta.md',
    text: 'beta gamma rollout decisions',
    kind: 'canonical',
    captured_at: '2026-01-02T00:00:00Z',
    evidence: 0.5,
    outcome: 0.5,
  },
  {
    id: 'd3',
    source_path: 'mem/delta.md',
    text: 'delta epsilon memory record about zeta and eta',
    kind: 'tactical',
    captured_at: '2026-01-03T00:00:00Z',
    key: 'delta-key',
    evidence: 0.4,
    outcome: 0.6,
  },
  {
    id: 'd4',
    source_path: 'mem/zeta.md',
    text: 'zeta eta alpha notes',
    kind: 'tactical',
    captured_at: '2026-01-04T00:00:00Z',
    path_priority: 1,
  },
];

function builtinSubject(mode: 'bm25' | 'context-load' | 'semantic'): () => Promise<Subject> {
  return async () => {
    const config = resolveConfig({ mode, k: 10, as_of: '2026-02-01T00:00:00Z' });
    const adapter = createSystem({ type: 'builtin', mode }, { corpus, config, dir: '.' });
    return {
      adapter,
      config,
      fixtureDir: '.',
      misbehaves: false,
      stateful: false,
      crashKind: 'engine_error',
      queries,
      checkAnswer(q, o) {
        expect(o.ok).toBe(true);
        const paths = new Map(corpus.map((r) => [r.id, r.source_path]));
        for (const r of o.ranked) expect(paths.get(r.id)).toBe(r.source_path);
        if (mode !== 'semantic') {
          // lexical modes: the top item contains a query term
          const top = corpus.find((r) => r.id === o.ranked[0]?.id);
          expect(q.text.split(' ').some((t) => top?.text.includes(t))).toBe(true);
        } else {
          expect(o.selection_mode).toBeDefined();
        }
      },
      leftovers: async () => [],
      dispose: async () => undefined,
    };
  };
}

describe('adapter contract: builtin bm25', () => adapterContractSuite(builtinSubject('bm25')));
describe('adapter contract: builtin context-load', () =>
  adapterContractSuite(builtinSubject('context-load')));
describe('adapter contract: builtin semantic', () => adapterContractSuite(builtinSubject('semantic')));

describe('adapter contract: command, per query (node spawn)', () => {
  adapterContractSuite(commandSubject(false));
  misbehaviourSuite(commandSubject(false));
});

describe('adapter contract: command, JSON-lines worker', () => {
  adapterContractSuite(commandSubject(true));
  misbehaviourSuite(commandSubject(true));
});

describe('adapter contract: module (worker threads)', () => {
  adapterContractSuite(moduleSubject);
  misbehaviourSuite(moduleSubject);
});

describe('adapter contract: function (library)', () => adapterContractSuite(functionSubject));

describe('adapter contract: http', () => {
  adapterContractSuite(httpSubject);
  misbehaviourSuite(httpSubject);
});

describe('command adapter: a program that cannot be started', () => {
  const config = resolveConfig({ mode: 'bm25', k: 10 });
  const ctx = { replay: 1, config, fixtureDir: '.' };
  const variants: Array<[string, { worker?: boolean }]> = [
    ['per query, node spawn', {}],
    ['worker', { worker: true }],
  ];
  for (const [label, opts] of variants) {
    it(`${label}: spawn_failed on every request, never an exception`, async () => {
      const adapter = createSystem(
        {
          type: 'command',
          argv: ['/nonexistent/rgate-no-such-retriever', '--x'],
          contract: 'rgate',
          ...opts,
        },
        { corpus: [], config, dir: '.' },
      );
      try {
        for (const id of ['a', 'b']) {
          const o = await adapter.request({ query_id: id, text: 'x' }, ctx);
          expect(o.ok).toBe(false);
          expect(o.error?.kind).toBe('spawn_failed');
          expect(o.error?.message).toContain('/nonexistent/rgate-no-such-retriever');
        }
      } finally {
        await adapter.close();
      }
    });
  }
});

describe('command adapter: a working folder gone after the suite was planned', () => {
  const config = resolveConfig({ mode: 'bm25', k: 10 });
  for (const worker of [false, true]) {
    it(`${worker ? 'worker' : 'per query'}: spawn_failed names the folder, not the program`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'rgate-cwd-'));
      mkdirSync(join(dir, 'work'));
      const adapter = createSystem(
        {
          type: 'command',
          argv: [process.execPath, join(SUT, 'cli.mjs')],
          contract: 'rgate',
          cwd: 'work',
          worker,
        },
        { corpus: [], config, dir, baseDir: dir },
      );
      try {
        rmSync(dir, { recursive: true });
        const o = await adapter.request({ query_id: 'a', text: 'x' }, { replay: 1, config, fixtureDir: dir });
        expect(o.error?.kind).toBe('spawn_failed');
        expect(o.error?.message).toBe(
          `cannot run ${process.execPath} in ${join(dir, 'work')}: that working folder does not exist (spawn ${process.execPath} ENOENT)`,
        );
      } finally {
        await adapter.close();
      }
    });
  }
});

describe('command adapter, per query: a query holding a NUL character', () => {
  const config = resolveConfig({ mode: 'bm25', k: 10 });
  it('is refused for that request (never split into two arguments), the next works', async () => {
    const adapter = createSystem(
      {
        type: 'command',
        argv: [process.execPath, join(SUT, 'cli.mjs'), '{query_id}', '{query}'],
        contract: 'rgate',
      },
      { corpus: [], config, dir: '.' },
    );
    try {
      await adapter.start();
      const ctx = { replay: 1, config, fixtureDir: '.' };
      const bad = await adapter.request({ query_id: 'n', text: 'a\u0000--evil' }, ctx);
      expect(bad.error?.kind).toBe('spawn_failed');
      expect(bad.error?.message).toContain('NUL');
      const good = await adapter.request({ query_id: 'g', text: 'fine' }, ctx);
      expect(good.ok).toBe(true);
      expect(good.ranked[0]?.source_path).toBe('fine');
    } finally {
      await adapter.close();
    }
  });
});

describe('command adapter, worker: protocol breaks', () => {
  it('an answer carrying another request id is a protocol error; the worker is replaced', async () => {
    const s = await commandSubject(true)();
    try {
      const ctx = { replay: 1, config: s.config, fixtureDir: s.fixtureDir };
      const bad = await s.adapter.request({ query_id: 'w', text: 'wrong-id' }, ctx);
      expect(bad.error?.kind).toBe('protocol');
      expect(bad.error?.message).toContain('expected {"id": 1');
      const counter = await s.adapter.request({ query_id: 'c', text: 'counter' }, ctx);
      // a fresh worker: its hidden request counter starts again
      expect(counter.ranked[0]?.source_path).toBe('served:1');
    } finally {
      await s.adapter.close();
      expect(await s.leftovers()).toEqual([]);
      await s.dispose();
    }
  });
});

describe('command adapter, per query: the retired launcher option', () => {
  const config = resolveConfig({ mode: 'bm25', k: 10 });
  for (const launcher of ['auto', 'python', 'perl', 'node'] as const) {
    it(`"launcher": "${launcher}" is still accepted; node spawns, no helper process, none needed on PATH`, async () => {
      const adapter = createSystem(
        {
          type: 'command',
          argv: [process.execPath, join(SUT, 'cli.mjs'), '{query_id}', '{query}'],
          contract: 'rgate',
          launcher,
          // neither python3 nor perl can be found: asking for one used to be a config error
          env: { PATH: '/nonexistent' },
        },
        { corpus: [], config, dir: '.' },
      ) as CommandAdapter;
      try {
        await adapter.start();
        const o = await adapter.request(
          { query_id: 'l', text: launcher },
          { replay: 1, config, fixtureDir: '.' },
        );
        expect(o.ok).toBe(true);
        expect(o.ranked[0]?.source_path).toBe(launcher);
        expect(adapter.helperPids()).toEqual([]);
      } finally {
        await adapter.close();
      }
    });
  }
});

describe('command adapter, worker: a worker that ends between requests', () => {
  const config = resolveConfig({ mode: 'bm25', k: 10 });
  async function recycling(env: Record<string, string>) {
    const pidDir = mkdtempSync(join(tmpdir(), 'rgate-sut-pids-'));
    const adapter = createSystem(
      {
        type: 'command',
        argv: [process.execPath, join(SUT, 'worker.mjs')],
        worker: true,
        contract: 'rgate',
        env: { SUT_PID_DIR: pidDir, ...env },
      },
      { corpus: [], config, dir: pidDir },
    ) as CommandAdapter;
    const ctx = (replay: number) => ({ replay, config, fixtureDir: pidDir });
    return {
      adapter,
      ctx,
      workersStarted: () => recordedPids(pidDir).length,
      async dispose() {
        await adapter.close();
        const pids = (): number[] => [...recordedPids(pidDir), ...adapter.helperPids()];
        await until(
          () => pids().every((p) => !pidAlive(p)),
          () => `SUT processes to end: ${pids().filter(pidAlive).join(', ')} alive`,
        );
        rmSync(pidDir, { recursive: true, force: true });
      },
    };
  }

  it('exiting with code 0 after N answers costs no request: 3 replays at concurrency 2 all answer, alike', async () => {
    const s = await recycling({ SUT_EXIT_AFTER: '2' });
    try {
      const answers: string[][] = [];
      for (const replay of [1, 2, 3]) {
        const got: string[] = [];
        let next = 0;
        // two lanes pulling the next query, as the runner does at concurrency 2
        const lane = async (): Promise<void> => {
          for (let i = next++; i < queries.length; i = next++) {
            const q = queries[i] as QueryRecord;
            const o = await s.adapter.request(q, s.ctx(replay));
            expect(o.error).toBeUndefined();
            checkSutAnswer(q, o);
            got[i] = JSON.stringify(o.ranked);
          }
        };
        await Promise.all([lane(), lane()]);
        answers.push(got);
      }
      expect(answers[1]).toEqual(answers[0]);
      expect(answers[2]).toEqual(answers[0]);
      // 18 answers, two per worker: the workers did recycle, each request went to one that took it
      expect(s.workersStarted()).toBeGreaterThanOrEqual(9);
    } finally {
      await s.dispose();
    }
  });

  it('a worker that crashes handling a request is one crash error; the request goes to no other worker', async () => {
    const s = await recycling({});
    try {
      expect((await s.adapter.request({ query_id: 'a', text: 'alpha' }, s.ctx(1))).ok).toBe(true);
      const crashed = await s.adapter.request({ query_id: 'c', text: 'crash' }, s.ctx(1));
      expect(crashed.error?.kind).toBe('crash');
      expect(crashed.error?.message).toBe('worker exited with code 3');
      expect(s.workersStarted()).toBe(1);
      expect((await s.adapter.request({ query_id: 'b', text: 'beta' }, s.ctx(1))).ok).toBe(true);
      expect(s.workersStarted()).toBe(2);
    } finally {
      await s.dispose();
    }
  });

  it('a request that makes a worker exit with code 0 unanswered is tried once more, then a crash error', async () => {
    const s = await recycling({});
    try {
      expect((await s.adapter.request({ query_id: 'a', text: 'alpha' }, s.ctx(1))).ok).toBe(true);
      const exited = await s.adapter.request({ query_id: 'x', text: 'exit-clean' }, s.ctx(1));
      expect(exited.error?.kind).toBe('crash');
      expect(exited.error?.message).toBe('worker exited with code 0');
      // the worker that answered alpha, and the fresh one the request went to once
      expect(s.workersStarted()).toBe(2);
    } finally {
      await s.dispose();
    }
  });
});
