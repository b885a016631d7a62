/**
 * The CI files rgate gives teams, checked as CI systems read them: action.yml and every GitHub
 * workflow (docs/ci.md, the `rgate init --ci github` template) against GitHub's published schemas
 * with @action-validator/core; the GitLab files (docs/ci.md, the `--ci gitlab` template) parsed as
 * YAML, with the job keys rgate relies on (the rgate command, the JUnit report, the kept history).
 * Every path that keeps the history checks its regression alarms after a passed gate.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateAction, validateWorkflow } from '@action-validator/core';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { REPO } from './helpers/dist.js';

const read = (rel: string) => readFileSync(join(REPO, rel), 'utf8');

/** The yaml blocks of a section of docs/ci.md ("## GitHub Actions" up to the next "## "). */
function yamlBlocks(section: string): string[] {
  const doc = read('docs/ci.md');
  const start = doc.indexOf(`## ${section}`);
  expect(start, section).toBeGreaterThanOrEqual(0);
  const end = doc.indexOf('\n## ', start + 3);
  const text = doc.slice(start, end < 0 ? undefined : end);
  return [...text.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

const GITHUB_WORKFLOWS: [string, string][] = [
  ...yamlBlocks('GitHub Actions').map((y, i): [string, string] => [`docs/ci.md GitHub block ${i + 1}`, y]),
  ['templates/github-workflow.yml', read('templates/github-workflow.yml')],
];

interface Step {
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string>;
}

/**
 * The history is restored before the gate and saved after it on every outcome: `actions/cache`
 * alone saves only when the job succeeds (its post step is `if: success()`), so the FAIL runs a
 * regression alarm needs would never reach the next run.
 */
function expectHistorySavedAlways(steps: Step[], gate: string): void {
  expect(steps.some((s) => s.uses?.startsWith('actions/cache@'))).toBe(false);
  const restore = steps.findIndex((s) => s.uses === 'actions/cache/restore@v4');
  const save = steps.findIndex((s) => s.uses === 'actions/cache/save@v4');
  const run = steps.findIndex((s) => (s.id ? `steps.${s.id}` : s.run) === gate);
  expect(
    [restore, run, save].every((i) => i >= 0),
    `${restore} ${run} ${save}`,
  ).toBe(true);
  expect(restore).toBeLessThan(run);
  expect(save).toBeGreaterThan(run);
  for (const i of [restore, save]) expect(steps[i]!.with!['path']).toContain('.rgate/history.sqlite');
  expect(steps[save]!.if).toMatch(/^always\(\)/);
  expect(steps[save]!.with!['key']).toBe(steps[restore]!.with!['key']);
}

describe('GitHub: the action and the workflows against their schemas', () => {
  it('action.yml is a valid action', () => {
    expect(validateAction(read('action.yml')).errors).toEqual([]);
  });

  it('a broken action is caught (the validator is not a no-op)', () => {
    const broken = read('action.yml').replace('using: composite', 'using: compost');
    expect(validateAction(broken).errors.length).toBeGreaterThan(0);
  });

  it.each(GITHUB_WORKFLOWS)('%s is a valid workflow', (_name, text) => {
    expect(validateWorkflow(text).errors).toEqual([]);
  });

  it('the docs use the action for the gate, the shards and the merge', () => {
    const [docs] = yamlBlocks('GitHub Actions');
    const jobs = (
      parse(docs!) as { jobs: Record<string, { steps: { uses?: string; with?: Record<string, string> }[] }> }
    ).jobs;
    const action = (job: string) => jobs[job]!.steps.find((s) => s.uses === './node_modules/rgate');
    expect(action('gate')).toBeDefined();
    expect(action('shard')!.with!['shard']).toBe('${{ matrix.shard }}/3');
    expect(action('merge')!.with!['merge']).toBe('rgate-shard-*.json');
  });

  it('every job that keeps the history checks regression alarms after the gate (the action by default)', () => {
    let checked = 0;
    for (const [name, text] of GITHUB_WORKFLOWS) {
      const jobs = (parse(text) as { jobs: Record<string, { steps: Step[] }> }).jobs;
      for (const [job, { steps }] of Object.entries(jobs)) {
        const action = steps.find((s) => s.uses === './node_modules/rgate');
        if (action) {
          if (action.with?.['shard']) continue;
          expect(action.with?.['fail-on-alarm'], `${name} ${job}`).toBeUndefined();
          checked++;
          continue;
        }
        if (!steps.some((s) => s.with?.['path']?.includes('.rgate/history.sqlite'))) continue;
        const gate = steps.findIndex((s) => /^npx rgate (run|merge)\b/.test(s.run ?? ''));
        const alarm = steps.findIndex((s) => /^npx rgate history\b.*--fail-on-alarm/.test(s.run ?? ''));
        expect(gate, `${name} ${job}`).toBeGreaterThanOrEqual(0);
        expect(alarm, `${name} ${job}`).toBeGreaterThan(gate);
        // after a passed gate only: a FAIL, an outage or an interruption keeps its own exit code
        expect(steps[alarm]!.if, `${name} ${job}`).toBeUndefined();
        checked++;
      }
    }
    // the docs' PR gate and merge, and the init workflow
    expect(checked).toBe(3);
    const inputs = (parse(read('action.yml')) as { inputs: Record<string, { default: string }> }).inputs;
    expect(inputs['fail-on-alarm']!.default).toBe('true');
  });

  it.each([
    // [case, suites, rgate run's code, rgate history's code, exit code, history calls]
    ['passed gate, no alarm', '', 0, 0, 0, ['history --fail-on-alarm']],
    ['passed gate, alarm', '', 0, 1, 1, ['history --fail-on-alarm']],
    [
      'each suite given is checked',
      'a b',
      0,
      0,
      0,
      ['history a --fail-on-alarm', 'history b --fail-on-alarm'],
    ],
    ['failed gate keeps its code', '', 1, 1, 1, []],
    ['system down keeps its code', '', 3, 1, 3, []],
    ['interrupted keeps its code', '', 130, 1, 130, []],
  ] as const)('the action: %s', (_case, suites, runCode, histCode, code, calls) => {
    const a = parse(read('action.yml')) as { runs: { steps: (Step & { env?: Record<string, string> })[] } };
    const script = a.runs.steps.find((s) => s.id === 'gate')!.run!;
    const dir = mkdtempSync(join(tmpdir(), 'rgate-action-'));
    try {
      // npx stands in for the runner's rgate: it logs what it was asked and exits with the code given
      writeFileSync(
        join(dir, 'npx'),
        '#!/bin/sh\necho "$*" >> "$LOG"\n[ "$2" = history ] && exit "$HIST_CODE"\nexit "$RUN_CODE"\n',
      );
      chmodSync(join(dir, 'npx'), 0o755);
      const out = join(dir, 'out');
      const log = join(dir, 'log');
      writeFileSync(log, '');
      const r = spawnSync('bash', ['-e', '-c', script], {
        cwd: dir,
        encoding: 'utf8',
        env: {
          PATH: `${dir}:${process.env['PATH']}`,
          GITHUB_OUTPUT: out,
          LOG: log,
          RUN_CODE: String(runCode),
          HIST_CODE: String(histCode),
          RGATE_SUITES: suites,
          RGATE_SHARD: '',
          RGATE_MERGE: '',
          RGATE_FAIL_ON_ALARM: 'true',
        },
      });
      expect(r.status, r.stderr).toBe(0);
      expect(readFileSync(out, 'utf8')).toBe(`exit-code=${code}\n`);
      const history = readFileSync(log, 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('rgate history'))
        .map((l) => l.slice('rgate '.length));
      expect(history).toEqual(calls);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the init workflow saves the history whatever the verdict', () => {
    const w = parse(read('templates/github-workflow.yml')) as { jobs: { gate: { steps: Step[] } } };
    expectHistorySavedAlways(w.jobs.gate.steps, 'npx rgate run');
  });

  it('the action keeps history, summarises, uploads JUnit and HTML, and fails with rgate', () => {
    const a = parse(read('action.yml')) as { runs: { steps: Step[] } };
    const steps = a.runs.steps;
    expectHistorySavedAlways(steps, 'steps.gate');
    expect(steps.some((s) => s.run?.includes('GITHUB_STEP_SUMMARY'))).toBe(true);
    const upload = steps.find((s) => s.uses === 'actions/upload-artifact@v4')!.with!['path']!;
    expect(upload).toContain('report.xml');
    expect(upload).toContain('report.html');
    expect(steps.at(-1)!.run).toBe('exit "$CODE"');
  });
});

interface GitlabJob {
  script?: string[];
  cache?: { paths?: string[]; when?: string };
  artifacts?: { reports?: { junit?: string } };
}

describe('GitLab: the files parse and carry the keys rgate relies on', () => {
  const files: [string, string][] = [
    ...yamlBlocks('GitLab CI').map((y, i): [string, string] => [`docs/ci.md GitLab block ${i + 1}`, y]),
    ['templates/gitlab-ci.yml', read('templates/gitlab-ci.yml')],
  ];
  it.each(files)('%s', (_name, text) => {
    const doc = parse(text) as Record<string, GitlabJob>;
    const jobs = Object.entries(doc).filter(([, v]) => v && typeof v === 'object' && Array.isArray(v.script));
    expect(jobs.length).toBeGreaterThan(0);
    const scripts = jobs.flatMap(([, j]) => j.script!);
    expect(scripts.some((s) => /^npx rgate (run|merge)\b/.test(s))).toBe(true);
    // the verdict job reports JUnit to the merge request and keeps the history in a cache
    const verdict = jobs.filter(([, j]) =>
      j.script!.some((s) => /^npx rgate (run(?!.*--shard)|merge)\b/.test(s)),
    );
    expect(verdict.length).toBeGreaterThan(0);
    for (const [, j] of verdict) expect(j.artifacts?.reports?.junit).toBe('.rgate/runs/*/report.xml');
    const kept = jobs.filter(([, j]) => j.cache?.paths?.includes('.rgate/history.sqlite'));
    expect(kept.length).toBeGreaterThan(0);
    // GitLab saves a cache only when the job succeeds unless `when: always`: a FAIL run is history too
    for (const [name, j] of kept) expect(j.cache!.when, name).toBe('always');
    // a job that keeps the history checks its alarms after the gate (GitLab stops at a failing line,
    // so only after a passed gate, and a failed one keeps its exit code)
    for (const [name, j] of kept) {
      const gate = j.script!.findIndex((s) => /^npx rgate (run|merge)\b/.test(s));
      const alarm = j.script!.findIndex((s) => /^npx rgate history\b.*--fail-on-alarm/.test(s));
      expect(gate, name).toBeGreaterThanOrEqual(0);
      expect(alarm, name).toBeGreaterThan(gate);
    }
  });
});

describe('the rgate lines of docs/ci.md and docs/server.md', () => {
  // each was run in a copy of the project when written; this keeps the suites they name real
  // (a `compare search` once named the server's project, a suite the project does not have)
  const suites = Object.keys((JSON.parse(read('rgate.config.json')) as { suites: object }).suites);
  const lines = ['docs/ci.md', 'docs/server.md'].flatMap((doc) =>
    read(doc)
      .split('\n')
      .map((l) => l.replace(/^\s*(-\s+|run:\s+)?/, '').replace(/\s+#.*$/, ''))
      .filter((l) => l.startsWith('npx rgate '))
      .map((l): [string, string[]] => [doc, l.slice('npx rgate '.length).split(/\s+/)]),
  );

  it('name only suites the project ships (run, compare, history; the action its suites input)', () => {
    expect(lines.length).toBeGreaterThan(10);
    for (const [doc, [command, first]] of lines)
      if (['run', 'compare', 'history'].includes(command!) && first !== undefined && !first.startsWith('-'))
        expect(suites, `${doc}: rgate ${command} ${first}`).toContain(first);
    for (const [name, text] of GITHUB_WORKFLOWS)
      for (const job of Object.values((parse(text) as { jobs: Record<string, { steps?: Step[] }> }).jobs))
        for (const s of job.steps ?? [])
          for (const suite of s.with?.suites?.split(/[\s,]+/).filter(Boolean) ?? [])
            expect(suites, `${name}: suites ${suite}`).toContain(suite);
  });
});
