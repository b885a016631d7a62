// The adapter contract suite run against every adapter: builtin (three modes), command per-query,
// command worker, http. Real subprocesses (test/sut/*.mjs) and a real HTTP server on 127.0.0.1.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CorpusRecord, QueryRecord } from '../src/documents/index.js';
import { resolveConfig } from '../src/core/index.js';
import { createSystem, type CommandAdapter, type HttpAdapter } from '../src/systems/index.js';
import { findPerl, findPython } from '../src/systems/spawn-server.js';
import { startHttpSut } from './sut/http-sut.js';
import {
  adapterContractSuite,
  eventually,
  misbehaviourSuite,
  pidAlive,
  recordedPids,
  type Subject,
} from './systems-contract-suite.js';

const SUT = resolve(import.meta.dirname, 'sut');
// generous: a normal answer must never time out on a loaded CI machine; only the hanging SUTs wait it out
const TIMEOUT_MS = 5000;

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

function commandSubject(
  worker: boolean,
  launcher: 'python' | 'perl' | 'node' = 'node',
): () => Promise<Subject> {
  return async () => {
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
        ...(worker ? {} : { launcher }),
        contract: 'rgate',
        timeout_ms: TIMEOUT_MS,
        max_output_bytes: 64 * 1024,
        env: { SUT_PID_DIR: pidDir },
      },
      { corpus: [], config, dir: pidDir },
    ) as CommandAdapter;
    if (!worker) expect(adapter.launcher).toBe(launcher);
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
      async leftovers() {
        const left: string[] = adapter.workerPids().map((p) => `worker ${p} still tracked`);
        // SUT processes (recorded by the SUT itself) and rgate's own helpers (workers, spawn server)
        const pids = (): number[] => [...recordedPids(pidDir), ...adapter.helperPids()];
        if (worker || launcher !== 'node') expect(adapter.helperPids().length).toBeGreaterThan(0);
        const gone = await eventually(() => pids().every((p) => !pidAlive(p)));
        if (!gone)
          left.push(
            ...pids()
              .filter(pidAlive)
              .map((p) => `pid ${p} alive`),
          );
        return left;
      },
      async dispose() {
        rmSync(pidDir, { recursive: true, force: true });
      },
    };
  };
}

async function httpSubject(): Promise<Subject> {
  const sut = await startHttpSut();
  const config = resolveConfig({ mode: 'bm25', k: 10, budgets: { tokens: 1200 } });
  const adapter = createSystem(
    {
      type: 'http',
      url: sut.url,
      contract: 'rgate',
      timeout_ms: TIMEOUT_MS,
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
        budgets: { tokens: 1200, latency_ms: TIMEOUT_MS },
      });
    },
    async leftovers() {
      const closed = await eventually(async () => (await sut.connections()) === 0);
      return closed ? [] : [`${await sut.connections()} connection(s) still open on the server`];
    },
    async dispose() {
      await sut.close();
    },
  };
}

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
  adapterContractSuite(commandSubject(false, 'node'));
  misbehaviourSuite(commandSubject(false, 'node'));
});

describe.skipIf(findPerl() === undefined)('adapter contract: command, per query (perl spawn server)', () => {
  adapterContractSuite(commandSubject(false, 'perl'));
  misbehaviourSuite(commandSubject(false, 'perl'));
});

describe.skipIf(findPython() === undefined)(
  'adapter contract: command, per query (python spawn server)',
  () => {
    adapterContractSuite(commandSubject(false, 'python'));
    misbehaviourSuite(commandSubject(false, 'python'));
  },
);

describe('adapter contract: command, JSON-lines worker', () => {
  adapterContractSuite(commandSubject(true));
  misbehaviourSuite(commandSubject(true));
});

describe('adapter contract: http', () => {
  adapterContractSuite(httpSubject);
  misbehaviourSuite(httpSubject);
});

describe('command adapter: a program that cannot be started', () => {
  const config = resolveConfig({ mode: 'bm25', k: 10 });
  const ctx = { replay: 1, config, fixtureDir: '.' };
  const variants: Array<[string, { worker?: boolean; launcher?: 'python' | 'perl' | 'node' }]> = [
    ['per query, node spawn', { launcher: 'node' }],
    ...(findPython()
      ? [['per query, python spawn server', { launcher: 'python' }] as [string, { launcher: 'python' }]]
      : []),
    ...(findPerl()
      ? [['per query, perl spawn server', { launcher: 'perl' }] as [string, { launcher: 'perl' }]]
      : []),
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

describe('command adapter, per query: a query holding a NUL character', () => {
  const config = resolveConfig({ mode: 'bm25', k: 10 });
  const launchers: Array<'node' | 'perl' | 'python'> = [
    'node',
    ...(findPerl() ? (['perl'] as const) : []),
    ...(findPython() ? (['python'] as const) : []),
  ];
  for (const launcher of launchers) {
    it(`${launcher}: is refused for that request (never split into two arguments), the next works`, async () => {
      const adapter = createSystem(
        {
          type: 'command',
          argv: [process.execPath, join(SUT, 'cli.mjs'), '{query_id}', '{query}'],
          contract: 'rgate',
          launcher,
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
  }
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

describe('command adapter, per query: a python3 and perl that cannot run the spawn server', () => {
  it('auto mode falls back to node spawn and the request still succeeds', async () => {
    const fake = mkdtempSync(join(tmpdir(), 'rgate-fake-perl-'));
    writeFileSync(join(fake, 'perl'), '#!/bin/sh\necho "fake perl refuses" >&2\nexit 3\n', { mode: 0o755 });
    writeFileSync(join(fake, 'python3'), '#!/bin/sh\necho "fake python refuses" >&2\nexit 3\n', {
      mode: 0o755,
    });
    const config = resolveConfig({ mode: 'bm25', k: 10 });
    const adapter = createSystem(
      {
        type: 'command',
        argv: [process.execPath, join(SUT, 'cli.mjs'), '{query_id}', '{query}'],
        contract: 'rgate',
        env: { PATH: `${fake}:${process.env['PATH'] ?? ''}` },
      },
      { corpus: [], config, dir: '.' },
    ) as CommandAdapter;
    try {
      expect(adapter.launcher).toBe('python');
      // start() waits for the launcher's ready line; a launcher that dies instead must not hang it
      await adapter.start();
      const o = await adapter.request(
        { query_id: 'f', text: 'fallback' },
        { replay: 1, config, fixtureDir: '.' },
      );
      expect(o.ok).toBe(true);
      expect(o.ranked[0]?.source_path).toBe('fallback');
      expect(adapter.launcher).toBe('node');
    } finally {
      await adapter.close();
      rmSync(fake, { recursive: true, force: true });
    }
  });
});

describe.each([
  ['perl', findPerl()],
  ['python', findPython()],
] as const)('%s spawn server: many quick processes in a row', (launcher, found) => {
  it.skipIf(found === undefined)(
    'every exit is noticed (a lost SIGCHLD would surface as a timeout)',
    async () => {
      const config = resolveConfig({ mode: 'bm25', k: 10 });
      const adapter = createSystem(
        {
          type: 'command',
          argv: ['printf', '%s', '{"ranked":[{"id":"{query_id}","score":1}]}'],
          contract: 'rgate',
          launcher,
          timeout_ms: 5000,
        },
        { corpus: [], config, dir: '.' },
      );
      try {
        await adapter.start();
        const ctx = { replay: 1, config, fixtureDir: '.' };
        const kinds = new Map<string, number>();
        for (let i = 0; i < 300; i++) {
          const o = await adapter.request({ query_id: `q${i}`, text: 'x' }, ctx);
          const k = o.ok && o.ranked[0]?.id === `q${i}` ? 'ok' : (o.error?.kind ?? 'wrong');
          kinds.set(k, (kinds.get(k) ?? 0) + 1);
        }
        expect(Object.fromEntries(kinds)).toEqual({ ok: 300 });
      } finally {
        await adapter.close();
      }
    },
  );
});
