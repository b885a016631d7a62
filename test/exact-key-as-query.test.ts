/**
 * memory-cli has no exact-key flag: its exact-key lookup is reached by asking for the key itself. A
 * system that declares so (`"exact_key": "as_query"`, which `rgate init` writes for a memory-cli-v1
 * command) is sent an exact-key probe's key as `{query}`, and the probe is measured. The system is
 * test/sut/memory-cli-replay.mjs, answering from memory-cli's real recorded outputs
 * (fixtures/memory-cli/responses, copies of the shared conformance files): it answers the key
 * `cli-commands-4a43d031` and nothing else. The probe's text is a question about the entry, not the
 * key, so an answer proves the key is what reached the system; the recorded answer is `semantic`, not
 * `fallback_exact_key`, so the probe is measured and its expectation is not met (a real finding).
 * Without the declaration the probe is not applicable, as before, and the question goes unanswered.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../src/documents/index.js';
import { writeFreeze } from '../src/snapshot/index.js';
import { compiledCli, REPO } from './helpers/dist.js';
import { tempDir } from './history-helpers.js';
import { memoryCliRetrieveArgv } from './helpers/memory-cli-argv.js';

const KEY = 'cli-commands-4a43d031';
const PROBE = {
  query_id: 'probe-exact-key-001',
  text: 'which entry lists the cli commands',
  exact_key: KEY,
  expect: { selection_mode: 'fallback_exact_key' },
  useful_ids: [KEY],
};
const t = tempDir('rgate-exact-key-as-query-');

function rgate(args: string[]) {
  const r = spawnSync(process.execPath, [compiledCli(), ...args], { cwd: t.dir, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** The report of the one run in the project (the runs folder is emptied before each run). */
function runReport(): Report {
  const runs = join(t.dir, '.rgate', 'runs');
  const [run] = readdirSync(runs);
  return JSON.parse(readFileSync(join(runs, run!, 'report.json'), 'utf8')) as Report;
}

function run(): { code: number | null; report: Report } {
  rmSync(join(t.dir, '.rgate', 'runs'), { recursive: true, force: true });
  const r = rgate(['run', '--no-store']);
  expect(r.err).not.toMatch(/\n\s+at /);
  return { code: r.code, report: runReport() };
}

beforeAll(() => {
  // the replaying executable finds the recordings at ../../fixtures/memory-cli from itself
  for (const path of ['fixtures/memory-cli', 'test/sut/memory-cli-replay.mjs'])
    cpSync(join(REPO, path), join(t.dir, path), { recursive: true });
  const set = join(t.dir, 'fixtures', 'kb');
  mkdirSync(set, { recursive: true });
  for (const f of ['corpus.jsonl', 'config.json'])
    cpSync(join(REPO, 'fixtures', 'memory-cli-set', f), join(set, f));
  writeFileSync(join(set, 'queries.jsonl'), JSON.stringify(PROBE) + '\n');
  writeFreeze(set, { frozenOn: '2026-11-26' });
});
afterAll(() => t.cleanup());

describe('a system that takes the exact key as its query text', () => {
  it('rgate init declares it for a memory-cli-v1 command', () => {
    const init = rgate([
      'init',
      '--fixture',
      'kb',
      '--system',
      'command',
      '--contract',
      'memory-cli-v1',
      '--',
      ...memoryCliRetrieveArgv('node', 'test/sut/memory-cli-replay.mjs'),
    ]);
    expect(init.err).toBe('');
    expect(init.code).toBe(0);
    const config = JSON.parse(readFileSync(join(t.dir, 'rgate.config.json'), 'utf8')) as {
      suites: Record<string, { system: { exact_key?: string } }>;
    };
    expect(config.suites['retrieval']!.system.exact_key).toBe('as_query');
  });

  it('is sent the probe key as {query}, and the probe is measured against the recorded answer', () => {
    const { report } = run();
    expect(report.not_applicable ?? []).toEqual([]);
    const probe = report.queries.find((q) => q.query_id === PROBE.query_id)!;
    // the recorded answer to `--query cli-commands-4a43d031` (retrieve-exact-key.json)
    expect(probe.actual).toMatchObject({ ok: true, selected_id: KEY, selection_mode: 'semantic' });
    expect(probe.expectation_met).toBe(false);
    const met = report.metrics.find((m) => m.id === 'fallback_expectation_met')!.value;
    expect(met).toMatchObject({ numerator: 0, denominator: 1 });
  });

  it('without the declaration, the probe is not applicable and its question text is what the system gets', () => {
    const file = join(t.dir, 'rgate.config.json');
    const config = JSON.parse(readFileSync(file, 'utf8')) as {
      suites: Record<string, { system: { exact_key?: string } }>;
    };
    delete config.suites['retrieval']!.system.exact_key;
    writeFileSync(file, JSON.stringify(config, null, 2) + '\n');
    const { report } = run();
    expect(report.not_applicable).toMatchObject([{ input: 'exact_key', query_ids: [PROBE.query_id] }]);
    expect(report.not_applicable![0]!.fix).toContain('"exact_key": "as_query"');
    // the replay has no recording for the question: the CLI's error, as the real one fails
    const probe = report.queries.find((q) => q.query_id === PROBE.query_id)!;
    expect(probe.actual?.ok).toBe(false);
  });
});
