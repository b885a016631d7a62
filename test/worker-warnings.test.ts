/**
 * Warnings from a JSON-lines worker (issue 24): a worker's stderr is one stream for every request, so
 * a worker states a request's warnings in its answer line (`"warnings": [...]`), and rgate records
 * them exactly as it records a one-shot command's stderr: per observation, `requests_warned`, the
 * report's `warnings`, a gate rule that can require none. The worker is a real process
 * (test/sut/warning-worker.mjs) over a real frozen set.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSuite, type RunOutcome } from '../harness/run-suite.js';
import { renderTerminal } from '../reports/run/terminal.js';
import type { Report, SuiteSpec } from '../src/documents/index.js';
import { writeFreeze } from '../src/snapshot/index.js';
import { MemoryRunStore } from '../src/store/memory-store.js';
import { tempDir } from './history-helpers.js';

const WORKER = resolve(import.meta.dirname, 'sut', 'warning-worker.mjs');
const FALLBACK = 'embedding unavailable; using token-overlap scoring';
const NO_TERM = 'no term of the query is in the corpus';

let root: string;
let cleanup: () => void;
let plain: RunOutcome;
let gated: RunOutcome;
let bad: RunOutcome;

function spec(extra: string[] = []): SuiteSpec {
  return {
    fixture: 'docs',
    system: {
      type: 'command',
      argv: [process.execPath, WORKER, '{corpus_dir}', ...extra],
      worker: true,
      contract: 'rgate',
      timeout_ms: 20_000,
    },
    replays: 2,
  };
}

const run = (name: string, s: SuiteSpec): Promise<RunOutcome> =>
  runSuite({
    name,
    spec: s,
    root,
    store: new MemoryRunStore(),
    runId: `ww-${name}`,
    startedAt: '2026-11-26T00:00:00Z',
  });

const rate = (r: Report, id: string): string => {
  const v = r.metrics.find((m) => m.id === id)!.value;
  return v.kind === 'rate' ? `${v.numerator}/${v.denominator}` : v.kind;
};

beforeAll(async () => {
  ({ dir: root, cleanup } = tempDir('rgate-worker-warnings-'));
  const dir = join(root, 'fixtures', 'docs');
  mkdirSync(dir, { recursive: true });
  const corpus = [
    { id: 'rotate-keys', text: 'how to rotate the signing keys every quarter' },
    { id: 'budgets', text: 'context budgets per profile and their limits' },
    { id: 'retention', text: 'retention of decision records and their review' },
  ];
  writeFileSync(join(dir, 'corpus.jsonl'), corpus.map((c) => JSON.stringify(c)).join('\n') + '\n');
  const queries = [
    { query_id: 'q-keys', text: 'rotate signing keys', qrels: { 'rotate-keys': 1 } },
    { query_id: 'q-budget', text: 'context budgets', qrels: { budgets: 1 } },
    { query_id: 'q-none', text: 'zzqx qqvw', qrels: { retention: 1 } },
  ];
  writeFileSync(join(dir, 'queries.jsonl'), queries.map((q) => JSON.stringify(q)).join('\n') + '\n');
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ mode: 'bm25', k: 3 }));
  writeFreeze(dir, { frozenOn: '2026-11-26' });
  mkdirSync(join(root, 'gates'), { recursive: true });
  writeFileSync(
    join(root, 'gates', 'no-warnings.gate.json'),
    JSON.stringify({
      gate_id: 'no-warnings',
      version: '1.0.0',
      description: 'the system answers without a warning',
      min_queries: 1,
      rules: [{ metric: 'requests_warned', max: 0, description: 'no answer came with a warning' }],
    }),
  );
  plain = await run('plain', spec());
  gated = await run('gated', { ...spec(), gate: 'no-warnings' });
  bad = await run('bad', spec(['--bad-warnings']));
}, 120_000);
afterAll(() => cleanup());

describe("a JSON-lines worker's warnings field", () => {
  it('is kept per answered request, normalised and deduplicated like stderr; the worker’s own stderr is not', () => {
    expect(plain.observations).toHaveLength(6);
    for (const o of plain.observations) {
      expect(o.ok, o.query_id).toBe(true);
      expect(o.warnings).toEqual(o.query_id === 'q-none' ? [FALLBACK, NO_TERM] : [FALLBACK]);
    }
    const w = plain.report.warnings!;
    expect(w).toEqual({
      answered: 6,
      warned: 6,
      lines: [
        { text: FALLBACK, requests: 6, queries: 3, first: { query_id: 'q-budget', replay: 1 } },
        { text: NO_TERM, requests: 2, queries: 1, first: { query_id: 'q-none', replay: 1 } },
      ],
      more_lines: 0,
    });
    // the start-up log line on the worker's stderr belongs to no request
    expect(JSON.stringify(w)).not.toContain('worker started');
    expect(rate(plain.report, 'requests_warned')).toBe('6/6');
    expect(renderTerminal(plain.report).replace(/\n {4}/g, ' ')).toContain(
      `6/6 requests warned: ${FALLBACK}`,
    );
  });

  it('a gate rule can require none: requests_warned max 0 fails the run', () => {
    expect(gated.report.gate.verdict).toBe('FAIL');
    expect(gated.report.gate.rules.find((r) => r.metric === 'requests_warned')).toMatchObject({
      status: 'fail',
      numerator: 6,
      denominator: 6,
    });
  });

  it('a warnings field that is not a list of strings is a protocol error, named', () => {
    for (const o of bad.observations) {
      expect(o.ok).toBe(false);
      expect(o.error).toMatchObject({ kind: 'protocol' });
      expect(o.error!.message).toContain(
        '"warnings" must be an array of strings (one warning each), got "7"',
      );
    }
  });
});
