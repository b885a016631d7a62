/**
 * The example messages the docs quote in their prose (issue 34, item 5): each is produced here by
 * the code that prints it, from the figures the example names, and must appear in the doc as
 * printed. A reworded message or an edited figure in either place fails here, so the docs cannot
 * quote a sentence rgate no longer says. (Whole runs the docs show are held by test/readme-runs,
 * test/docs-commands and test/docs-figures-runs; these are the sentences between them.)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CompareSession, PairedTest, Report } from '../src/documents/index.js';
import { evaluateGate } from '../gates/evaluate.js';
import { judgeVsBase, vsBaseGateLines } from '../gates/vs-base.js';
import { loadGatePolicy } from '../gates/policy.js';
import { overrulingReason } from '../harness/run-report.js';
import { permutationFloor } from '../history/compare-stats.js';
import { sideText } from '../reports/history/compare.js';
import { errorView } from '../reports/run/view-errors.js';
import { REPO } from './helpers/dist.js';
import { rate, semanticInput } from './helpers/gate-inputs.js';

const oneSpace = (t: string) => t.replace(/\s+/g, ' ');
const doc = (name: string) => oneSpace(readFileSync(join(REPO, 'docs', name), 'utf8'));
const semantic = loadGatePolicy('semantic-retrieval-v1', REPO);
const top1Reason = (k: number, n: number, judged = n) =>
  evaluateGate(
    semantic,
    semanticInput(rate(k, n), {
      suite: 'semantic',
      metrics: semanticInput(rate(k, n)).metrics.map((m) =>
        m.id === 'judged_top1' ? { ...m, value: rate(judged, n) } : m,
      ),
    }),
  ).rules.map((r) => r.reason);

describe('docs/reports.md quotes what rgate prints', () => {
  const reports = doc('reports.md');

  it('the gate reasons of the verdict table and of judgment debt', () => {
    const quoted = [
      top1Reason(45, 50).find((r) => r.startsWith('45/50')),
      top1Reason(49, 49).find((r) => r.startsWith('insufficient evidence')),
      // 37 useful of 86, 43 unjudged: the top-1 rule is undecided, judged_top1 fails
      top1Reason(37, 86, 43)
        .find((r) => r.includes('undecided'))
        ?.replace(/^.*; (undecided: )/, '$1'),
      // 24 unjudged: the failure stands on judged evidence
      top1Reason(37, 86, 62)
        .find((r) => r.includes('would be even if'))
        ?.replace(/^.*, (and would be even if)/, '$1'),
      top1Reason(37, 86, 62).find((r) => r.startsWith('insufficient judgments')),
    ];
    expect(quoted.filter((q) => q === undefined || !reports.includes(q))).toEqual([]);
  });

  it('the sentences of a run that did not complete', () => {
    const down = overrulingReason(
      {
        down: {
          failed_requests: 10,
          planned_requests: 20,
          first_error: { kind: 'crash', message: 'exit 3' },
        },
      },
      { planned: 20, made: 10 },
    )!.replace(/^system under test down: (.*) \(first error.*$/, '$1');
    const partial = overrulingReason({ partial: 'abandoned' }, { planned: 20, made: 13 })!;
    expect(down).toBe('all 10 requests made failed, none succeeded; 10 of 20 planned were never made');
    expect(reports).toContain(`(\`${down}\`)`);
    expect(partial).toContain('13 of 20 planned requests made');
    expect(reports).toContain('(`13 of 20 planned requests made`)');
  });

  it('an error row of a query whose second replay never ran', () => {
    const report = {
      errors: { requests: 1, failed: 1, by_class: [] },
      settings: { replays: 2 },
      evidence: { requests: { not_run: 1 } },
      queries: [
        {
          query_id: 'q1',
          deterministic: false,
          determinism_shown: false,
          first_error: {
            kind: 'crash',
            message: 'exit 3',
            replay: 1,
            errored_replays: 1,
            observed_replays: 1,
            kinds: ['crash'],
          },
        },
      ],
    } as unknown as Report;
    const row = errorView(report).queries[0]!.replays_text;
    expect(row).toBe('1/1 replays that ran (2 planned)');
    expect(reports).toContain(`\`${row}\``);
  });

  it("the warning line is the memory-cli suite's, as docs/real-retrievers.md shows its run", () => {
    const quoted = /`(\d+\/\d+ requests warned: [^`]*?) \.\.\.`/.exec(reports)?.[1];
    expect(quoted, 'reports.md quotes a warning line').toBeDefined();
    // that block is the output of `rgate run memory-cli`, checked line by line by test/readme-runs
    const block = doc('real-retrievers.md').split('<!-- readme-run:memory-cli -->')[1]!;
    expect(block).toContain(quoted);
  });
});

describe('docs/tuning.md quotes what rgate prints', () => {
  const tuning = doc('tuning.md');

  it("Holm's floor on Monte Carlo p-values: 546 tests at 10,000 permutations", () => {
    const estimated = { p_value: 0.0001, p_exact: false, ties: 0, n: 86 } as PairedTest;
    const floor = permutationFloor(
      Array.from({ length: 546 }, () => estimated),
      {
        alpha: 0.05,
        permutations: 10_000,
      },
    );
    expect(floor?.why).toContain('at least 1/10001, which Holm over 546 tests raises to .0546 > alpha 0.05');
    expect(tuning).toContain('546 tests, 546/10,001 = 0.0546');
    // 500 tests: 500/10,001 = 0.04999 is under alpha, no floor
    expect(
      permutationFloor(
        Array.from({ length: 500 }, () => estimated),
        { alpha: 0.05, permutations: 10_000 },
      ),
    ).toBeNull();
  });

  it('a rate in a paired test row, as numerator/denominator with its rate', () => {
    const session = {
      variants: [{ id: 'a', aggregates: [{ metric: 'top1_useful_rate', kind: 'rate' }] }],
    } as unknown as CompareSession;
    const test = {
      a: 'a',
      b: 'b',
      metric: 'top1_useful_rate',
      mean_a: 53 / 86,
      mean_b: 0.5,
      n: 86,
    } as PairedTest;
    const shown = sideText(session, test, 'a');
    expect(shown).toBe('53/86 (0.6163)');
    expect(tuning).toContain(`(\`${shown}\`)`);
  });
});

describe('docs/server.md quotes what rgate prints', () => {
  it("the vs-base gate's lines after an upload: a drop of 1 on each of 6 queries, every sign against it", () => {
    const test: PairedTest = {
      metric: 'ndcg_cut.10',
      a: 'v1',
      b: 'v2',
      n: 6,
      mean_a: 1,
      mean_b: 0,
      mean_delta: -1,
      ci95: null,
      // the exact two-sided sign-flip p of 6 equal drops: 2 of 2^6 sign assignments are as extreme
      p_value: 2 / 64,
      p_exact: true,
      p_holm: 2 / 64,
      significant: true,
      wins: 0,
      ties: 0,
      losses: 6,
    };
    const lines = vsBaseGateLines(
      judgeVsBase([{ metric: 'ndcg_cut.10', max_drop: 0.05, significant: true, alpha: 0.05, reason: '' }], {
        base: { run_id: '20261125T031500Z-77e0b2', why: 'the run of the merge-base commit' },
        comparison: { tests: [test], better: () => 'higher' },
      }),
    );
    const server = doc('server.md');
    for (const line of lines) expect(server).toContain(oneSpace(line));
  });
});
