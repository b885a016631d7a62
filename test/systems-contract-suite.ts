// ONE adapter contract test suite (evalite/promptfoo style): every SystemAdapter — builtin, command
// (per-query and worker), http and module — must pass the same tests. Misbehaviour tests run for subjects whose
// SUT follows test/sut/behaviour.mjs (the query text picks the misbehaviour).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { QueryRecord, RetrievalConfig } from '../src/documents/index.js';
import type { RawObservation, RequestContext, SystemAdapter } from '../src/systems/index.js';
import { onFakeClock, until, type FakeClock } from './helpers/clock.js';

export interface Subject {
  adapter: SystemAdapter;
  config: RetrievalConfig;
  fixtureDir: string;
  /** the SUT follows behaviour.mjs (crash / hang / garbage / huge / break-contract / envelope / counter) */
  misbehaves: boolean;
  /** the SUT keeps hidden state across requests that restart() must flush */
  stateful: boolean;
  /** error kind a crash is recorded as */
  crashKind: string;
  /**
   * How this adapter records a misbehaviour where it differs from a process's (by the query text that
   * picks it); null: the misbehaviour does not exist for it (a module's answer is no byte stream, so
   * it cannot be garbage bytes or exceed an output cap)
   */
  kindOf?: Record<string, string | null>;
  /** text the crashing SUT wrote to stderr, kept with the failure (none for http) */
  crashStderr?: string;
  /** queries answered normally, and a check of one answer */
  queries: QueryRecord[];
  checkAnswer(q: QueryRecord, o: RawObservation): void;
  /** pids the SUT processes recorded so far (their own and their children's), if they run as processes */
  sutPids?(): number[];
  /** whether the SUT holds this query for good (it hangs, its children started); misbehaving SUTs */
  holds?(queryId: string): boolean;
  /**
   * after close(): waits until the SUT's processes and connections are gone (a leak fails the test
   * by its timeout, naming them), then describes anything else left behind (workers still tracked)
   */
  leftovers(): Promise<string[]>;
  dispose(): Promise<void>;
}

/** `timeoutMs`: the adapter's per-request timeout; by default a generous one no normal answer nears. */
export type SubjectFactory = (o?: { timeoutMs?: number }) => Promise<Subject>;

/**
 * The hang tests' timeout. Any value does: they run on a fake clock that reaches it only once the SUT
 * holds its request (onFakeClock), so neither the hang nor the normal answers beside it race the time.
 */
const HANG_TIMEOUT_MS = 2000;

function ctx(s: Subject, replay = 1): RequestContext {
  return { replay, config: s.config, fixtureDir: s.fixtureDir };
}

const q = (query_id: string, text: string): QueryRecord => ({ query_id, text });

/**
 * Whether a pid is still a live process. A zombie is dead, merely not reaped yet by whoever its parent
 * is now, but only once its whole thread group is: /proc shows the group leader as a zombie (Z) as
 * soon as its own thread has exited, while its other threads (node's V8 and libuv workers) may still
 * be exiting, and the parent is told (SIGCHLD, the pipes' end) only when the last of them is gone.
 * On a loaded machine that gap is long enough to matter.
 */
export function pidAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // field 3 is the state
    if (stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z') return true;
    return readdirSync(`/proc/${pid}/task`).length > 1;
  } catch {
    return false;
  }
}

export function recordedPids(dir: string): number[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.pid'))
    .map((f) => Number(readFileSync(join(dir, f), 'utf8')));
}

async function withSubject(factory: SubjectFactory, body: (s: Subject) => Promise<void>): Promise<void> {
  const s = await factory();
  try {
    await s.adapter.start();
    await body(s);
  } finally {
    await s.adapter.close();
    const left = await s.leftovers();
    await s.dispose();
    expect(left, 'nothing may be left behind after close()').toEqual([]);
  }
}

/** Register the contract tests for one adapter kind (call inside a describe). */
export function adapterContractSuite(factory: SubjectFactory): void {
  it('answers a request with a valid, well-formed observation', async () => {
    await withSubject(factory, async (s) => {
      const query = s.queries[0] as QueryRecord;
      const o = await s.adapter.request(query, ctx(s));
      expect(o.error).toBeUndefined();
      expect(o.ok).toBe(true);
      expect(o.query_id).toBe(query.query_id);
      expect(o.contract).toEqual({ name: s.adapter.contract, valid: true, errors: [] });
      expect(o.latency_ms).toBeGreaterThanOrEqual(0);
      expect(o).not.toHaveProperty('fingerprint');
      expect(o).not.toHaveProperty('replay');
      for (const v of Object.values(o.usage)) expect(Number.isInteger(v) && v >= 0).toBe(true);
      s.checkAnswer(query, o);
    });
  });

  it('answers concurrent requests, each with its own query', async () => {
    await withSubject(factory, async (s) => {
      const qs = s.queries.slice(0, 6);
      const obs = await Promise.all(qs.map((x) => s.adapter.request(x, ctx(s))));
      obs.forEach((o, i) => {
        expect(o.ok).toBe(true);
        expect(o.query_id).toBe(qs[i]?.query_id);
        s.checkAnswer(qs[i] as QueryRecord, o);
      });
    });
  });

  it('restart() keeps the adapter usable and, for a stateful system, flushes hidden state', async () => {
    await withSubject(factory, async (s) => {
      const counter = q('c', 'counter');
      if (s.stateful) {
        await s.adapter.request(counter, ctx(s));
        const second = await s.adapter.request(counter, ctx(s));
        expect(second.ranked[0]?.source_path).toBe('served:2');
      }
      await s.adapter.restart();
      const after = await s.adapter.request(s.stateful ? counter : (s.queries[0] as QueryRecord), ctx(s, 2));
      expect(after.ok).toBe(true);
      if (s.stateful) expect(after.ranked[0]?.source_path).toBe('served:1');
    });
  });

  it('close() is idempotent and leaves nothing behind', async () => {
    await withSubject(factory, async (s) => {
      await s.adapter.request(s.queries[0] as QueryRecord, ctx(s));
      await s.adapter.close();
      await s.adapter.close();
    });
  });
}

/** Misbehaving systems: every failure is a recorded error on that request; the adapter carries on. */
export function misbehaviourSuite(factory: SubjectFactory): void {
  const hanging = (): Promise<Subject> => factory({ timeoutMs: HANG_TIMEOUT_MS });

  /** `query` sent to a SUT that holds it for good: timed out once it holds it, on the fake clock. */
  async function timedOut(s: Subject, query: QueryRecord, clock: FakeClock): Promise<RawObservation> {
    const pending = s.adapter.request(query, ctx(s));
    await until(
      () => s.holds!(query.query_id),
      () => `the SUT to hold ${query.query_id}`,
    );
    await clock.advance(HANG_TIMEOUT_MS);
    return pending;
  }

  const cases: Array<[string, string, (s: Subject) => string]> = [
    ['crashing', 'crash', (s) => s.crashKind],
    ['hanging (timeout, killed)', 'hang', () => 'timeout'],
    ['printing garbage', 'garbage', () => 'non_json'],
    ['breaking the contract', 'break-contract', () => 'contract_invalid'],
    ['exceeding the output cap', 'huge', () => 'output_too_large'],
    ['answering with the error envelope', 'envelope', () => 'index_unavailable'],
  ];
  for (const [label, text, processKind] of cases) {
    const kind = (s: Subject): string => s.kindOf?.[text] ?? processKind(s);
    it(`a SUT ${label} yields error kind per request, never an exception, and the next request works`, async () => {
      await withSubject(text === 'hang' ? hanging : factory, async (s) => {
        if (s.kindOf?.[text] === null) return;
        if (text === 'hang') await onFakeClock((clock) => expectCarriesOn(s, text, kind, clock));
        else await expectCarriesOn(s, text, kind);
      });
    });
  }

  /** The bad request's recorded failure, then a normal request on the same adapter. */
  async function expectCarriesOn(
    s: Subject,
    text: string,
    kind: (s: Subject) => string,
    clock?: FakeClock,
  ): Promise<void> {
    const bad = clock
      ? await timedOut(s, q(`bad-${text}`, text), clock)
      : await s.adapter.request(q(`bad-${text}`, text), ctx(s));
    expect(bad.ok).toBe(false);
    expect(bad.error?.kind).toBe(kind(s));
    expect(bad.query_id).toBe(`bad-${text}`);
    expect(bad.ranked).toEqual([]);
    if (text === 'crash' && s.crashStderr) expect(bad.error?.stderr).toContain(s.crashStderr);
    if (text === 'break-contract') {
      expect(bad.contract.valid).toBe(false);
      expect(bad.contract.errors).toContain('/selectedId: is not a known field');
      expect(bad.contract.errors).toContain('/ranked: must be array');
    }
    // on the fake clock this one cannot time out, however long a loaded machine takes to answer
    const good = s.queries[0] as QueryRecord;
    const next = await s.adapter.request(good, ctx(s));
    expect(next.ok).toBe(true);
    s.checkAnswer(good, next);
  }

  it('a hung SUT with a child process: the whole process group is killed', async () => {
    await withSubject(hanging, async (s) => {
      const o = await onFakeClock((clock) => timedOut(s, q('h', 'hang-with-child'), clock));
      expect(o.error?.kind).toBe('timeout');
      // the child was started before the timeout hit, so the leftovers check below proves it was killed
      if (s.sutPids) expect(s.sutPids().length).toBeGreaterThanOrEqual(2);
    });
  });

  it('a request abandoned (ctx.signal) while the SUT hangs with a child: `interrupted` at once, its process group killed', async () => {
    // the generous timeout: only the abort can end this request
    await withSubject(factory, async (s) => {
      const stop = new AbortController();
      const pending = s.adapter.request(q('h', 'hang-with-child'), { ...ctx(s), signal: stop.signal });
      // once the SUT demonstrably runs (it and its child recorded their pids); an http request is
      // abandoned wherever it is, its connection closed (the leftovers check counts them)
      if (s.sutPids)
        await until(
          () => s.sutPids!().length >= 2,
          () => `SUT pids seen: ${s.sutPids!().length}`,
        );
      stop.abort();
      const o = await pending;
      expect(o.ok).toBe(false);
      expect(o.error?.kind).toBe('interrupted');
      expect(o.query_id).toBe('h');
      // with the signal already aborted nothing is started
      const before = s.sutPids?.().length;
      const late = await s.adapter.request(s.queries[0] as QueryRecord, { ...ctx(s), signal: stop.signal });
      expect(late.error?.kind).toBe('interrupted');
      expect(s.sutPids?.().length).toBe(before);
      // and the adapter goes on serving requests that are not abandoned
      const next = await s.adapter.request(s.queries[0] as QueryRecord, ctx(s));
      expect(next.ok).toBe(true);
    });
  });

  it('a mix of failures and answers in flight at once: every request gets its own record', async () => {
    await withSubject(factory, async (s) => {
      const texts = ['crash', 'ok one', 'garbage', 'ok two', 'break-contract', 'ok three'];
      const obs = await Promise.all(texts.map((t, i) => s.adapter.request(q(`m${i}`, t), ctx(s))));
      expect(obs.map((o) => o.ok)).toEqual([false, true, false, true, false, true]);
      expect(obs.map((o) => o.query_id)).toEqual(texts.map((_, i) => `m${i}`));
      expect(obs[3]?.ranked[0]?.source_path).toBe('ok two');
    });
  });

  it('passes the query verbatim: shell metacharacters are data, not commands', async () => {
    await withSubject(factory, async (s) => {
      const text = `a'b "c" $(touch /tmp/rgate-pwned) ; rm -rf / | \`id\` {query} \\n ünïcödé`;
      const o = await s.adapter.request(q('inj', text), ctx(s));
      expect(o.ok).toBe(true);
      expect(o.ranked[0]?.source_path).toBe(text);
    });
  });
}
