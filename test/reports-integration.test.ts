/**
 * The whole path a nightly CI run takes, on the real context-load fixture: pinned snapshot → builtin
 * engine (3 replays) → measures → semantic-retrieval-v1 gate → every renderer. Checks what no unit
 * test can: a real report passes the report schema, two runs of the same inputs give the same JSON
 * outside `environment` and `timing`, and the terminal output of real data still fits 80 columns.
 */
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runSuite } from '../harness/run-suite.js';
import { renderHtml, renderJson, renderJunit, renderMarkdown, renderTerminal } from '../reports/index.js';
import type { Report } from '../src/documents/index.js';
import { writeFreeze } from '../src/snapshot/index.js';
import { MemoryRunStore } from '../src/store/index.js';

const root = resolve(import.meta.dirname, '..');
let fixture: string;

async function run(runId: string): Promise<Report> {
  const out = await runSuite({
    name: 'context-load-semantic',
    root,
    store: new MemoryRunStore(),
    runId,
    startedAt: '2026-03-01T02:00:00Z',
    spec: { fixture, system: { type: 'builtin' }, gate: 'semantic-retrieval-v1', replays: 3 },
  });
  return out.report;
}

beforeAll(() => {
  const dir = mkdtempSync(join(tmpdir(), 'rgate-reports-int-'));
  fixture = join(dir, 'context-load');
  cpSync(join(root, 'fixtures', 'context-load'), fixture, { recursive: true });
  writeFreeze(fixture, { frozenOn: '2026-03-01' });
});

const withoutRunDependent = (json: string) => {
  const o = JSON.parse(json);
  delete o.environment;
  delete o.timing;
  return JSON.stringify(o);
};

describe('harness → gate → reports on the context-load fixture', () => {
  it('renders every format from a real run, and the JSON is stable across runs', async () => {
    const a = await run('run-a');
    const b = await run('run-b');
    const ja = renderJson(a);
    expect(withoutRunDependent(ja)).toBe(withoutRunDependent(renderJson(b)));
    expect(ja).not.toBe(renderJson(b)); // environment.run_id differs

    expect(a.gate.gate_id).toBe('semantic-retrieval-v1');
    expect(a.gate.rules.map((r) => r.metric)).toEqual([
      'query_count',
      'top1_useful_rate',
      'judged_top1',
      'fallback_determinism',
      'selection_mode_reporting',
      'source_trace_completeness',
    ]);
    expect(a.gate.checklist).toHaveLength(4);
    const terminal = renderTerminal(a, { color: false });
    expect(terminal.split('\n').filter((l) => l.length > 80)).toEqual([]);
    expect(terminal).toContain(`corpus_id      ${a.artifacts.corpus_id}`);
    expect(renderMarkdown(a)).toContain(
      `## ${a.gate.verdict === 'PASS' ? '✅' : a.gate.verdict === 'WATCH' ? '⚠️' : '❌'}`,
    );
    expect(renderJunit(a)).toContain(`<testsuite name="${a.suite}" tests="10"`);
    expect(renderHtml(a)).toContain('<canvas id="chart-modes"');
  });
});

describe('sections that apply to the suite (issue #14)', () => {
  async function runMode(mode: 'context-load' | 'semantic', gate: string | null): Promise<Report> {
    const out = await runSuite({
      name: `applies-${mode}`,
      root,
      store: new MemoryRunStore(),
      runId: `applies-${mode}`,
      startedAt: '2026-03-01T02:00:00Z',
      spec: { fixture, system: { type: 'builtin', mode }, config: { mode }, gate, replays: 1 },
    });
    return out.report;
  }

  it('a ranker without a selection step and without a gate: no selection data, NO GATE, misses only', async () => {
    const r = await runMode('context-load', null);
    expect(r.judging?.selection_step).toBe(false);
    expect(r.judging?.top1_useful_rule).toMatch(/by qrels: grade >= 1/);
    // JSON stays complete: every measure is still there
    expect(r.metrics.map((m) => m.id)).toContain('top1_useful_rate');
    // probes ask for selection modes: without a selection step they never fail
    expect(r.failing_queries.filter((q) => q.kind === 'probe')).toEqual([]);
    expect(r.failing_queries.every((q) => q.judged !== false)).toBe(true);
    const t = renderTerminal(r, { color: false });
    expect(t).toContain(' NO GATE  measures only, nothing enforced');
    expect(t).not.toContain('measures-only v-');
    expect(t).not.toContain('Selection modes');
    expect(t).not.toMatch(/^top1_useful_rate /m);
    expect(t).toMatch(/not shown \(see report.json\): top1_useful_rate, fallback_determinism,/);
    expect(t).toContain(`Top-1 misses (${r.failing_queries.length}): informational`);
    expect(t).toMatch(/^run applies-context-load$/m);
    const md = renderMarkdown(r);
    expect(md).not.toContain('Selection modes');
    expect(md).toContain('## ℹ️ NO GATE: measures only');
    const html = renderHtml(r);
    expect(html).not.toContain('id="chart-modes"');
  });

  it('with a selection step: a probe that met its expectation is not failing; one that did not is listed apart (no rule reads it)', async () => {
    const r = await runMode('semantic', 'semantic-retrieval-v1');
    expect(r.judging?.selection_step).toBe(true);
    const probes = r.queries.filter((q) => q.kind === 'probe');
    const met = probes.filter((q) => q.expectation_met === true && q.deterministic);
    expect(met.length).toBeGreaterThan(0);
    const failingIds = new Set(r.failing_queries.map((q) => q.query_id));
    for (const q of met) expect(failingIds.has(q.query_id)).toBe(false);
    const unmet = probes.filter((q) => q.expectation_met === false);
    // semantic-retrieval-v1 has no rule on fallback_expectation_met: an unmet one does not fail the gate
    for (const q of unmet) {
      expect(failingIds.has(q.query_id)).toBe(false);
      expect(q.failure_reasons).toContain('expectation not met (not gated)');
    }
    const t = renderTerminal(r, { color: false, maxFailing: 500 });
    expect(t).toContain('Selection modes');
    if (unmet.length) expect(t).toContain(`Expectations not met (not gated) (${unmet.length})`);
  });
});
