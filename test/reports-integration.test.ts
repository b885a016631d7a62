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
    expect(renderJunit(a)).toContain('<testsuite name="semantic-retrieval-v1" tests="9"');
    expect(renderHtml(a)).toContain('<canvas id="chart-modes"');
  });
});
