/**
 * A real `rgate compare` of the context-load suite's two weighting modes (the builtin engine on the
 * Lumen set; the session kept in a real SQLite store and shown by the CLI), checked for what the audit found missing:
 * measures the run report calls not applicable are neither tested nor counted in Holm's family (and
 * every format says which and why); each format shows each variant's figure, rates as what they
 * counted; each variant (and each run report) states the weights its weighting mode resolves to, from
 * the engine's own preset table. A session stored before these existed still shows.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompareSession, Report, SuiteSpec } from '../src/documents/index.js';
import { runCli } from '../src/cli/program.js';
import { WEIGHT_PRESETS } from '../src/engine/index.js';
import { MemoryRunStore } from '../src/store/memory-store.js';
import { SqliteRunStore } from '../src/store/sqlite-store.js';
import { runCompare, saveSession, sessionRow } from '../history/compare.js';
import { renderHtml } from '../reports/run/html.js';
import { renderMarkdown } from '../reports/run/markdown.js';
import { captureIo } from './helpers/cli-io.js';
import { tempDir } from './history-helpers.js';

const REPO = resolve(import.meta.dirname, '..');
const PERMUTATIONS = 2000;
const t = tempDir('rgate-cmp-applies-');
let session: CompareSession;
let reports: Report[];

async function cli(args: string[]): Promise<string> {
  const io = captureIo(REPO);
  expect(await runCli([...args, '--out-dir', t.dir], io), io.stderr.join('\n')).toBe(0);
  return io.stdout.join('\n');
}

const show = (id: string, format: string) => cli(['compare', '--show', id, '--format', format]);

beforeAll(async () => {
  // what `rgate compare` does (run the variants, keep the session), with the variants' runs kept
  // too (the CLI keeps only the session locally), so their reports can be read back
  const runs = new MemoryRunStore();
  session = await runCompare({
    suite: 'context-load',
    spec: (
      JSON.parse(readFileSync(join(REPO, 'rgate.config.json'), 'utf8')) as {
        suites: Record<string, SuiteSpec>;
      }
    ).suites['context-load']!,
    root: REPO,
    variants: (['uniform', 'evidence_outcome_bias'] as const).map((m) => ({
      label: `weighting_mode=${m}`,
      overrides: { weighting_mode: m },
    })),
    kind: 'variants',
    sessionId: 'cmp-applies',
    createdAt: '2026-11-26T00:00:00Z',
    store: runs,
    replays: 1,
    permutations: PERMUTATIONS,
    resamples: 500,
  });
  reports = session.variants.map((v) => runs.getReport(v.run_id) as Report);
  const store = new SqliteRunStore(join(t.dir, 'history.sqlite'));
  saveSession(store, session);
  store.close();
}, 120_000);
afterAll(() => t.cleanup());

describe('measures that do not apply are not tested', () => {
  it('leaves out the selection measures of a run without a selection step, and says why', () => {
    for (const r of reports) expect(r.judging?.selection_step).toBe(false);
    expect(session.not_applicable).toEqual([
      { id: 'top1_useful_rate', why: 'no selection step' },
      { id: 'fallback_expectation_met', why: 'no selection step' },
    ]);
    const tested = session.tests.map((x) => x.metric);
    expect(tested).toEqual([
      'top1_useful_any_mode',
      'replay_determinism',
      'ndcg_cut.5',
      'recall.10',
      'recip_rank',
    ]);
    expect(session.metrics.map((m) => m.id)).toEqual(tested);
    expect(session.winners.map((w) => w.metric)).toEqual(tested);
    // the JSON keeps every per-query value, as the run's JSON keeps every measure
    expect(Object.keys(session.variants[0]!.per_query)).toContain('top1_useful_rate');
  });

  it("Holm's correction runs over the 4 tests left that could reject, as computed by hand", () => {
    const tests = session.tests;
    expect(tests).toHaveLength(5);
    // top1_useful_any_mode (0/1 per query) and recip_rank (differences on a grid 1/K) are exact; the
    // nDCG and recall differences are on no small grid: estimated, at the floor 1/(permutations + 1)
    const floor = 1 / (PERMUTATIONS + 1);
    const by = Object.fromEntries(tests.map((x) => [x.metric, x]));
    expect(Object.fromEntries(tests.map((x) => [x.metric, x.p_exact]))).toEqual({
      top1_useful_any_mode: true,
      replay_determinism: true,
      'ndcg_cut.5': false,
      'recall.10': false,
      recip_rank: true,
    });
    expect([by['ndcg_cut.5']!.p_value, by['recall.10']!.p_value, by.replay_determinism!.p_value]).toEqual([
      floor,
      floor,
      1,
    ]);
    // a rate's exact p is a binomial tail: wins and losses are fair coins, ties move nothing
    const top1 = by.top1_useful_any_mode!;
    const k = top1.wins + top1.losses;
    const tail = (from: number) => {
      let sum = 0;
      let c = 1; // C(k, 0)
      for (let i = 0; i <= k; i++) {
        if (i >= from) sum += c;
        c = (c * (k - i)) / (i + 1);
      }
      return sum / 2 ** k;
    };
    expect(top1.p_value).toBeCloseTo(2 * tail(Math.max(top1.wins, top1.losses)), 15);
    // Holm by hand: replay_determinism ties on every query, so it cannot reject and is left out of
    // the family (Holm p 1); m = 4, sorted: recip_rank r, top1 t, ndcg f, recall f; each times 4, 3,
    // 2, 1 and raised to the one before it
    const r = by.recip_rank!.p_value!;
    const t = top1.p_value!;
    expect(r).toBeLessThan(t);
    expect(t).toBeLessThan(floor);
    const holm = Object.fromEntries(tests.map((x) => [x.metric, x.p_holm]));
    expect(holm).toEqual({
      recip_rank: 4 * r,
      top1_useful_any_mode: Math.max(4 * r, 3 * t),
      'ndcg_cut.5': 2 * floor,
      'recall.10': 2 * floor,
      replay_determinism: 1,
    });
  });

  it('every format counts the 4 tests of the family and names what it left out, in one line', async () => {
    const id = session.environment.session_id;
    const line = 'top1_useful_rate, fallback_expectation_met (no selection step)';
    const terminal = (await show(id, 'terminal')).replace(/\n +/g, ' ');
    expect(terminal).toContain('Holm over 4 tests; 1 tied on every query, left out');
    expect(terminal).toContain(`Not tested (not applicable, left out of Holm's family): ${line}`);
    const md = await show(id, 'md');
    expect(md).toContain('Holm over 4 tests; 1 tied on every query, left out');
    expect(md).toMatch(/^Not tested \(not applicable, left out of Holm's family\): top1\\_useful\\_rate, /m);
    const html = await show(id, 'html');
    expect(html).toContain('Holm over 4 tests; 1 tied on every query, left out');
    expect(html).toContain(
      `<p class="muted" id="not-tested">Not tested (not applicable, left out of Holm&#x27;s family): ${line}</p>`,
    );
  });
});

describe("each variant's figure in every format", () => {
  /** what a variant's per-query values of a rate counted: "53/86" */
  const counted = (v: number, metric: string) => {
    const values = Object.values(session.variants[v]!.per_query[metric]!);
    return `${values.filter((x) => x === 1).length}/${values.length}`;
  };

  it('a rate as numerator / denominator with its rate, a mean with its n', async () => {
    const id = session.environment.session_id;
    const [a, b] = [counted(0, 'top1_useful_any_mode'), counted(1, 'top1_useful_any_mode')];
    expect(a).not.toBe(b);
    const any = session.tests.find((x) => x.metric === 'top1_useful_any_mode')!;
    const ndcg = session.tests.find((x) => x.metric === 'ndcg_cut.5')!;
    const r4 = (x: number | null) => x!.toFixed(4).replace(/\.?0+$/, '');

    const md = await show(id, 'md');
    expect(md).toContain(
      `| \`top1_useful_any_mode\` | v1 | v2 | n=${any.n} (gate denominator ${any.n}) | ${a} (${r4(any.mean_a)}) | ${b} (${r4(any.mean_b)}) |`,
    );
    expect(md).toContain(`| ${r4(ndcg.mean_a)} (n=${ndcg.n}) | ${r4(ndcg.mean_b)} (n=${ndcg.n}) |`);

    const html = await show(id, 'html');
    expect(html).toContain(`<td class="num">${a} (${r4(any.mean_a)})</td>`);
    expect(html).toContain(`<td class="num">${r4(ndcg.mean_b)} (n&#x3D;${ndcg.n})</td>`);

    // the terminal's table still fits 80 columns, one row per metric, ids whole
    const terminal = await show(id, 'terminal');
    for (const l of terminal.split('\n')) expect([...l].length).toBeLessThanOrEqual(80);
    expect(terminal).toMatch(/^metric +vs +v1 +variant +Δ mean +95% CI +p +Holm p +W\/T\/L$/m);
    expect(terminal).toMatch(new RegExp(`^top1_useful_any_mode +v2 ${a} +${b} +-`, 'm'));
    expect(terminal).toMatch(new RegExp(`^ +${r4(any.mean_a)} +${r4(any.mean_b)} +-`, 'm'));
    expect(terminal).toMatch(new RegExp(`^ndcg_cut\\.5 +v2 ${r4(ndcg.mean_a)} +${r4(ndcg.mean_b)} `, 'm'));
  });
});

describe('the weights behind each weighting mode', () => {
  it("each variant and its run report carry the engine's preset for its mode", () => {
    for (const [i, mode] of (['uniform', 'evidence_outcome_bias'] as const).entries()) {
      const expected = { mode, weights: WEIGHT_PRESETS[mode] };
      expect(session.variants[i]!.weighting).toEqual(expected);
      expect(reports[i]!.system.weighting).toEqual(expected);
    }
  });

  it('JSON, Markdown and HTML of the session and the run report show them', async () => {
    const id = session.environment.session_id;
    const uniform = 'weighting_mode uniform: lexical 0.55 · evidence 0.20 · outcome 0.15 · freshness 0.10';
    const bias =
      'weighting_mode evidence_outcome_bias: lexical 0.40 · evidence 0.30 · outcome 0.20 · freshness 0.10';
    expect(await show(id, 'json')).toContain('"lexical": 0.55');
    const md = await show(id, 'md');
    expect(md).toContain('| weights |');
    expect(md).toContain(uniform.replaceAll('_', '\\_'));
    expect(md).toContain(bias.replaceAll('_', '\\_'));
    const html = await show(id, 'html');
    expect(html).toContain(`<td class="mono">${uniform}</td>`);
    expect(html).toContain(`<td class="mono">${bias}</td>`);
    expect((await show(id, 'terminal')).replace(/\n +/g, ' ')).toContain(bias);

    expect(renderMarkdown(reports[1]!)).toContain(`\n${bias.replaceAll('_', '\\_')}\n`);
    expect(renderHtml(reports[0]!)).toContain(`<p class="meta" id="weighting">${uniform}</p>`);
  });
});

describe('a session stored before these existed', () => {
  it('still shows in every format, as it was computed', async () => {
    const store = new SqliteRunStore(join(t.dir, 'history.sqlite'));
    const old = JSON.parse(JSON.stringify(session)) as CompareSession;
    delete old.not_applicable;
    for (const v of old.variants) delete v.weighting;
    old.environment.session_id = 'cmp-old';
    store.saveCompareSession(sessionRow(old), old);
    store.close();
    const terminal = await show('cmp-old', 'terminal');
    expect(terminal).not.toContain('Not tested');
    expect(terminal).not.toContain('lexical');
    expect(await show('cmp-old', 'md')).not.toContain('| weights |');
    expect(await show('cmp-old', 'html')).not.toContain('id="not-tested"');
    expect(JSON.parse(await show('cmp-old', 'json'))).toEqual(old);
  });
});
