/**
 * The vs-base gate (issue 35, item 1): a run's `vs_base` rules judged against its base branch's run,
 * pure, from the paired tests of the vs-base page (base run `a`, this run `b`). A rule FAILs when the
 * run's mean drops below the base run's by more than its max_drop and, when it asks for significance,
 * the paired test's p is below its alpha; a drop the test cannot tell from noise passes, and says so.
 * Without a base run or a test of the measure the rule is NOT_EVALUATED, with why: never a PASS.
 */
import type {
  Better,
  PairedTest,
  VsBaseGate,
  VsBaseRuleEntry,
  VsBaseRuleResult,
  VsBaseVerdict,
} from '../src/documents/index.js';
import { num, signedNum, testP } from './format.js';

/** Floating-point slack, as the gate evaluator's: a drop equal to max_drop is within it. */
const EPS = 1e-12;

/** What the rules are judged on: the base run (or why there is none) and the paired tests (or why none). */
export interface VsBaseEvidence {
  base: { run_id: string; why: string } | { run_id: null; why: string };
  /** the paired tests of this run against the base run (a = base, b = run) and each measure's direction */
  comparison: { tests: readonly PairedTest[]; better: (metric: string) => Better } | { unavailable: string };
}

/** Example: judgeVsBase(report.gate.vs_base_rules, { base, comparison }).verdict === 'FAIL' */
export function judgeVsBase(rules: readonly VsBaseRuleEntry[], e: VsBaseEvidence): VsBaseGate {
  const results = rules.map((r) => judgeRule(r, e));
  const verdict: VsBaseVerdict = results.some((r) => r.verdict === 'FAIL')
    ? 'FAIL'
    : results.length > 0 && results.every((r) => r.verdict === 'PASS')
      ? 'PASS'
      : 'NOT_EVALUATED';
  return { verdict, base_run_id: e.base.run_id, why: e.base.why, rules: results };
}

function judgeRule(rule: VsBaseRuleEntry, e: VsBaseEvidence): VsBaseRuleResult {
  const head = {
    metric: rule.metric,
    max_drop: rule.max_drop,
    significant: rule.significant,
    alpha: rule.alpha,
  };
  const notEvaluated = (reason: string): VsBaseRuleResult => ({
    ...head,
    base: null,
    run: null,
    delta: null,
    drop: null,
    p: null,
    n: 0,
    verdict: 'NOT_EVALUATED',
    reason,
  });
  if (e.base.run_id === null) return notEvaluated(`no base run: ${e.base.why}`);
  if ('unavailable' in e.comparison)
    return notEvaluated(`no paired test against base run ${e.base.run_id}: ${e.comparison.unavailable}`);
  const t = e.comparison.tests.find((x) => x.metric === rule.metric);
  if (!t || t.n === 0 || t.mean_a === null || t.mean_b === null || t.mean_delta === null)
    return notEvaluated(
      `no query has ${rule.metric} in both this run and base run ${e.base.run_id}: the paired test has nothing to compare`,
    );
  const lowerIsBetter = e.comparison.better(rule.metric) === 'lower';
  const drop = lowerIsBetter ? t.mean_delta : -t.mean_delta;
  const figures = {
    ...head,
    base: t.mean_a,
    run: t.mean_b,
    delta: t.mean_delta,
    drop,
    p: t.p_value,
    n: t.n,
  };
  const what = `${rule.metric} ${num(t.mean_b)} vs base ${num(t.mean_a)} over ${t.n} ${t.n === 1 ? 'query' : 'queries'} (${signedNum(t.mean_delta)}, p ${testP(t)})`;
  const bound = `the maximum drop ${num(rule.max_drop)}`;
  if (drop <= rule.max_drop + EPS) {
    const verdictText =
      drop <= 0
        ? `no drop${lowerIsBetter ? ' (lower is better)' : ''}`
        : `a drop of ${num(drop)}, within ${bound}`;
    return { ...figures, verdict: 'PASS', reason: `${what}: ${verdictText}` };
  }
  const over = `a drop of ${num(drop)}, more than ${bound}`;
  if (!rule.significant)
    return { ...figures, verdict: 'FAIL', reason: `${what}: ${over} (the rule asks for no significance)` };
  if (t.p_value !== null && t.p_value < rule.alpha)
    return { ...figures, verdict: 'FAIL', reason: `${what}: ${over}, significant at alpha ${rule.alpha}` };
  return {
    ...figures,
    verdict: 'PASS',
    reason: `${what}: ${over}, but not significant at alpha ${rule.alpha}: the paired test cannot tell it from noise`,
  };
}

/** "NOT_EVALUATED" as a sentence writes it. */
export function vsBaseVerdictText(v: VsBaseVerdict): string {
  return v === 'NOT_EVALUATED' ? 'NOT EVALUATED' : v;
}

/**
 * The vs-base gate in lines, as the CLI, the step summary and the vs-base page print it: the verdict
 * against which base run (or why none), then one line per rule with its figures.
 */
export function vsBaseGateLines(g: VsBaseGate): string[] {
  const n = g.rules.length;
  const rules = `${n} rule${n === 1 ? '' : 's'}`;
  const count = (v: VsBaseVerdict) => g.rules.filter((r) => r.verdict === v).length;
  const against = g.base_run_id === null ? '' : ` against base run ${g.base_run_id}`;
  const head =
    g.verdict === 'FAIL'
      ? `${count('FAIL')} of ${rules} failed`
      : g.verdict === 'PASS'
        ? `all ${rules} met`
        : g.base_run_id === null
          ? `no base run: ${g.why}`
          : `${count('NOT_EVALUATED')} of ${rules} could not be judged`;
  return [
    `vs-base gate ${vsBaseVerdictText(g.verdict)}${against}: ${head}`,
    ...g.rules.map((r) => `${vsBaseVerdictText(r.verdict)} ${r.metric} vs base: ${r.reason}`),
  ];
}
