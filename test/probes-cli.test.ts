import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Freeze, QueryRecord, Report } from '../src/documents/index.js';
import { runCli } from '../src/cli/program.js';
import { captureIo } from './helpers/cli-io.js';
import { compiledCli } from './helpers/dist.js';
import { writeMemoryProject } from './helpers/memory-project.js';
import { tempDir } from './history-helpers.js';

/**
 * End to end: a suite whose queries never fall back has no fallback evidence and FAILs, the reason
 * naming `rgate probes add <set>`; after that command the same suite has fallback evidence. The
 * system is a real process (test/sut/memory-modes.mjs), the set a real frozen fixture on disk.
 */
const t = tempDir('rgate-probes-');
const set = join(t.dir, 'fixtures', 'notes');
afterAll(() => t.cleanup());
beforeAll(async () => {
  writeMemoryProject(t.dir, join(t.dir, 'modes.log'));
  expect(await runCli(['freeze', 'notes', '--date', '2026-11-23'], captureIo(t.dir))).toBe(0);
});

async function cli(args: string[]) {
  const io = captureIo(t.dir);
  const code = await runCli(args, io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

async function runGate(): Promise<{ code: number; report: Report }> {
  const r = await cli(['run', 'memory', '--no-store', '--json']);
  return { code: r.code, report: JSON.parse(r.out) as Report };
}

const ruleOf = (report: Report, metric: string) => report.gate.rules.find((r) => r.metric === metric)!;

describe('rgate probes add', () => {
  it('no fallback evidence FAILs with the command to run; probes add gives the evidence', async () => {
    const before = await runGate();
    expect(before.code).toBe(1);
    const det = ruleOf(before.report, 'fallback_determinism');
    expect(det.status).toBe('fail');
    expect(det.reason).toContain('insufficient evidence: 0/0');
    expect(det.reason).toContain('rgate probes add notes --version <next> --reset-note');

    // frozen: refused without a version bump, and nothing is written
    const queriesBefore = readFileSync(join(set, 'queries.jsonl'), 'utf8');
    const freezeBefore = readFileSync(join(set, 'freeze.json'), 'utf8');
    const refused = await cli(['probes', 'add', 'notes']);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('nothing was written');
    expect(refused.err).toContain('rgate probes add notes --version v2 --reset-note');
    expect(readFileSync(join(set, 'queries.jsonl'), 'utf8')).toBe(queriesBefore);
    expect(readFileSync(join(set, 'freeze.json'), 'utf8')).toBe(freezeBefore);

    const added = await cli([
      'probes',
      'add',
      'notes',
      '--version',
      'v2',
      '--reset-note',
      'fallback probes added',
      '--date',
      '2026-11-23',
      '--json',
    ]);
    expect(added.err).toBe('');
    expect(added.code).toBe(0);
    const summary = JSON.parse(added.out) as {
      added: number;
      kept: number;
      probes: QueryRecord[];
      suites: unknown[];
    };
    expect(summary.kept).toBe(4);
    // the suite's argv and env carry no {exact_key}: its system cannot take the exact-key probes
    expect(summary.suites).toEqual([
      {
        suite: 'memory',
        takes: ['no-match', 'path-priority'],
        not_applicable: [
          {
            kind: 'exact-key',
            reason: 'its argv and env have no {exact_key}: the key would reach it only as query text',
            fix: expect.stringContaining('"--exact-key", "{exact_key}"'),
          },
        ],
      },
    ]);
    expect(summary.probes.map((p) => p.query_id)).toEqual([
      'probe-exact-key-001',
      'probe-exact-key-002',
      'probe-exact-key-003',
      'probe-no-match-001',
      'probe-no-match-002',
      'probe-no-match-003',
      'probe-path-priority-001',
      'probe-path-priority-002',
      'probe-path-priority-003',
    ]);
    const freeze = JSON.parse(readFileSync(join(set, 'freeze.json'), 'utf8')) as Freeze;
    expect(freeze.version).toBe('v2');
    expect(freeze.counts.queries).toBe(13);
    expect(freeze.history.at(-1)).toMatchObject({ version: 'v2', reset_note: 'fallback probes added' });
    // the four hand-written queries are kept byte for byte
    expect(readFileSync(join(set, 'queries.jsonl'), 'utf8').startsWith(queriesBefore)).toBe(true);

    const after = await runGate();
    const det2 = ruleOf(after.report, 'fallback_determinism');
    // no-match and path-priority probes fall back in this system (its id match answers exact keys semantically)
    expect(det2.denominator).toBe(6);
    expect(det2.status).toBe('pass');
    expect(after.code).toBe(0);
    expect(after.report.artifacts.version).toBe('v2');
    // the run says the same: the exact-key probes are not applicable, not unmet
    expect(after.report.not_applicable?.[0]?.query_ids).toEqual([
      'probe-exact-key-001',
      'probe-exact-key-002',
      'probe-exact-key-003',
    ]);
  });

  it('is idempotent: the same seed again writes nothing and needs no version', async () => {
    const freezeBefore = readFileSync(join(set, 'freeze.json'), 'utf8');
    const again = await cli(['probes', 'add', 'notes']);
    expect(again.code).toBe(0);
    expect(again.out).toContain('already holds these 9 probes; nothing written');
    expect(again.out).toContain(
      'suite memory: takes no-match, path-priority probes; exact-key probes are not applicable (its argv and env have no {exact_key}',
    );
    expect(readFileSync(join(set, 'freeze.json'), 'utf8')).toBe(freezeBefore);
  });

  it('--help shows examples', () => {
    const help = execFileSync(process.execPath, [compiledCli(), 'probes', '--help'], { encoding: 'utf8' });
    expect(help).toContain('rgate probes add my-set');
    expect(help).toContain('--count');
  });
});
