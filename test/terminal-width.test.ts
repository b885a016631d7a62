/**
 * The history-store commands' terminal output fits the terminal it is printed on (issue 24): at 50,
 * 80 and 120 columns no line is longer, tables wrap free text or stack their rows rather than cut a
 * name, and no identifier (metric, variant, query, run or document id) is split across lines. The
 * sessions and runs are real: a comparison and runs of a real command system (test/sut/
 * memory-modes.mjs) through the CLI, and memory-cli's classic vs hybrid label effect. The last test
 * runs the built CLI under a pseudo-terminal, so the width comes from the terminal itself.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompareSession } from '../src/documents/index.js';
import { runCli } from '../src/cli/program.js';
import { renderSessionTerminal } from '../reports/history/compare.js';
import { captureIo } from './helpers/cli-io.js';
import { compiledCli } from './helpers/dist.js';
import { expectFitted } from './helpers/fitted.js';
import { writeMemoryProject } from './helpers/memory-project.js';
import { hostileSession, labelEffectSession } from './compare-helpers.js';
import { tempDir } from './history-helpers.js';

const WIDTHS = [50, 80, 120] as const;

/** What a comparison's terminal output must show whole: metric, variant, query and top-1 ids. */
function sessionIds(s: CompareSession): string[] {
  return [
    s.environment.session_id,
    ...s.metrics.map((m) => m.id),
    ...s.variants.map((v) => v.id),
    ...s.flips.flatMap((f) =>
      f.queries.slice(0, 10).flatMap((q) => [q.query_id, q.a.selected ?? '(none)', q.b.selected ?? '(none)']),
    ),
  ];
}

describe('comparison terminal output at 50, 80 and 120 columns', () => {
  const sessions = {
    'memory-cli classic vs hybrid (a label effect)': labelEffectSession((i) => `doc-${i}`),
    'forty queries, twenty flips, a long hostile label': hostileSession(),
  };
  for (const [name, s] of Object.entries(sessions)) {
    it(name, () => {
      const seen = new Set<string>();
      for (const width of WIDTHS) {
        const text = renderSessionTerminal(s, { width });
        expectFitted(text, width, sessionIds(s));
        // per-variant values and mode rates at every width, the label effect when there is one
        expect(text.replace(/\n +/g, ' ')).toMatch(/modes: semantic \d+\/\d+ \(\d+\.\d%\)/);
        if (s.label_effects?.length) expect(text).toContain('Label effects');
        seen.add(text);
      }
      expect(seen.size).toBe(WIDTHS.length);
    });
  }

  it('at 80 columns the paired tests stay one table, with no trailing padding', () => {
    const text = renderSessionTerminal(
      labelEffectSession((i) => `doc-${i}`),
      { width: 80 },
    );
    // each side's figure carries its n (12/18, n=18): no n column of its own
    expect(text).toMatch(/^metric +vs +v1 +variant +Δ mean +95% CI +p +Holm p +W\/T\/L$/m);
    expect(text).toMatch(/^top1_useful_rate +v2 12\/18 +0\/18 0 +-0\.6667 /m);
    expect(text).toMatch(/^top1_useful_any_mode +v2 /m);
    expect(text).not.toMatch(/ $/m);
  });

  it('at 50 columns a row that cannot fit becomes a block under its metric', () => {
    const text = renderSessionTerminal(
      labelEffectSession((i) => `doc-${i}`),
      { width: 50 },
    );
    expect(text).toMatch(/^top1_useful_any_mode\n {2}vs v2 · v1 1 n=18 · variant 1 n=18 · Δ mean /m);
  });
});

describe('the CLI lays its reports out for the terminal', () => {
  const t = tempDir('rgate-width-');
  let sessionId = '';
  let runs: string[] = [];
  afterAll(() => t.cleanup());
  beforeAll(async () => {
    writeMemoryProject(t.dir, join(t.dir, 'modes.log'));
    expect(await runCli(['freeze', 'notes', '--date', '2026-11-23'], captureIo(t.dir))).toBe(0);
    const io = captureIo(t.dir);
    const args = ['--set', 'system.params.mode=classic', '--set', 'system.params.mode=hybrid'];
    const stats = ['--replays', '1', '--permutations', '200', '--resamples', '200', '--json'];
    expect(await runCli(['compare', 'memory', ...args, ...stats], io)).toBe(0);
    sessionId = (JSON.parse(io.stdout.join('\n')) as CompareSession).environment.session_id;
    for (const mode of ['classic', 'hybrid']) {
      const run = captureIo(t.dir);
      const code = await runCli(
        ['run', 'memory', '--set', `system.params.mode=${mode}`, '--replays', '1', '--json'],
        run,
      );
      expect([0, 1]).toContain(code); // the gate asks for fallback evidence these queries do not give
      runs.push(
        (JSON.parse(run.stdout.join('\n')) as { environment: { run_id: string } }).environment.run_id,
      );
    }
    runs = runs.slice(-2);
    expect(await runCli(['baseline', 'set', 'memory', runs[0]!], captureIo(t.dir))).toBe(0);
  }, 120_000);

  async function at(columns: number, args: string[]): Promise<string> {
    const io = { ...captureIo(t.dir), isTty: true, columns };
    expect(await runCli(args, io), io.stderr.join('\n')).toBe(0);
    return io.stdout.join('\n');
  }

  it('compare --show, history, diff and baseline show fit 50, 80 and 120 columns', async () => {
    const shown = await at(80, ['compare', '--show', sessionId, '--json']);
    const s = JSON.parse(shown) as CompareSession;
    expect(s.label_effects).toBeDefined();
    for (const width of WIDTHS) {
      expectFitted(await at(width, ['compare', '--show', sessionId]), width, sessionIds(s));
      expectFitted(await at(width, ['history', 'memory']), width, [...runs, 'fallback_determinism']);
      expectFitted(await at(width, ['diff', runs[0]!, runs[1]!]), width, runs);
      expectFitted(await at(width, ['baseline', 'show', 'memory']), width, [
        runs[0]!,
        'fallback_determinism',
      ]);
    }
    // not a terminal: 80 columns
    const piped = captureIo(t.dir);
    expect(await runCli(['compare', '--show', sessionId], piped)).toBe(0);
    expect(piped.stdout.join('\n')).toBe(await at(80, ['compare', '--show', sessionId]));
  });

  it("rgate run and rgate report lay the run's report out for 50, 80 and 120 columns", async () => {
    // a FAIL verdict exits 1: the layout is what is checked here
    const report = async (columns: number | undefined, args: string[]) => {
      const io = { ...captureIo(t.dir), ...(columns ? { isTty: true, columns } : {}) };
      expect([0, 1], io.stderr.join('\n')).toContain(await runCli(args, io));
      return io.stdout.join('\n');
    };
    const ids = [runs[0]!, 'fallback_determinism'];
    for (const width of WIDTHS) expectFitted(await report(width, ['report', runs[0]!]), width, ids);
    const ran = await report(50, ['run', 'memory', '--set', 'system.params.mode=classic', '--replays', '1']);
    // the report, not what follows it: the report files (a path is printed whole, to copy), the summary
    const [shown = '', files = ''] = ran.split(/\n(?=reports: )/);
    expect(files).toMatch(/^reports: \S+\/report\.\{json,html,md,xml\}\n/);
    expectFitted(shown, 50, ['fallback_determinism']);
    expect(ran.split('\n')[0]).toBe('='.repeat(50));
    // not a terminal, or written to a file: 80 columns, as before
    const piped = await report(undefined, ['report', runs[0]!]);
    expect(piped).toBe(await report(80, ['report', runs[0]!]));
    expect(piped).not.toBe(await report(50, ['report', runs[0]!]));
    await report(50, ['report', runs[0]!, '--out', 'report.txt']);
    expect(readFileSync(join(t.dir, 'report.txt'), 'utf8')).toBe(piped);
  }, 120_000);

  it("the built CLI under a pseudo-terminal reads the terminal's width", () => {
    const show = (cols: number) => {
      const r = spawnSync(
        'script',
        [
          '-qec',
          `stty cols ${cols}; '${process.execPath}' '${compiledCli()}' compare --show ${sessionId}`,
          '/dev/null',
        ],
        {
          cwd: t.dir,
          encoding: 'utf8',
          env: { ...process.env, NO_COLOR: '1', COLUMNS: '' },
          timeout: 60_000,
        },
      );
      expect(r.status, r.stderr).toBe(0);
      return r.stdout.replace(/\r\n/g, '\n').replace(/\n$/, '');
    };
    const narrow = show(50);
    expect(narrow).toContain(`Comparison ${sessionId}`);
    for (const l of narrow.split('\n')) expect([...l].length, l).toBeLessThanOrEqual(50);
    const wide = show(120);
    expect(Math.max(...wide.split('\n').map((l) => [...l].length))).toBeGreaterThan(50);
  }, 120_000);

  it("rgate report under a pseudo-terminal lays the run's report out for the terminal's width", () => {
    const show = (cols: number) => {
      const r = spawnSync(
        'script',
        [
          '-qec',
          `stty cols ${cols}; '${process.execPath}' '${compiledCli()}' report ${runs[0]}`,
          '/dev/null',
        ],
        {
          cwd: t.dir,
          encoding: 'utf8',
          env: { ...process.env, NO_COLOR: '1', COLUMNS: '' },
          timeout: 60_000,
        },
      );
      expect([0, 1], r.stderr).toContain(r.status); // the verdict decides the exit code
      return r.stdout.replace(/\r\n/g, '\n').replace(/\n$/, '');
    };
    const narrow = show(50);
    expect(narrow.split('\n')[0]).toBe('='.repeat(50));
    expectFitted(narrow, 50, [runs[0]!, 'fallback_determinism']);
    const wide = show(120);
    expect(wide.split('\n')[0]).toBe('='.repeat(120));
    expectFitted(wide, 120, [runs[0]!, 'fallback_determinism']);
  }, 120_000);
});
