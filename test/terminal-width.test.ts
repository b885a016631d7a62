/**
 * The history-store commands' terminal output fits the terminal it is printed on (issue 24): at 50,
 * 80 and 120 columns no line is longer, tables wrap free text or stack their rows rather than cut a
 * name, and no identifier (metric, variant, query, run or document id) is split across lines. The
 * sessions and runs are real: a comparison and runs of a real command system (test/sut/
 * memory-modes.mjs) through the CLI, and memory-cli's classic vs hybrid label effect. The last test
 * runs the built CLI under a pseudo-terminal, so the width comes from the terminal itself.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompareSession } from '../src/documents/index.js';
import { runCli } from '../src/cli/program.js';
import { renderSessionTerminal } from '../reports/history/compare.js';
import { captureIo } from './helpers/cli-io.js';
import { compiledCli } from './helpers/dist.js';
import { writeMemoryProject } from './helpers/memory-project.js';
import { hostileSession, labelEffectSession } from './compare-helpers.js';
import { tempDir } from './history-helpers.js';

const WIDTHS = [50, 80, 120] as const;

/** Every line at most `width`; each identifier shown whole somewhere and never broken at a line end. */
function expectFitted(text: string, width: number, ids: readonly string[]): void {
  const lines = text.split('\n');
  for (const l of lines) expect([...l].length, `${width}: "${l}"`).toBeLessThanOrEqual(width);
  for (const id of new Set(ids)) {
    expect(text, `${width}: ${id} whole`).toContain(id);
    lines.forEach((l, i) => {
      const next = (lines[i + 1] ?? '').trimStart();
      for (let k = 1; k < id.length; k++) {
        const split = l.endsWith(id.slice(0, k)) && next.startsWith(id.slice(k));
        expect(split, `${width}: ${id} split after "${id.slice(0, k)}"`).toBe(false);
      }
    });
  }
}

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
    expect(text).toMatch(/^metric +vs +n +Δ mean +95% CI +p +Holm p +W\/T\/L$/m);
    expect(text).toMatch(/^top1_useful_any_mode +v2 /m);
    expect(text).not.toMatch(/ $/m);
  });

  it('at 50 columns a row that cannot fit becomes a block under its metric', () => {
    const text = renderSessionTerminal(
      labelEffectSession((i) => `doc-${i}`),
      { width: 50 },
    );
    expect(text).toMatch(/^top1_useful_any_mode\n {2}vs v2 · n 18 · Δ mean /m);
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
});
