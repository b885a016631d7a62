/**
 * The real AthenaMind memory-cli outputs (fixtures/memory-cli) replayed through the real command
 * adapter: test/sut/memory-cli-replay.mjs is an executable that prints the recorded answer for a
 * query, writes the CLI's warning line on stderr and exits 0, as the CLI did. Every answer must pass
 * memory-cli-v1 as it is; hybrid_rrf counts as a semantic win by default and not when the system's
 * semantic_win_modes says so; a "database is locked" failure reaches the reports in the CLI's words.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSuite, type RunOutcome } from '../harness/run-suite.js';
import { runShard } from '../harness/shard.js';
import { renderHtml } from '../reports/run/html.js';
import { renderJson } from '../reports/run/json.js';
import { renderJunit } from '../reports/run/junit.js';
import { renderMarkdown } from '../reports/run/markdown.js';
import { renderTerminal } from '../reports/run/terminal.js';
import type { Report, SelectionMode, SuiteSpec } from '../src/documents/index.js';
import { writeFreeze } from '../src/snapshot/index.js';
import { MemoryRunStore } from '../src/store/memory-store.js';
import { tempDir } from './history-helpers.js';
import { memoryCliRetrieveArgv } from './helpers/memory-cli-argv.js';

const SUT = resolve(import.meta.dirname, 'sut', 'memory-cli-replay.mjs');
const RECORDINGS = resolve(import.meta.dirname, '..', 'fixtures', 'memory-cli', 'responses');
// the recorded classic answer's own reason, and the one a slow semantic path would give (derived below)
const GATE_REASON = 'semantic confidence gate failed; deterministic path-priority fallback used';
const LATENCY_REASON =
  'semantic latency 726 ms exceeded the 700 ms limit; deterministic path-priority fallback used';
const REVIEW = 'how are memory entries reviewed before promotion';
const LOCKED = 'what changed in the last release';
// every candidate the recordings name; the CLI printed no text, so a record's text is its id in words
const IDS = [
  'agents-37dd6836',
  'architecture-readme-e9bb65a8',
  'cli-commands-4a43d031',
  'cli-examples-eb8d8e89',
  'cli-readme-ea1491fd',
  'concepts-governance-1c616379',
  'concepts-memory-lifecycle-74ce7d08',
  'concepts-readme-b7d267b9',
  'getting-started-readme-a2579fef',
  'index-4b1c8fd4',
  'process-operator-daily-workflow-0c06c7a2',
];

let root: string;
let cleanup: () => void;

function fixtureSet(name: string, queries: object[]): void {
  const dir = join(root, 'fixtures', name);
  mkdirSync(dir, { recursive: true });
  const corpus = IDS.map((id) => ({
    id,
    source_path: `instructions/kbx/${id}.md`,
    text: id.replace(/-[0-9a-f]{8}$/, '').replace(/-/g, ' '),
    kind: 'canonical',
    captured_at: '2026-11-01T00:00:00Z',
  }));
  writeFileSync(join(dir, 'corpus.jsonl'), corpus.map((c) => JSON.stringify(c)).join('\n') + '\n');
  writeFileSync(join(dir, 'queries.jsonl'), queries.map((q) => JSON.stringify(q)).join('\n') + '\n');
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ mode: 'semantic', k: 5 }));
  writeFreeze(dir, { frozenOn: '2026-11-23' });
}

function spec(fixture: string, extraArgs: string[], semantic_win_modes?: SelectionMode[]): SuiteSpec {
  return {
    fixture,
    system: {
      type: 'command',
      argv: [...memoryCliRetrieveArgv(SUT), ...extraArgs],
      contract: 'memory-cli-v1',
      env: { MEMORY_CLI_REPLAY_LOCKED: LOCKED },
      timeout_ms: 20_000,
      ...(semantic_win_modes ? { semantic_win_modes } : {}),
    },
    replays: 2,
  };
}

async function run(name: string, s: SuiteSpec): Promise<RunOutcome> {
  return runSuite({
    name,
    spec: s,
    root,
    store: new MemoryRunStore(),
    runId: `mcli-${name}`,
    startedAt: '2026-11-23T00:00:00Z',
  });
}

const rate = (r: Report, id: string) => {
  const v = r.metrics.find((m) => m.id === id)!.value;
  return v.kind === 'rate' ? `${v.numerator}/${v.denominator}` : '';
};

let classic: RunOutcome;
let hybrid: RunOutcome;
let hybridQrels: RunOutcome;
let hybridGraded: RunOutcome;
let hybridStrict: RunOutcome;
let hybridCrash: RunOutcome;
let noWarnings: RunOutcome;
let probesPlain: RunOutcome;
let probesKeyed: RunOutcome;
let latency: RunOutcome;

beforeAll(async () => {
  ({ dir: root, cleanup } = tempDir('rgate-mcli-'));
  fixtureSet('mcli', [
    { query_id: 'q-review', text: REVIEW, useful_ids: ['cli-commands-4a43d031'] },
    { query_id: 'q-key', text: 'cli-commands-4a43d031', useful_ids: ['cli-commands-4a43d031'] },
    { query_id: 'q-none', text: 'zzqx qqvw', expect: { selection_mode: 'fallback_path_priority' } },
    { query_id: 'q-locked', text: LOCKED, useful_ids: ['cli-readme-ea1491fd'] },
  ]);
  fixtureSet('mcli-hybrid', [{ query_id: 'q-review', text: REVIEW, useful_ids: ['cli-commands-4a43d031'] }]);
  // the same query judged by qrels only: one relevant document (a CLI bench's expected_id), then two
  fixtureSet('mcli-hybrid-qrels', [
    { query_id: 'q-review', text: REVIEW, qrels: { 'cli-commands-4a43d031': 1, 'agents-37dd6836': 0 } },
  ]);
  fixtureSet('mcli-hybrid-graded', [
    {
      query_id: 'q-review',
      text: REVIEW,
      qrels: { 'cli-commands-4a43d031': 2, 'concepts-governance-1c616379': 3 },
    },
  ]);
  // hybrid with two queries the CLI fails on (no recording; locked) in both replays
  fixtureSet('mcli-hybrid-crash', [
    { query_id: 'q-review', text: REVIEW, useful_ids: ['cli-commands-4a43d031'] },
    { query_id: 'q-key', text: 'cli-commands-4a43d031', useful_ids: ['cli-commands-4a43d031'] },
    { query_id: 'q-locked', text: LOCKED, useful_ids: ['cli-readme-ea1491fd'] },
  ]);
  // memory-cli has no exact-key input: an exact-key probe reaches it only as query text
  const probes = [
    { query_id: 'q-review', text: REVIEW, useful_ids: ['cli-commands-4a43d031'] },
    {
      query_id: 'probe-key',
      text: 'cli-commands-4a43d031',
      exact_key: 'cli-commands-4a43d031',
      useful_ids: ['cli-commands-4a43d031'],
      expect: { selection_mode: 'fallback_exact_key' },
    },
    { query_id: 'probe-none', text: 'zzqx qqvw', expect: { no_match: true } },
  ];
  fixtureSet('mcli-probes', probes);
  // a policy that allows no warning: the CLI ran degraded (no embedding server) on every answer
  mkdirSync(join(root, 'gates'), { recursive: true });
  writeFileSync(
    join(root, 'gates', 'no-warnings.gate.json'),
    JSON.stringify({
      gate_id: 'no-warnings',
      version: '1.0.0',
      description: 'the system answers without writing to stderr',
      source: 'issue 24',
      min_queries: 1,
      rules: [{ metric: 'requests_warned', max: 0, description: 'no answer came with a warning' }],
    }),
  );
  // DERIVED, not recorded: the recorded classic answer with its reason replaced by the one the CLI
  // gives when its semantic path overruns its latency limit (726 ms against 700 ms), answered for
  // q-review on replay 2 only; replay 1 and every other query get the recordings as they are
  const derivedDir = join(root, 'derived');
  mkdirSync(derivedDir, { recursive: true });
  const classicAnswer = JSON.parse(readFileSync(join(RECORDINGS, 'retrieve-classic.json'), 'utf8')) as object;
  writeFileSync(
    join(derivedDir, 'DERIVED-retrieve-classic-latency.json'),
    JSON.stringify({ ...classicAnswer, reason: LATENCY_REASON }, null, 4),
  );
  writeFileSync(
    join(derivedDir, 'index.json'),
    JSON.stringify({ [`2:classic:${REVIEW}`]: 'DERIVED-retrieve-classic-latency.json' }),
  );
  const slow = spec('mcli', []);
  if (slow.system.type !== 'command') throw new Error('a command system');
  slow.system.env = {
    ...slow.system.env,
    MEMORY_CLI_REPLAY_DERIVED: join(derivedDir, 'index.json'),
    MEMORY_CLI_REPLAY_N: '{replay}',
  };
  latency = await run('latency', slow);
  classic = await run('classic', spec('mcli', []));
  hybrid = await run('hybrid', spec('mcli-hybrid', ['--mode', 'hybrid']));
  hybridQrels = await run('hybrid-qrels', spec('mcli-hybrid-qrels', ['--mode', 'hybrid']));
  hybridGraded = await run('hybrid-graded', spec('mcli-hybrid-graded', ['--mode', 'hybrid']));
  hybridStrict = await run('hybrid-strict', spec('mcli-hybrid', ['--mode', 'hybrid'], ['semantic']));
  hybridCrash = await run('hybrid-crash', spec('mcli-hybrid-crash', ['--mode', 'hybrid']));
  noWarnings = await run('no-warnings', { ...spec('mcli', []), gate: 'no-warnings' });
  probesPlain = await run('probes-plain', spec('mcli-probes', []));
  probesKeyed = await run('probes-keyed', spec('mcli-probes', ['--exact-key', '{exact_key}']));
}, 120_000);
afterAll(() => cleanup());

describe('memory-cli-v1 through the command adapter, on the recorded outputs', () => {
  it('every answered request passes the contract as the CLI printed it', () => {
    const answered = classic.observations.filter((o) => o.query_id !== 'q-locked');
    expect(answered).toHaveLength(6);
    for (const o of answered) {
      expect(o.contract, o.query_id).toEqual({ name: 'memory-cli-v1', valid: true, errors: [] });
      expect(o.ok).toBe(true);
    }
    const byQuery = Object.fromEntries(answered.filter((o) => o.replay === 1).map((o) => [o.query_id, o]));
    expect(byQuery['q-review']!.selection_mode).toBe('fallback_path_priority');
    expect(byQuery['q-review']!.fallback).toEqual({
      triggered: true,
      stage: 'path_priority',
      reason: GATE_REASON,
    });
    expect(byQuery['q-key']!.selection_mode).toBe('semantic');
    expect(byQuery['q-none']!.ranked.map((r) => r.score)).toEqual([0, 0, 0, 0, 0]);
    expect(hybrid.observations.every((o) => o.contract.valid && o.selection_mode === 'hybrid_rrf')).toBe(
      true,
    );
  });

  it('counts semantic wins by the contract setting, reported with the system', () => {
    const r = classic.report;
    expect(r.system.semantic_win_modes).toEqual(['semantic', 'hybrid_rrf']);
    // q-key: semantic and useful; q-review: useful only via the path-priority fallback; q-locked: error
    expect(rate(r, 'top1_useful_rate')).toBe('1/3');
    expect(rate(r, 'top1_useful_any_mode')).toBe('2/3');
    expect(rate(r, 'fallback_expectation_met')).toBe('1/1');
    expect(rate(hybrid.report, 'top1_useful_rate')).toBe('1/1');
    expect(hybridStrict.report.system.semantic_win_modes).toEqual(['semantic']);
    expect(rate(hybridStrict.report, 'top1_useful_rate')).toBe('0/1');
    expect(renderTerminal(hybrid.report)).toContain('semantic wins: semantic, hybrid_rrf');
    expect(renderMarkdown(hybridStrict.report)).toContain('semantic wins: semantic');
  });

  it("shows memory-cli evaluate's rates where they differ from rgate's, with why", () => {
    // classic: the CLI divides top-1 by all 4 queries (q-none has no expected id) and asks the two
    // fallback queries five times each (both stable); equal rates are not repeated
    const peers = classic.report.peer_figures!;
    expect(peers.map((p) => [p.id, p.source.split(': ')[1]])).toEqual([
      ['memory_cli_evaluate.top1_useful_rate', '1/4'],
      ['memory_cli_evaluate.fallback_determinism', '2/2'],
    ]);
    expect(peers[0]!.beside).toEqual({ metric: 'top1_useful_rate', value: 1 / 3 });
    // hybrid: nothing fell back, so the CLI says 1/1 by default where rgate says insufficient evidence
    expect(hybrid.report.peer_figures).toEqual([
      expect.objectContaining({
        id: 'memory_cli_evaluate.fallback_determinism',
        source: 'memory-cli evaluate (internal/retrieval/eval.go): 1/1 by default',
        beside: { metric: 'fallback_determinism', value: null },
        why: expect.stringContaining('rgate reports 0/0, insufficient evidence'),
      }),
    ]);
    expect(renderTerminal(hybrid.report)).toContain('memory_cli_evaluate.fallback_determinism = 1');
    // hybrid with failed requests: rgate measured 0/2 (both failing queries), and the why says so, not 0/0
    expect(rate(hybridCrash.report, 'fallback_determinism')).toBe('0/2');
    const crashWhy = hybridCrash.report.peer_figures!.find(
      (p) => p.id === 'memory_cli_evaluate.fallback_determinism',
    )!;
    expect(crashWhy.source).toBe('memory-cli evaluate (internal/retrieval/eval.go): 1/1 by default');
    expect(crashWhy.beside).toEqual({ metric: 'fallback_determinism', value: 0 });
    expect(crashWhy.why).toContain(
      "rgate's 0/2 counts the 2 queries that took a fallback or had a failed request",
    );
    expect(crashWhy.why).toContain('0 of them with the same outcome in every replay');
    expect(crashWhy.why).not.toContain('0/0');
    expect(renderMarkdown(hybrid.report)).toContain('1/1 by default');
    // numerator/denominator on both sides, under the peer's name, in every format
    expect(peers[0]).toMatchObject({ peer: 'memory-cli evaluate', numerator: 1, denominator: 4 });
    const line =
      "memory-cli evaluate: memory_cli_evaluate.top1_useful_rate = 1/4 (25.0%); rgate's top1_useful_rate = 1/3 (33.3%).";
    expect(renderTerminal(classic.report).replace(/\s+/g, ' ')).toContain(line);
    expect(renderMarkdown(classic.report)).toContain(
      '| memory-cli evaluate | `memory_cli_evaluate.top1_useful_rate` | 1/4 (25.0%) | `top1_useful_rate` | 1/3 (33.3%) |',
    );
    expect(renderHtml(hybrid.report, {})).toMatch(
      /<td>memory-cli evaluate<\/td><td><code>memory_cli_evaluate\.fallback_determinism<\/code><\/td><td class="num">1\/1 \(100\.0%\)<\/td><td><code>fallback_determinism<\/code><\/td><td class="num">0\/0 \(insufficient evidence\)<\/td>/,
    );
  });

  it("reads the CLI's expected id from qrels as from useful_ids, and says only what is true of the run", () => {
    // hybrid answers cli-commands-4a43d031 in hybrid_rrf: judged by one useful id or by one relevant
    // qrels line, the CLI's evaluate counts it (1/1, as rgate does), so no top-1 figure is shown
    for (const r of [hybrid.report, hybridQrels.report]) {
      expect(rate(r, 'top1_useful_rate')).toBe('1/1');
      expect(r.peer_figures!.map((p) => p.id)).toEqual(['memory_cli_evaluate.fallback_determinism']);
    }
    // two relevant documents: no single expected_id for the CLI's query file, so 0/1 beside rgate's 1/1,
    // and the why names that, not a denominator the two share
    const graded = hybridGraded.report.peer_figures!.find(
      (p) => p.id === 'memory_cli_evaluate.top1_useful_rate',
    )!;
    expect([graded.numerator, graded.denominator, graded.beside.value]).toEqual([0, 1, 1]);
    expect(graded.why).toContain('1 judged query names no single expected id');
    expect(graded.why).not.toContain('divides by all');
    // classic: the CLI divides by all 4 queries, rgate by 3; q-locked failed; every judged query has one id
    const top1 = classic.report.peer_figures!.find((p) => p.id === 'memory_cli_evaluate.top1_useful_rate')!;
    expect(top1.why).toContain('The CLI divides by all 4 queries; rgate by the 3 benchmark queries');
    expect(top1.why).toContain('1 query failed on replay 1');
    expect(top1.why).not.toContain('no single expected id');
    // a strict setting: hybrid_rrf is a CLI win and not rgate's, and the why says so
    const strict = hybridStrict.report.peer_figures!.find(
      (p) => p.id === 'memory_cli_evaluate.top1_useful_rate',
    )!;
    expect(strict.why).toBe(
      "rgate counts a top-1 selected in semantic (the system's semantic_win_modes), the CLI in semantic, embedding_semantic, hybrid_rrf: 1 query answered hybrid_rrf.",
    );
  });

  it('a shard file carries the setting too, so `rgate merge` measures with it', async () => {
    const shard = await runShard({
      name: 'hybrid-strict',
      spec: spec('mcli-hybrid', ['--mode', 'hybrid'], ['semantic']),
      root,
      shard: { index: 1, count: 1 },
    });
    expect(shard.system.semantic_win_modes).toEqual(['semantic']);
  });

  it('reports the CLI\'s own error text; a failure in every replay is stable, not "unstable"', () => {
    const r = classic.report;
    expect(r.errors).toMatchObject({
      requests: 8,
      failed: 2,
      by_class: [{ kind: 'crash', requests: 2, queries: 1, first: { query_id: 'q-locked', replay: 1 } }],
    });
    expect(r.errors!.by_class[0]!.first.stderr_tail).toContain('database is locked');
    const q = r.queries.find((x) => x.query_id === 'q-locked')!;
    expect(q.first_error).toMatchObject({ kind: 'crash', errored_replays: 2, kinds: ['crash'] });
    expect(q.deterministic).toBe(true);
    expect(rate(r, 'replay_determinism')).toBe('4/4');
    expect(r.replay_proof.identical).toBe(true);
    const text = renderTerminal(r);
    expect(text).toMatch(/Errors\n {2}2 of 8 requests failed \(25\.0%\) in 1 query/);
    expect(text).toContain('database is locked');
    expect(text).not.toContain('unstable across replays');
    expect(renderMarkdown(r)).toContain('database is locked');
    const html = renderHtml(r);
    expect(html).toContain(
      '<p class="meta" id="errors-headline">2 of 8 requests failed (25.0%) in 1 query</p>',
    );
    expect(html).toMatch(
      /<table id="error-queries">[\s\S]*q-locked[\s\S]*database is locked[\s\S]*<\/table>/,
    );
    expect(html).toContain('semantic wins: semantic, hybrid_rrf');
  });

  it('keeps the stderr of every answered request as warnings, counted, in every format', () => {
    const r = classic.report;
    const line = 'embedding unavailable; using token-overlap scoring: (replayed: detail not recorded)';
    // the answered requests each carry the CLI's line, its "warning:" word off; the failed ones do not
    for (const o of classic.observations) expect(o.warnings).toEqual(o.ok ? [line] : undefined);
    expect(r.warnings).toEqual({
      answered: 6,
      warned: 6,
      lines: [{ text: line, requests: 6, queries: 3, first: { query_id: 'q-key', replay: 1 } }],
      more_lines: 0,
    });
    expect(rate(r, 'requests_warned')).toBe('6/6');
    expect((JSON.parse(renderJson(r)) as Report).warnings).toEqual(r.warnings);
    const shown = `6/6 requests warned: ${line}`;
    const text = renderTerminal(r);
    expect(text).toContain('warnings: 6/6 answered requests wrote to stderr (see Warnings)');
    expect(text.replace(/\n {4}/g, ' ')).toContain(shown);
    expect(renderMarkdown(r)).toContain(`- ${shown.replace(/_/g, '\\_')}`);
    const html = renderHtml(r);
    expect(html).toContain('<h2 id="warnings">Warnings (stderr of answered requests)</h2>');
    expect(html).toContain(shown);
    expect(renderJunit(r)).toMatch(new RegExp(`<system-err>[^<]*${shown.replace(/[().;]/g, '\\$&')}`));
  });

  it('a gate rule can require none: requests_warned max 0 fails the degraded run', () => {
    const g = noWarnings.report.gate;
    expect(g.verdict).toBe('FAIL');
    expect(g.rules.find((x) => x.metric === 'requests_warned')).toMatchObject({
      status: 'fail',
      numerator: 6,
      denominator: 6,
    });
  });

  it('an exact-key probe the system cannot receive is not applicable, with the reason and the fix', () => {
    const r = probesPlain.report;
    expect(r.not_applicable).toEqual([
      {
        input: 'exact_key',
        query_ids: ['probe-key'],
        reason: 'its argv and env have no {exact_key}: the key would reach it only as query text',
        fix: expect.stringContaining('"--exact-key", "{exact_key}"'),
      },
    ]);
    const key = r.queries.find((q) => q.query_id === 'probe-key')!;
    expect(key.expectation_met).toBeUndefined();
    expect(key.not_applicable).toContain('no {exact_key}');
    // only the no-match probe is measured: memory-cli answers it by path priority, never no_match
    expect(rate(r, 'fallback_expectation_met')).toBe('0/1');
    const text = renderTerminal(r);
    expect(text).toContain('Probes this system cannot take (not applicable, not counted)');
    expect(text).toContain('1 exact_key probe not applicable to this system');
    expect(renderMarkdown(r)).toContain('not applicable to this system');
    expect(renderHtml(r)).toContain('<h2 id="not-applicable">');
    expect((JSON.parse(renderJson(r)) as Report).not_applicable).toEqual(r.not_applicable);
    // given {exact_key}, the probe is measured (and the replayed CLI still answers it semantically)
    const keyed = probesKeyed.report;
    expect(keyed.not_applicable).toBeUndefined();
    expect(rate(keyed, 'fallback_expectation_met')).toBe('0/2');
  });

  it('an unmet probe expectation no rule reads is listed apart, with the expectation, never as failing', () => {
    const r = probesKeyed.report;
    expect(r.gate.verdict).toBe('NONE'); // no gate: measures only, never a PASS
    // the benchmark query is a top-1 miss (useful only via fallback); the probes are not among them
    expect(r.failing_queries.map((q) => q.query_id)).toEqual(['q-review']);
    const none = r.queries.find((q) => q.query_id === 'probe-none')!;
    expect(none.failure_reasons).toEqual(['expectation not met (not gated)']);
    const text = renderTerminal(r);
    expect(text).toContain('Expectations not met (not gated) (2)');
    expect(text).toMatch(/probe-none +no_match \(nothing selected\) +fallback_path_priority:/);
    expect(text).toMatch(/probe-key +fallback_exact_key, top-1 +semantic:/);
    expect(text).toContain('Top-1 misses (1)');
    expect(renderMarkdown(r)).toContain('| `probe-none` | no\\_match (nothing selected) |');
    expect(renderHtml(r)).toContain('<h2 id="unmet-expectations">Expectations not met (not gated) (2)');
  });

  it("says why each fallback was taken, in the CLI's words, with its counts, in every format", () => {
    const r = latency.report;
    // replay 2 of q-review fell back for its latency, the rest for the confidence gate
    const slowOne = latency.observations.find((o) => o.query_id === 'q-review' && o.replay === 2)!;
    expect(slowOne.fallback).toEqual({ triggered: true, stage: 'path_priority', reason: LATENCY_REASON });
    expect(r.fallback_reasons).toEqual({
      fell_back: 4,
      unstated: 0,
      reasons: [
        {
          stage: 'path_priority',
          reason: GATE_REASON,
          requests: 3,
          queries: 2,
          first: { query_id: 'q-none', replay: 1 },
        },
        {
          stage: 'path_priority',
          reason: LATENCY_REASON,
          requests: 1,
          queries: 1,
          first: { query_id: 'q-review', replay: 2 },
        },
      ],
      more_reasons: 0,
    });
    // the reason is not fingerprinted: the same outcome for another stated cause replays identically
    expect(r.replay_proof.identical).toBe(true);
    expect(r.replay_proof.rollups).toEqual(classic.report.replay_proof.rollups);
    expect(rate(r, 'fallback_determinism')).toBe(rate(classic.report, 'fallback_determinism'));
    // the answer shown for a query (replay 1) carries its own reason
    const review = r.queries.find((q) => q.query_id === 'q-review')!;
    expect(review.actual).toMatchObject({ fallback_stage: 'path_priority', fallback_reason: GATE_REASON });
    expect(r.queries.find((q) => q.query_id === 'q-key')!.actual.fallback_reason).toBeUndefined();

    const gateLine = `3/4 fallbacks at path_priority: ${GATE_REASON} (2 queries, first q-none replay 1)`;
    const slowLine = `1/4 fallbacks at path_priority: ${LATENCY_REASON} (1 query, first q-review replay 2)`;
    const headline = "4 requests took a fallback, each with the system's stated reason";
    expect((JSON.parse(renderJson(r)) as Report).fallback_reasons).toEqual(r.fallback_reasons);
    const text = renderTerminal(r).replace(/\n {4}/g, ' ');
    expect(text).toContain("Fallback reasons (the system's own words)\n  " + headline);
    expect(text).toContain(gateLine);
    expect(text).toContain(slowLine);
    // q-review is a top-1 miss (useful only by fallback): its row names the reason under it
    expect(text).toMatch(/q-review[^\n]*\n[^\n]*\n {2}fell back \(path_priority\): semantic confidence gate/);
    const md = renderMarkdown(r);
    const e = (t: string) => t.replace(/_/g, '\\_');
    expect(md).toContain("### Fallback reasons (the system's own words)");
    expect(md).toContain(`- ${e(gateLine)}`);
    expect(md).toContain(`- ${e(slowLine)}`);
    expect(md).toContain(`cli-commands-4a43d031; ${e(`fell back (path_priority): ${GATE_REASON}`)} |`);
    const html = renderHtml(r);
    expect(html).toContain(`<h2 id="fallback-reasons">Fallback reasons (the system's own words)</h2>`);
    expect(html).toContain(
      `<p class="meta" id="fallback-reasons-headline">${headline.replace("'", '&#x27;')}</p>`,
    );
    expect(html).toContain(`<li class="mono">${gateLine}</li>`);
    expect(html).toContain(`<li class="mono">${slowLine}</li>`);
    expect(html).toMatch(
      /<td><code>q-review<\/code><\/td>[^\n]*<div class="meta fallback-reason">fell back \(path_priority\): semantic confidence gate failed; deterministic path-priority fallback used<\/div>/,
    );
  });

  it('a run whose fallbacks state no reason shows no reason section', () => {
    // hybrid took no fallback: the section counts none and no format draws it
    expect(hybrid.report.fallback_reasons).toEqual({
      fell_back: 0,
      unstated: 0,
      reasons: [],
      more_reasons: 0,
    });
    expect(renderTerminal(hybrid.report)).not.toContain('Fallback reasons');
    expect(renderMarkdown(hybrid.report)).not.toContain('Fallback reasons');
    expect(renderHtml(hybrid.report)).not.toContain('id="fallback-reasons"');
  });
});
