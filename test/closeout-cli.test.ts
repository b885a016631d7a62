/**
 * `rgate closeout` on real runs of the bundled Lumen set, through the real CLI and a real SQLite
 * history: the closeout must say what the run's own report says about the same run (its checklist),
 * judge failing queries by the gate it applies, name that gate truthfully, show what the run changed,
 * and refuse a run it cannot close out with a hint.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CloseoutDoc, Report } from '../src/documents/index.js';
import { runCli } from '../src/cli/program.js';
import { SqliteRunStore } from '../src/store/index.js';
import { captureIo } from './helpers/cli-io.js';
import { REPO } from './helpers/dist.js';

const project = mkdtempSync(join(tmpdir(), 'rgate-closeout-cli-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));
cpSync(join(REPO, 'rgate.config.json'), join(project, 'rgate.config.json'));
cpSync(join(REPO, 'gates'), join(project, 'gates'), { recursive: true });
cpSync(join(REPO, 'fixtures', 'context-load'), join(project, 'fixtures', 'context-load'), {
  recursive: true,
});

async function rgate(...argv: string[]) {
  const io = captureIo(project);
  const code = await runCli(argv, io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

const reportOf = (runId: string): Report =>
  JSON.parse(readFileSync(join(project, '.rgate', 'runs', runId, 'report.json'), 'utf8')) as Report;
const closeoutOf = (out: string): CloseoutDoc => JSON.parse(out) as CloseoutDoc;
const runIdOf = (out: string) => /reports: \.rgate\/runs\/(\S+)\/report/.exec(out)![1]!;

/** The semantic suite under its gate with a top-1 threshold this set passes: its run PASSes. */
function passingSemanticGate(): void {
  const gate = JSON.parse(readFileSync(join(REPO, 'gates', 'semantic-retrieval-v1.gate.json'), 'utf8'));
  gate.gate_id = 'semantic-passing';
  for (const r of gate.rules) if (r.metric === 'top1_useful_rate') r.min = 0.3;
  writeFileSync(join(project, 'gates', 'semantic-passing.gate.json'), JSON.stringify(gate));
  const config = JSON.parse(readFileSync(join(project, 'rgate.config.json'), 'utf8'));
  config.suites.semantic.gate = 'semantic-passing';
  writeFileSync(join(project, 'rgate.config.json'), JSON.stringify(config));
}

let semanticRun = '';
let contextRun = '';
beforeAll(async () => {
  passingSemanticGate();
  const s = await rgate('run', 'semantic', '--replays', '2');
  expect(s.code, s.err).toBe(0);
  semanticRun = runIdOf(s.out);
  const c = await rgate(
    'run',
    'context-load',
    '--replays',
    '2',
    '--set',
    'weighting_mode=evidence_outcome_bias',
  );
  expect(c.code, c.err).toBe(0);
  contextRun = runIdOf(c.out);
}, 60_000);

describe('rgate closeout on real runs', () => {
  it('checks the QA checklist on the evidence the run report was checked on', async () => {
    const report = reportOf(semanticRun);
    expect(report.gate.verdict).toBe('PASS');
    const r = await rgate('closeout', 'semantic', '--json');
    expect(r.code, r.err).toBe(0);
    const doc = closeoutOf(r.out);
    expect(doc.gate.verdict).toBe('PASS');
    expect(doc.gate.checklist).toEqual(report.gate.checklist);
    expect(doc.gate.checklist.find((i) => i.id === 'fallback_ordering_and_determinism')?.ok).toBe(true);
  });
});

describe('rgate closeout: failing queries', () => {
  it('are those the applied gate counts, not those of the gate the run was made under', async () => {
    const report = reportOf(semanticRun);
    // the run's gate rules on top-1: its report lists top-1 misses
    expect(report.failing_queries.some((q) => q.failure_reasons?.includes('top-1 not useful'))).toBe(true);
    const r = await rgate('closeout', 'semantic', '--gate', 'context-load-contract-v0', '--json');
    const doc = closeoutOf(r.out);
    expect(doc.gate.gate_id).toBe('context-load-contract-v0');
    // the contract gate judges no top-1: no query counts against it for its top-1
    expect(doc.failing_queries.filter((q) => q.failure_reasons?.includes('top-1 not useful'))).toEqual([]);
    expect(doc.failing_queries.length).toBeLessThan(report.failing_queries.length);
    // each listed query says why it counts, in the words the gate's rules give it
    for (const q of doc.failing_queries) expect(q.failure_reasons?.length).toBeGreaterThan(0);
  });
});

describe('rgate closeout: what the document claims to be', () => {
  it("under the suite's own (contract) gate it is no Gate C closeout, and says which gate it applied", async () => {
    const r = await rgate('closeout', 'context-load', '--out', 'co-contract');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^Closeout of context-load: PASS \(context-load-contract-v0\) on run /);
    expect(r.out).toContain('context-load-contract-v0 is not a Gate C gate');
    expect(r.out).not.toContain('Gate C closeout');
    const md = readFileSync(join(project, 'co-contract', 'closeout.md'), 'utf8');
    expect(md).toMatch(/^# Closeout: context-load under context-load-contract-v0\n/);
    expect(md).not.toContain('Ready to close once signed off');
    const html = readFileSync(join(project, 'co-contract', 'closeout.html'), 'utf8');
    expect(html).toContain('<h1>Closeout: context-load under context-load-contract-v0</h1>');
    expect(html).not.toContain('Gate C closeout');
  });
});

describe('rgate closeout: what the run changed', () => {
  it("shows the run's overrides as key=value in JSON, Markdown and HTML", async () => {
    const r = await rgate('closeout', 'context-load', '--run', contextRun, '--out', 'co-set', '--json');
    expect(r.code, r.err).toBe(0);
    const doc = closeoutOf(r.out);
    expect(doc.run.run_id).toBe(contextRun);
    expect(doc.run.overrides).toContain('weighting_mode=evidence_outcome_bias');
    const md = readFileSync(join(project, 'co-set', 'closeout.md'), 'utf8');
    expect(md).toMatch(/^Overrides of the frozen config: .*`weighting_mode=evidence_outcome_bias`/m);
    const html = readFileSync(join(project, 'co-set', 'closeout.html'), 'utf8');
    expect(html).toContain('<code>weighting_mode&#x3D;evidence_outcome_bias</code>');
  });
});

describe('rgate closeout: a run it cannot close out', () => {
  it('refuses a run of another suite and an unfinished or failed run, each with the command that helps', async () => {
    const other = await rgate('closeout', 'context-load', '--run', semanticRun);
    expect(other.code).toBe(2);
    expect(other.err).toContain(`run ${semanticRun} belongs to suite "semantic", not "context-load"`);
    expect(other.err).toContain(`rgate closeout semantic --run ${semanticRun}`);
    expect(other.err).toContain('rgate history context-load');

    const store = new SqliteRunStore(join(project, '.rgate', 'history.sqlite'));
    const done = store.getRun(contextRun)!;
    const stored = { suite: done.suite, artifacts: done.artifacts, settings: done.settings };
    store.beginRun({ run_id: 'run-int', started_at: '2026-01-01T00:00:00Z', ...stored });
    store.finishRun('run-int', { status: 'interrupted', finished_at: '2026-01-01T00:01:00Z', metrics: [] });
    store.beginRun({ run_id: 'run-failed', started_at: '2026-01-01T00:00:00Z', ...stored });
    store.finishRun('run-failed', { status: 'failed', finished_at: '2026-01-01T00:01:00Z', metrics: [] });
    store.close();
    const interrupted = await rgate('closeout', 'context-load', '--run', 'run-int');
    expect(interrupted.code).toBe(2);
    expect(interrupted.err).toContain('run run-int is interrupted: only a complete run can be closed out');
    expect(interrupted.err).toContain('rgate run --resume run-int');
    const failed = await rgate('closeout', 'context-load', '--run', 'run-failed');
    expect(failed.code).toBe(2);
    expect(failed.err).toContain('rgate run context-load');
  });
});
