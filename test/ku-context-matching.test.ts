import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runSuite } from '../harness/run-suite.js';
import type { ConversationUnit, QueryRecord, Report, SuiteSpec } from '../src/documents/index.js';
import { createEngine } from '../src/engine/index.js';
import { workerRequestBody } from '../src/systems/command-adapter.js';
import { retrievalQuery } from '../src/systems/http-adapter.js';
import { loadFixtureSet, writeFreeze } from '../src/snapshot/index.js';
import { MemoryRunStore } from '../src/store/index.js';

const ROOT = resolve(import.meta.dirname, '..');
const SUT = join(ROOT, 'test', 'sut', 'ku-resolver.mjs');
const GATE = join(ROOT, 'gates', 'ku-context-matching-v0.gate.json');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const metric = (report: Report, id: string) => {
  const v = report.metrics.find((m) => m.id === id)?.value;
  return v?.kind === 'rate' ? [v.numerator, v.denominator] : v;
};
const rule = (report: Report, id: string) => report.gate.rules.find((r) => r.metric === id)?.status;

async function run(root: string, fixture: string, system: SuiteSpec['system'], replays: number) {
  const spec = { fixture, system, gate: GATE, replays, relevance_level: 2, concurrency: 2 } as SuiteSpec;
  return runSuite({
    name: 'ku',
    spec,
    root,
    store: new MemoryRunStore(),
    runId: 'ku-run',
    startedAt: '2026-11-23T00:00:00Z',
  });
}

/** The Orbit set cut to its first `n` intents, frozen in a temp root (a spawned SUT per request stays fast). */
function slice(n: number): string {
  const root = mkdtempSync(join(tmpdir(), 'rgate-ku-'));
  dirs.push(root);
  const src = join(ROOT, 'fixtures', 'ku-runbooks');
  const dir = join(root, 'fixtures', 'orbit');
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(src, 'corpus.jsonl'), join(dir, 'corpus.jsonl'));
  copyFileSync(join(src, 'config.json'), join(dir, 'config.json'));
  const lines = readFileSync(join(src, 'queries.jsonl'), 'utf8').trim().split('\n').slice(0, n);
  writeFileSync(join(dir, 'queries.jsonl'), lines.join('\n') + '\n');
  writeFreeze(dir, { frozenOn: '2026-11-23' });
  return root;
}

describe('KU context matching (DS012) end to end', () => {
  it('the builtin ku mode passes ku-context-matching-v0 on the Orbit set, with byte-identical answers in 5 replays', async () => {
    const { report } = await run(ROOT, 'ku-runbooks', { type: 'builtin', mode: 'ku' }, 5);
    expect(report.gate.verdict).toBe('PASS');
    expect(metric(report, 'ku_guidance_retention')).toEqual([484, 484]);
    expect(metric(report, 'replay_determinism')).toEqual([88, 88]);
    expect(metric(report, 'ku_over_budget_whole')).toEqual([0, 14]);
    expect(report.replay_proof.identical).toBe(true);
  });

  it('the same pinned inputs give a byte-identical ResolvedIntent from fresh engines, whatever the record order', () => {
    const set = loadFixtureSet(join(ROOT, 'fixtures', 'ku-runbooks'));
    const a = createEngine(set.corpus, set.config);
    const b = createEngine(set.corpus.slice().reverse(), set.config);
    for (const q of set.queries as QueryRecord[]) {
      const req = {
        intent: q.text,
        intentRef: q.query_id,
        ...(q.ku?.current_turn ? { current_turn: q.ku.current_turn } : {}),
        ...(q.ku?.session ? { session: q.ku.session } : {}),
      };
      const first = JSON.stringify(a.resolveIntent(req));
      expect(JSON.stringify(a.resolveIntent(req)), q.query_id).toBe(first);
      expect(JSON.stringify(b.resolveIntent(req)), q.query_id).toBe(first);
    }
  });

  it('gates a command SUT through the resolved-intent contract: dropped guidance and whole over-budget units fail it', async () => {
    const root = slice(12);
    const { report, observations } = await run(
      root,
      'orbit',
      {
        type: 'command',
        argv: [process.execPath, SUT, '{corpus_dir}', '{query_id}'],
        contract: 'resolved-intent',
      },
      2,
    );
    expect(observations).toHaveLength(24);
    expect(observations.every((o) => o.ok && o.contract.valid && o.ku !== undefined)).toBe(true);
    expect(metric(report, 'contract_validity')).toEqual([24, 24]);
    const [kept, judged] = metric(report, 'ku_guidance_retention') as number[];
    expect(judged).toBeGreaterThan(40); // 12 intents: 1-2 turn guidance lines each + 4 KB guidance units
    expect(kept).toBeLessThan(judged!);
    expect((metric(report, 'ku_over_budget_whole') as number[])[0]).toBeGreaterThan(0);
    expect(report.gate.verdict).toBe('FAIL');
    expect(rule(report, 'ku_guidance_retention')).toBe('fail');
    expect(rule(report, 'ku_over_budget_whole')).toBe('fail');
    expect(rule(report, 'replay_determinism')).not.toBe('pass'); // 2 replays are too few evidence (min_replays 5)
    expect(metric(report, 'replay_determinism')).toEqual([12, 12]);
  });

  it('the same SUT keeping tagged guidance and splitting over-budget units does better on exactly those measures', async () => {
    const root = slice(12);
    const argv = [process.execPath, SUT, '{corpus_dir}', '{query_id}'];
    const base = await run(root, 'orbit', { type: 'command', argv, contract: 'resolved-intent' }, 1);
    const fixed = await run(
      root,
      'orbit',
      { type: 'command', argv: [...argv, '--keep-guidance', '--split'], contract: 'resolved-intent' },
      1,
    );
    const keptBase = (metric(base.report, 'ku_guidance_retention') as number[])[0]!;
    const keptFixed = (metric(fixed.report, 'ku_guidance_retention') as number[])[0]!;
    expect(keptFixed).toBeGreaterThan(keptBase);
    expect((metric(fixed.report, 'ku_over_budget_whole') as number[])[0]).toBe(0);
    expect((metric(fixed.report, 'ku_over_budget_split') as number[])[0]).toBeGreaterThan(0);
  });

  it("gates a DS012 system over HTTP: the request carries the intent's turn, the answer is held to the contract", async () => {
    const root = slice(12);
    const set = loadFixtureSet(join(root, 'fixtures', 'orbit'));
    const engine = createEngine(set.corpus, set.config);
    const seen: string[] = [];
    // a real server on 127.0.0.1 that resolves with rgate's engine from what the POST body says
    const server: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        const q = JSON.parse(body) as {
          query: string;
          ku: { intent_ref: string; current_turn: ConversationUnit[]; session: ConversationUnit[] };
        };
        seen.push(`${q.ku.intent_ref}:${q.ku.current_turn.length}`);
        const out = engine.resolveIntent({
          intent: q.query,
          intentRef: q.ku.intent_ref,
          current_turn: q.ku.current_turn,
          session: q.ku.session,
        });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(out));
      });
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/resolve`;
      const { report } = await run(root, 'orbit', { type: 'http', url, contract: 'resolved-intent' }, 1);
      expect(seen).toContain('ku001:3');
      expect(metric(report, 'contract_validity')).toEqual([12, 12]);
      const [kept, judged] = metric(report, 'ku_guidance_retention') as number[];
      expect(kept).toBe(judged);
      expect(metric(report, 'source_trace_resolvable')).toEqual([12, 12]);
    } finally {
      await new Promise<void>((ok) => server.close(() => ok()));
    }
  });

  it('hands the conversation units to JSON-lines workers, and over HTTP only to resolved-intent systems', () => {
    const set = loadFixtureSet(join(ROOT, 'fixtures', 'ku-runbooks'));
    const q = set.queries[2] as QueryRecord;
    const ctx = { replay: 1, config: set.config, fixtureDir: 'x' };
    expect(workerRequestBody(q, ctx)['ku']).toEqual({
      current_turn: q.ku?.current_turn,
      session: q.ku?.session,
    });
    const url = 'http://127.0.0.1:1/';
    expect(retrievalQuery({ type: 'http', url, contract: 'resolved-intent' }, q, ctx).ku).toEqual({
      intent_ref: q.query_id,
      current_turn: q.ku?.current_turn,
      session: q.ku?.session,
    });
    expect(retrievalQuery({ type: 'http', url }, q, ctx)).not.toHaveProperty('ku');
  });
});
