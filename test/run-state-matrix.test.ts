/**
 * Issue 33: every sentence a report prints is true in every run state. Each state is made by a real
 * run (runSuite, a real JSON-lines worker process as the system under test, a real SQLite store) and every
 * format is rendered from it; each assertion is derived from what the store says ran (the
 * observations: which requests were made, which failed, which replays differ), never copied from an
 * earlier output.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyFromStore } from '../history/trends.js';
import { runPageView, runsListView } from '../history/dashboard-views.js';
import { planRun } from '../harness/run-plan.js';
import { buildRunReport, inReportOrder } from '../harness/run-report.js';
import { runSuite } from '../harness/run-suite.js';
import { dashboardLinks } from '../reports/dashboard/links.js';
import { renderRunPage, renderRunsListPage } from '../reports/dashboard/pages.js';
import {
  renderHistoryHtml,
  renderHistoryJson,
  renderHistoryMarkdown,
  renderHistoryTerminal,
} from '../reports/history/trends.js';
import { renderHtml } from '../reports/run/html.js';
import { renderJson } from '../reports/run/json.js';
import { renderJunit } from '../reports/run/junit.js';
import { renderMarkdown } from '../reports/run/markdown.js';
import { renderTerminal } from '../reports/run/terminal.js';
import type { Observation, Report, SuiteSpec } from '../src/documents/index.js';
import { writeFreeze } from '../src/snapshot/index.js';
import { asAsync, SqliteRunStore } from '../src/store/index.js';

const SUT = resolve(import.meta.dirname, 'sut', 'runner', 'states.mjs');
const QUERIES = 10;
let root = '';
let store: SqliteRunStore;

/** Two judged documents and one no judgment covers; every query judges doc-a useful, doc-b not. */
function writeSet(dir: string, queries: number): void {
  mkdirSync(dir, { recursive: true });
  const docs = ['a', 'b', 'c'].map((x, i) =>
    JSON.stringify({
      id: `doc-${x}`,
      source_path: `docs/${x}.md`,
      text: `${x} document`,
      kind: 'canonical',
      captured_at: `2026-01-0${i + 1}T00:00:00Z`,
    }),
  );
  writeFileSync(join(dir, 'corpus.jsonl'), docs.join('\n') + '\n');
  const qs = Array.from({ length: queries }, (_, i) =>
    JSON.stringify({ query_id: `q${i}`, text: `question ${i}`, qrels: { 'doc-a': 1, 'doc-b': 0 } }),
  );
  writeFileSync(join(dir, 'queries.jsonl'), qs.join('\n') + '\n');
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ mode: 'semantic', k: 10 }));
  writeFreeze(dir, { frozenOn: '2026-11-28' });
}

function gate(id: string, minQueries: number, rules: object[]): string {
  const path = join(root, `${id}.gate.json`);
  writeFileSync(
    path,
    JSON.stringify({
      gate_id: id,
      version: '1',
      description: `matrix ${id}`,
      min_queries: minQueries,
      rules,
    }),
  );
  return path;
}

interface State {
  name: string;
  /** the suite's gate (a path), or null */
  gate: string | null;
  sut: string;
  replays: number;
  /** stop the run after this many requests (a SIGINT as the harness sees it) */
  interruptAfter?: number;
  /** report the stopped run as `rgate report` reports an abandoned one */
  reportPartial?: boolean;
  /** then resume it to the end */
  resume?: boolean;
}

interface Made {
  state: State;
  runId: string;
  report: Report;
  /** what the store says ran */
  observations: Observation[];
}

const made: Made[] = [];

async function make(state: State, n: number): Promise<Made> {
  const spec = {
    fixture: state.name === 'few' ? 'few' : 'set',
    system: {
      type: 'command',
      argv: [process.execPath, SUT],
      worker: true,
      contract: 'rgate',
      env: { SUT_STATE: state.sut },
    },
    replays: state.replays,
    concurrency: 1,
    gate: state.gate,
  } as SuiteSpec;
  const runId = `run-${String(n).padStart(2, '0')}-${state.name}`;
  const controller = new AbortController();
  let ticks = 0;
  const base = {
    name: state.name,
    spec,
    root,
    store,
    runId,
    startedAt: `2026-11-28T00:${String(n).padStart(2, '0')}:00Z`,
    finishedAt: () => `2026-11-28T00:${String(n).padStart(2, '0')}:30Z`,
  };
  let outcome = await runSuite({
    ...base,
    ...(state.interruptAfter !== undefined
      ? {
          signal: controller.signal,
          progress: {
            start() {},
            finish() {},
            tick() {
              if (++ticks >= state.interruptAfter!) controller.abort();
            },
          },
        }
      : {}),
  });
  let report = outcome.report;
  if (state.reportPartial) {
    const row = store.getRun(runId)!;
    const plan = planRun({ name: state.name, spec, root, store, replays: state.replays });
    report = buildRunReport(plan, inReportOrder(store.getObservations(runId)), {
      runId,
      startedAt: row.started_at,
      system: row.plan!.system,
      wallMs: 0,
      partial: 'abandoned',
    });
  }
  if (state.resume) {
    outcome = await runSuite({ ...base, resume: true });
    report = outcome.report;
  }
  return { state, runId, report, observations: store.getObservations(runId) };
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'rgate-matrix-'));
  writeSet(join(root, 'fixtures', 'set'), QUERIES);
  writeSet(join(root, 'fixtures', 'few'), 4);
  store = new SqliteRunStore(join(root, 'history.sqlite'));
  const lenient = gate('lenient', 1, [{ metric: 'error_rate', max: 0 }]);
  const watched = gate('watched', 1, [{ metric: 'error_rate', max: 0.5, watch_band: [0, 0.1] }]);
  const strict = gate('strict', 1, [
    { metric: 'error_rate', max: 0 },
    { metric: 'replay_determinism', min: 1 },
    { metric: 'fallback_determinism', min: 1 },
    { metric: 'judged_top1', min: 0.95 },
  ]);
  const sized = gate('sized', 8, [
    { metric: 'judged_top1', min: 0.95, min_denominator: 8 },
    { metric: 'top1_useful_rate', min: 0.5, min_denominator: 8 },
  ]);
  const states: State[] = [
    { name: 'no-gate', gate: null, sut: 'ok', replays: 2 },
    { name: 'no-gate-down', gate: null, sut: 'down', replays: 2 },
    { name: 'pass', gate: lenient, sut: 'ok', replays: 2 },
    { name: 'pass-1-replay', gate: lenient, sut: 'ok', replays: 1 },
    { name: 'watch', gate: watched, sut: 'ok', replays: 3 },
    { name: 'fail-holes', gate: strict, sut: 'holes', replays: 2 },
    { name: 'down-replay-1', gate: strict, sut: 'down', replays: 2 },
    { name: 'down-replay-2', gate: strict, sut: 'once', replays: 2 },
    { name: 'interrupted', gate: strict, sut: 'ok', replays: 2, interruptAfter: 13 },
    { name: 'partial', gate: strict, sut: 'ok', replays: 2, interruptAfter: 7, reportPartial: true },
    { name: 'resumed', gate: strict, sut: 'ok', replays: 2, interruptAfter: 7, resume: true },
    { name: 'few', gate: sized, sut: 'ok', replays: 2 },
  ];
  for (const [i, s] of states.entries()) made.push(await make(s, i));
}, 120_000);

afterAll(() => {
  store?.close();
  rmSync(root, { recursive: true, force: true });
});

/** What ran, from the store alone. */
function evidenceOf(m: Made) {
  const byQuery = new Map<string, Observation[]>();
  for (const o of m.observations) byQuery.set(o.query_id, [...(byQuery.get(o.query_id) ?? []), o]);
  const queries = m.state.name === 'few' ? 4 : QUERIES;
  const differs = [...byQuery.values()].some((l) => new Set(l.map((o) => o.fingerprint)).size > 1);
  const maxReplaysRun = Math.max(0, ...[...byQuery.values()].map((l) => l.length));
  // queries whose determinism the store can show either way: every replay ran, or two that ran differ
  const shown = [...byQuery.values()].filter(
    (l) => l.length === m.state.replays || new Set(l.map((o) => o.fingerprint)).size > 1,
  ).length;
  return {
    made: m.observations.length,
    planned: queries * m.state.replays,
    failed: m.observations.filter((o) => !o.ok).length,
    differs,
    maxReplaysRun,
    shown,
    everyReplayRan:
      byQuery.size === queries && [...byQuery.values()].every((l) => l.length === m.state.replays),
  };
}

function formats(m: Made): [string, string][] {
  return [
    ['terminal', renderTerminal(m.report, { color: false, width: 200 })],
    ['markdown', renderMarkdown(m.report)],
    ['html', renderHtml(m.report)],
    ['junit', renderJunit(m.report)],
  ];
}

/** Text a reader sees: the HTML's tags dropped (attribute values are not sentences). */
const visible = (name: string, text: string) =>
  name === 'html'
    ? text.replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/g, '').replace(/<[^>]+>/g, ' ')
    : text;

describe('the run-state matrix: every sentence true to what ran', () => {
  it('made every state, each with what it was meant to show', () => {
    const by = (n: string) => made.find((m) => m.state.name === n)!;
    expect(by('no-gate').report.gate.verdict).toBe('NONE');
    expect(by('pass').report.gate.verdict).toBe('PASS');
    expect(by('watch').report.gate.verdict).toBe('WATCH');
    expect(by('fail-holes').report.gate.verdict).toBe('FAIL');
    expect(by('down-replay-1').report.gate.overruled).toBe('down');
    expect(evidenceOf(by('down-replay-2')).differs).toBe(true);
    expect(by('interrupted').report.gate.overruled).toBe('interrupted');
    expect(by('partial').report.gate.overruled).toBe('partial');
    expect(by('resumed').report.evidence?.state).toBe('complete');
    expect(by('few').report.gate.cause).toBe('queries');
  });

  for (const name of [
    'no-gate',
    'no-gate-down',
    'pass',
    'pass-1-replay',
    'watch',
    'fail-holes',
    'down-replay-1',
    'down-replay-2',
    'interrupted',
    'partial',
    'resumed',
    'few',
  ]) {
    it(`${name}: the report's evidence section and every format agree with the store`, () => {
      const m = made.find((x) => x.state.name === name)!;
      const e = evidenceOf(m);
      const r = m.report;
      // the evidence section is the store's account
      expect(r.evidence).toMatchObject({
        requests: { planned: e.planned, made: e.made, failed: e.failed, not_run: e.planned - e.made },
        replays: { planned: m.state.replays },
      });
      // JSON: no divergence without two replays that ran and differ; nothing "identical" short of every replay
      const json = JSON.parse(renderJson(r)) as Report;
      expect(json.replay_proof.status).toBe(
        e.differs ? 'divergent' : e.everyReplayRan ? 'identical' : 'unproven',
      );
      expect(json.replay_proof.identical).toBe(!e.differs && e.everyReplayRan);
      for (const q of json.queries) {
        if (!e.differs) expect(q.failure_reasons ?? []).not.toContain('unstable across replays');
        if (q.first_error) expect(q.first_error.observed_replays).toBeLessThanOrEqual(e.maxReplaysRun);
      }
      // an errored request has no top-1 to judge: judged_top1 counts only the answered
      const judged = json.metrics.find((x) => x.id === 'judged_top1')!.value;
      if (judged.kind === 'rate') expect(judged.denominator).toBeLessThanOrEqual(e.made - e.failed);
      // determinism is counted only where the replays that ran can show it (never 0/68 from replays never run)
      for (const id of ['replay_determinism', 'fallback_determinism']) {
        const v = json.metrics.find((x) => x.id === id)!.value;
        if (v.kind === 'rate') expect(v.denominator, `${name} ${id}`).toBeLessThanOrEqual(e.shown);
      }
      // a gate's verdict only where a gate ran
      expect(json.gate.verdict === 'NONE').toBe(m.state.gate === null);

      for (const [format, raw] of formats(m)) {
        const text = visible(format, raw);
        const where = `${name} ${format}`;
        if (!e.differs)
          expect(text, where).not.toMatch(/divergent|varies across replays|unstable across replays/i);
        if (m.state.gate === null) {
          expect(text, where).not.toMatch(/\b(PASS|WATCH)\b/);
          // a no-gate run that is down failed, but no gate judged it: FAIL only as the outage's own word
          if (format !== 'junit') expect(text, where).not.toMatch(/\bFAIL\b/);
        }
        // every "n of d requests" counts what was made
        for (const [, , d] of text.matchAll(/(\d+) of (\d+) requests(?! planned)/g))
          expect(Number(d), `${where}: "${d}" requests`).toBe(e.made);
        // every "n/d replays" per query divides by replays that ran
        for (const [, , d] of text.matchAll(/(\d+)\/(\d+) replays/g))
          expect(Number(d), `${where}: /${d} replays`).toBeLessThanOrEqual(e.maxReplaysRun);
        if (r.gate.cause === 'queries') {
          expect(text, where).toMatch(/too few queries/);
          expect(text, where).not.toMatch(/insufficient judgments|top-1s unjudged/);
        }
        if (r.gate.cause === 'judgments') expect(text, where).toMatch(/label pool/);
      }
    });
  }

  it('rgate history in every format, and the dashboard, say NONE for the no-gate run, never PASS', async () => {
    const h = historyFromStore(store, 'no-gate');
    for (const [format, text] of [
      ['terminal', renderHistoryTerminal(h, { color: false, width: 200 })],
      ['markdown', renderHistoryMarkdown(h)],
      ['html', visible('html', renderHistoryHtml(h))],
    ] as const) {
      expect(text, format).toMatch(/\bNONE\b/);
      expect(text, format).not.toMatch(/\b(PASS|WATCH|FAIL)\b/);
    }
    expect(JSON.parse(renderHistoryJson(h)).runs.map((x: { verdict: string }) => x.verdict)).toEqual([
      'NONE',
    ]);
    const links = dashboardLinks();
    const async = asAsync(store);
    const list = renderRunsListPage(await runsListView(async, 'p', { suite: 'no-gate' }), links);
    // the table's rows (the filter form above it offers every verdict word)
    const rows = list.slice(list.indexOf('<tbody>'), list.indexOf('</tbody>'));
    expect(visible('html', rows)).toMatch(/\bNONE\b/);
    expect(visible('html', rows)).not.toMatch(/\bPASS\b/);
    const page = renderRunPage(await runPageView(async, 'p', made[0]!.runId), links);
    expect(visible('html', page)).not.toMatch(/\bPASS\b/);
  });

  it('a resumed run reports what a straight run reports', () => {
    const resumed = made.find((m) => m.state.name === 'resumed')!.report;
    const straight = made.find((m) => m.state.name === 'pass')!.report;
    expect(resumed.replay_proof.status).toBe('identical');
    const ids = (r: Report) => r.metrics.filter((x) => x.id !== 'latency_ms').map((x) => [x.id, x.value]);
    // the same answers give the same measures, whichever gate reads them
    expect(ids(resumed)).toEqual(ids(straight));
  });
});
