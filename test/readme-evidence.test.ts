/**
 * README "How much evidence is enough" (issue 37), run as written: the commands between the
 * `docs-run:evidence` markers go through the real CLI in a copy of the project, each with the exit
 * code its comment states, and every `code` span of the paragraph after the block must be printed
 * by them as it stands. The plans themselves are checked against a binomial summed the long way.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/program.js';
import type { LabelAgreeOutput, PlanResult } from '../src/documents/index.js';
import { captureIo } from './helpers/cli-io.js';
import { REPO } from './helpers/dist.js';

const readme = readFileSync(join(REPO, 'README.md'), 'utf8');

function block(): { argv: string[]; exit: number }[] {
  const m = /<!-- docs-run:evidence -->\n```sh\n([\s\S]*?)```\n<!-- \/docs-run:evidence -->/.exec(readme);
  if (!m) throw new Error('README.md has no docs-run:evidence block');
  return m[1]!
    .split('\n')
    .filter((l) => l.startsWith('rgate '))
    .map((l) => ({
      argv: [...l.replace(/\s+#.*$/, '').matchAll(/"([^"]*)"|(\S+)/g)].map((t) => t[1] ?? t[2]!).slice(1),
      exit: Number(/#\s*exit (\d+)/.exec(l)?.[1] ?? 0),
    }));
}

/** The `code` spans of the paragraph after the block, whitespace folded. */
function quoted(): string[] {
  const m = /<!-- \/docs-run:evidence -->\n\n([\s\S]*?)\n\n/.exec(readme);
  if (!m) throw new Error('README.md: no paragraph after the evidence block');
  return [...m[1]!.matchAll(/`([^`]+)`/g)].map((f) => f[1]!.replace(/\s+/g, ' '));
}

const project = mkdtempSync(join(tmpdir(), 'rgate-evidence-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));
for (const path of ['rgate.config.json', 'gates', join('fixtures', 'context-load')])
  cpSync(join(REPO, path), join(project, path), { recursive: true });

async function rgate(argv: string[]) {
  const io = captureIo(project);
  const code = await runCli(argv, io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

/** P(X <= k) for Binomial(n, p), term by term (no incomplete beta). */
function lowerTail(k: number, n: number, p: number): number {
  let term = (1 - p) ** n;
  let s = 0;
  for (let i = 0; i <= k; i++) {
    s += term;
    term *= ((n - i) / (i + 1)) * (p / (1 - p));
  }
  return s;
}

/** The exact one-sided test's power, long-hand: the largest critical count at p0, its tail at p1. */
function power(n: number, p0: number, p1: number, alpha: number): number {
  let c = -1;
  while (lowerTail(c + 1, n, p0) <= alpha) c++;
  return c < 0 ? 0 : lowerTail(c, n, p1);
}

describe('README: How much evidence is enough', () => {
  it('runs as written and prints every figure it quotes', { timeout: 120_000 }, async () => {
    const outs: string[] = [];
    for (const { argv, exit } of block()) {
      const r = await rgate(argv);
      expect(r.code, `${argv.join(' ')}\n${r.err}`).toBe(exit);
      outs.push(r.out.replace(/\s+/g, ' '));
    }
    const all = outs.join(' ');
    const figures = quoted();
    expect(figures.length).toBeGreaterThan(4);
    // a figure is printed; a name (`min_queries`, a flag) is not
    for (const f of figures.filter((f) => !f.startsWith('min_queries') && !f.startsWith('--')))
      expect(all, f).toContain(f);
  });

  it("plans the size at which the exact test first reaches the power, and the run's report agrees", async () => {
    const r = await rgate([
      'plan',
      'semantic',
      '--measure',
      'top1_useful_rate',
      '--effect',
      '0.05',
      '--rate',
      '0.8',
      '--json',
    ]);
    expect(r.code, r.err).toBe(0);
    const plan = JSON.parse(r.out) as PlanResult;
    const n = plan.units_needed!;
    expect(power(n, 0.8, 0.75, 0.05)).toBeGreaterThanOrEqual(0.8);
    for (let m = Math.floor(n * 0.8); m < n; m++)
      expect(power(m, 0.8, 0.75, 0.05), `n ${m}`).toBeLessThan(0.8);
    expect(plan.queries_needed).toBe(Math.ceil((n * plan.observed.queries) / plan.observed.units));
    // the seeded simulation agrees within three standard errors of 2000 draws
    expect(Math.abs(plan.check!.simulated_power - 0.8)).toBeLessThan(0.03);
  });

  it('label pool --priority verdict states the run it ordered for, and belongs to pool only', async () => {
    const r = await rgate([
      'label',
      'pool',
      'semantic',
      '--modes',
      'bm25',
      '--priority',
      'verdict',
      '--json',
    ]);
    expect(r.code, r.err).toBe(0);
    const out = JSON.parse(r.out) as { verdict?: { run_id: string; pairs: number } };
    expect(out.verdict).toMatchObject({ pairs: 0 });
    const wrong = await rgate(['label', 'queue', out.verdict!.run_id, '--priority', 'verdict']);
    expect(wrong.code).toBe(2);
    expect(wrong.err).toMatch(/--priority belongs to rgate label pool/);
  });

  it("label agree: kappa between the frozen qrels and a regraded copy, and the run's top-1 rule under each", async () => {
    const set = readFileSync(join(project, 'fixtures', 'context-load', 'queries.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { query_id: string; qrels?: Record<string, number> });
    // every grade as frozen, except every relevant top-1 of the run's useful answers regraded 0
    const run = JSON.parse((await rgate(['history', 'semantic', '--json'])).out) as {
      runs: { run_id: string }[];
    };
    const runId = run.runs[0]!.run_id;
    const lines: string[] = [];
    for (const q of set)
      for (const [doc, grade] of Object.entries(q.qrels ?? {}))
        lines.push(JSON.stringify({ query_id: q.query_id, doc_id: doc, grade: grade >= 1 ? 0 : grade }));
    writeFileSync(join(project, 'none-relevant.jsonl'), lines.join('\n') + '\n');
    const same = await rgate(['label', 'agree', 'fixtures/context-load', 'fixtures/context-load', '--json']);
    expect(same.code, same.err).toBe(0);
    expect(JSON.parse(same.out)).toMatchObject({ agreement: 1, kappa: 1, weighted_kappa: 1 });
    const r = await rgate([
      'label',
      'agree',
      'fixtures/context-load',
      'none-relevant.jsonl',
      '--run',
      runId,
      '--json',
    ]);
    expect(r.code, r.err).toBe(0);
    const doc = JSON.parse(r.out) as LabelAgreeOutput;
    expect(doc.pairs).toBe(lines.length);
    // the confusion table holds every pair once, and b never grades above 0 where a does
    expect(doc.confusion.flat().reduce((x, y) => x + y, 0)).toBe(lines.length);
    expect(doc.binary_kappa).toBeCloseTo(0, 12);
    const top1 = doc.verdict!.rules.find((x) => x.metric === 'top1_useful_rate')!;
    // with the frozen qrels the run's own count; with none relevant only the useful_ids / rules-judged wins remain
    expect(top1.with_a).toMatchObject({ numerator: 39, denominator: 86, status: 'fail' });
    expect(top1.with_b.numerator).toBeLessThan(39);
    expect(doc.verdict!.changes).toBe(false);
    const bad = await rgate(['label', 'agree', 'fixtures/context-load']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/label agree needs two graders/);
  });

  it('plans a baseline and a candidate from their per-query differences', { timeout: 60_000 }, async () => {
    const semantic = JSON.parse((await rgate(['history', 'semantic', '--json'])).out) as {
      runs: { run_id: string }[];
    };
    expect((await rgate(['run', 'context-load'])).code).not.toBe(2);
    const ctx = JSON.parse((await rgate(['history', 'context-load', '--json'])).out) as {
      runs: { run_id: string }[];
    };
    const [a, b] = [ctx.runs[0]!.run_id, semantic.runs[0]!.run_id];
    const r = await rgate([
      'plan',
      'semantic',
      '--measure',
      'ndcg_cut.5',
      '--effect',
      '0.02',
      '--run',
      a,
      '--baseline',
      b,
      '--json',
    ]);
    expect(r.code, r.err).toBe(0);
    const plan = JSON.parse(r.out) as PlanResult;
    expect(plan).toMatchObject({
      basis: 'paired',
      direction: 'either',
      baseline_run_id: b,
      method: 't_quantiles',
    });
    // Lehr's closed form, n = (z_{0.975} + z_{0.8})^2 sd^2 / d^2, within 5% (the t correction adds a few)
    const sd = plan.observed.sd!;
    expect(plan.units_needed! / ((7.849 * sd * sd) / 0.02 ** 2)).toBeCloseTo(1, 1);
    expect(Math.abs(plan.check!.simulated_power - 0.8)).toBeLessThan(0.03);
    const same = await rgate([
      'plan',
      'semantic',
      '--measure',
      'ndcg_cut.5',
      '--effect',
      '0.02',
      '--run',
      b,
      '--baseline',
      b,
    ]);
    expect(same.code).toBe(2);
    expect(same.err).toMatch(/no spread to plan from/);
  });

  it('refuses what it cannot plan, with a hint and exit 2', async () => {
    const unknown = await rgate(['plan', 'semantic', '--measure', 'nope', '--effect', '0.05']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/no measure nope to plan for[\s\S]*hint: measures it has: top1_useful_rate/);
    const tooBig = await rgate(['plan', 'semantic', '--measure', 'top1_useful_rate', '--effect', '0.6']);
    expect(tooBig.code).toBe(2);
    expect(tooBig.err).toMatch(/must leave a rate above 0/);
    const none = await rgate([
      'plan',
      'semantic',
      '--measure',
      'top1_useful_rate',
      '--effect',
      '0.05',
      '--power',
      '1.5',
    ]);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/--power 1.5: must be between 0 and 1/);
  });
});
