import { resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MeasureValue, QuantileValue, RateValue } from '../src/documents/index.js';
import { artifacts, rate, semanticInput } from '../test/helpers/gate-inputs.js';
import { evaluateGate, type GateInput } from './evaluate.js';
import { loadGatePolicy, parseGatePolicy } from './policy.js';

const root = resolve(import.meta.dirname, '..');
const semantic = loadGatePolicy('semantic-retrieval-v1', root);
const gateC = loadGatePolicy('context-load-gate-c-v0', root);

const mean = (m: number, n = 40): MeasureValue => ({ kind: 'mean', n, mean: m, ci95: [m - 0.05, m + 0.05] });
const lat = (p95: number, n: number): QuantileValue => ({
  kind: 'quantiles',
  n,
  p50: p95 / 2,
  p95,
  p99: p95 * 1.2,
});
const top1Rule = (input: GateInput) =>
  evaluateGate(semantic, input).rules.find((r) => r.metric === 'top1_useful_rate')!;

describe('semantic-retrieval-v1 boundaries', () => {
  it('exactly 80% (40/50) passes, inside the WATCH band', () => {
    const g = evaluateGate(semantic, semanticInput(rate(40, 50)));
    expect(top1Rule(semanticInput(rate(40, 50))).status).toBe('watch');
    expect(g.verdict).toBe('WATCH');
    expect(g.reasons.join('\n')).toContain('40/50 = 80.0% meets the minimum 80.0%, inside the WATCH band');
  });
  it('79.99% (7999/10000) fails and prints as 79.99%, not 80.0%', () => {
    const g = evaluateGate(semantic, semanticInput(rate(7999, 10000)));
    expect(g.verdict).toBe('FAIL');
    expect(top1Rule(semanticInput(rate(7999, 10000))).reason).toBe(
      '7999/10000 = 79.99% is below the minimum 80.0%',
    );
  });
  it('82% (41/50) is the top of the band: WATCH; 83.3% is PASS', () => {
    expect(evaluateGate(semantic, semanticInput(rate(41, 50))).verdict).toBe('WATCH');
    expect(evaluateGate(semantic, semanticInput(rate(50, 60))).verdict).toBe('PASS');
  });
  it('denominator 49 is insufficient evidence even at 100%; 50 is enough', () => {
    const r49 = top1Rule(semanticInput(rate(49, 49)));
    expect(r49.status).toBe('fail');
    expect(r49.reason).toBe('insufficient evidence: 49/49, at least 50 in the denominator required');
    expect(top1Rule(semanticInput(rate(45, 50))).status).toBe('pass');
  });
  it('rate null (0/0) is FAIL, never a pass', () => {
    const r = top1Rule(semanticInput(rate(0, 0)));
    expect(r).toMatchObject({ status: 'fail', observed: null, numerator: 0, denominator: 0 });
    expect(r.reason).toContain('insufficient evidence: 0/0');
  });
  it('a missing metric fails as "not measured"', () => {
    const input = semanticInput(rate(45, 50));
    input.metrics = input.metrics.filter((m) => m.id !== 'fallback_determinism');
    const g = evaluateGate(semantic, input);
    expect(g.verdict).toBe('FAIL');
    expect(g.reasons).toContain(
      'FAIL fallback_determinism: not measured: this run has no fallback_determinism',
    );
  });
  it('fallback determinism 99% fails the 100% rule', () => {
    const input = semanticInput(rate(45, 50));
    input.metrics[1] = { id: 'fallback_determinism', value: rate(7, 8), help: '' };
    const r = evaluateGate(semantic, input).rules.find((x) => x.metric === 'fallback_determinism')!;
    expect(r.status).toBe('fail');
    expect(r.reason).toBe('7/8 = 87.5% is below the minimum 100.0%');
  });
  it('too few queries fails the query_count rule', () => {
    const g = evaluateGate(semantic, semanticInput(rate(45, 50), { query_count: 49 }));
    expect(g.verdict).toBe('FAIL');
    expect(g.rules[0]).toMatchObject({ metric: 'query_count', status: 'fail', observed: 49, threshold: 50 });
  });
  it('a set too small for the gate names that cause, never missing judgments', () => {
    // 10 queries, every top-1 judged: short of the minimum counts, not of judgments
    const g = evaluateGate(semantic, semanticInput(rate(9, 10), { query_count: 10 }));
    expect(g).toMatchObject({ verdict: 'FAIL', cause: 'queries' });
    expect(g.reasons[0]).toBe(
      'too few queries (the query set, not the system, decides this FAIL): 10 queries, at least 50 required; add queries to the set (grading answers cannot supply them)',
    );
    const judged = g.rules.find((r) => r.metric === 'judged_top1')!;
    expect(judged).toMatchObject({ status: 'fail', insufficient: 'too_few' });
    expect(judged.reason).toBe('insufficient evidence: 10/10, at least 50 in the denominator required');
    expect(g.reasons.join('\n')).not.toMatch(/insufficient judgments|label pool/);
  });
  it('counts made small by failed requests name the system, not the set', () => {
    const input = semanticInput(rate(9, 10), { query_count: 10 });
    input.metrics.push({ id: 'error_rate', value: rate(3, 50), help: '' });
    expect(evaluateGate(semantic, input).cause).toBe('system');
  });
  it('checklist items are computed from the evidence and can fail the gate', () => {
    const ok = evaluateGate(semantic, semanticInput(rate(45, 50)));
    expect(ok.verdict).toBe('PASS');
    expect(ok.checklist.map((c) => [c.id, c.ok])).toEqual([
      ['pinned_artifacts', true],
      ['thresholds_as_defined', true],
      ['fallback_ordering_and_determinism', true],
      ['selection_fields_on_every_response', true],
    ]);
    const bad = semanticInput(rate(45, 50), {
      checklist_evidence: { responses_with_selection_fields: { numerator: 289, denominator: 290 } },
    });
    bad.metrics[0] = { id: 'top1_useful_rate', value: { ...rate(45, 50), rate: 0.95 }, help: '' };
    const g = evaluateGate(semantic, bad);
    expect(g.verdict).toBe('FAIL');
    const byId = Object.fromEntries(g.checklist.map((c) => [c.id, c]));
    expect(byId.thresholds_as_defined!.evidence).toBe('top1_useful_rate: rate 0.95 is not 45/50');
    expect(byId.fallback_ordering_and_determinism!.ok).toBe(false);
    expect(byId.selection_fields_on_every_response!.evidence).toContain('289/290');
    expect(byId.pinned_artifacts!.ok).toBe(true);
  });
  it('a warn-level miss is WATCH, not FAIL', () => {
    const policy = { ...semantic, rules: semantic.rules.map((r) => ({ ...r, severity: 'warn' as const })) };
    const g = evaluateGate(policy, semanticInput(rate(30, 50)));
    expect(g.verdict).toBe('WATCH');
  });
});

function gateCInput(over: Partial<GateInput> = {}): GateInput {
  return {
    metrics: [
      { id: 'ndcg_cut.5', value: mean(0.55), help: '' },
      { id: 'recall.10', value: mean(0.84), help: '' },
      { id: 'replay_determinism', value: rate(40, 40), help: '' },
      { id: 'budget_compliance', value: rate(1200, 1200), help: '' },
    ],
    latency: {
      all: lat(900, 1200),
      'profile:large': lat(1500, 400),
      'profile:medium': lat(900, 400),
      small: lat(400, 400),
    },
    query_count: 40,
    replays: 30,
    artifacts,
    baseline: {
      source: 'runs/base/report.json',
      metrics: [
        { id: 'ndcg_cut.5', value: mean(0.5), help: '' },
        { id: 'recall.10', value: mean(0.84), help: '' },
      ],
    },
    checklist_evidence: {},
    ...over,
  };
}

describe('context-load-gate-c-v0', () => {
  it('passes with +10% uplift exactly, recall equal to baseline, 30 replays, p95 under 2 s', () => {
    const g = evaluateGate(gateC, gateCInput());
    expect(g.reasons).toEqual(['all 7 rules met over 40 queries and 30 replays; 2 checklist items verified']);
    expect(g.verdict).toBe('PASS');
    const up = g.rules.find((r) => r.metric === 'ndcg_cut.5')!;
    expect(up.observed).toBeCloseTo(0.1, 12);
    expect(up.baseline).toEqual({ value: 0.5, source: 'runs/base/report.json', comparison: 'uplift' });
  });
  it('without a baseline, baseline rules FAIL with "no baseline"', () => {
    const input = gateCInput();
    delete input.baseline;
    const g = evaluateGate(gateC, input);
    expect(g.verdict).toBe('FAIL');
    const base = g.rules.filter((r) => r.baseline);
    expect(base).toHaveLength(2);
    for (const r of base) expect(r).toMatchObject({ status: 'fail', observed: null });
    expect(base[0]!.reason).toMatch(/^no baseline: /);
  });
  it('recall below the baseline fails even when above 0.80', () => {
    const input = gateCInput();
    input.baseline!.metrics[1] = { id: 'recall.10', value: mean(0.86), help: '' };
    const r = evaluateGate(gateC, input).rules.filter((x) => x.metric === 'recall.10');
    expect(r.map((x) => x.status)).toEqual(['pass', 'fail']);
    expect(r[1]!.reason).toBe('recall.10 0.84 vs baseline 0.86: delta -0.02 is below the baseline');
  });
  it('29 replays is insufficient evidence for replay determinism', () => {
    const r = evaluateGate(gateC, gateCInput({ replays: 29 })).rules.find(
      (x) => x.metric === 'replay_determinism',
    )!;
    expect(r.reason).toBe('insufficient evidence: 29 replays, at least 30 required');
  });
  it('latency: every profile needs >= 30 samples and p95 <= 2000 ms', () => {
    const slow = evaluateGate(gateC, gateCInput({ latency: { small: lat(400, 40), large: lat(2100, 40) } }));
    const r = slow.rules.find((x) => x.metric === 'latency_ms')!;
    expect(r).toMatchObject({ status: 'fail', observed: 2100, n: 40 });
    expect(r.reason).toBe('large p95 2,100 ms (n=40) above the maximum 2,000 ms; small p95 400 ms (n=40)');
    const few = evaluateGate(gateC, gateCInput({ latency: { small: lat(400, 29), large: lat(500, 40) } }));
    expect(few.rules.find((x) => x.metric === 'latency_ms')!.reason).toContain(
      'small: insufficient evidence: n=29, at least 30 samples required',
    );
    const none = evaluateGate(gateC, gateCInput({ latency: { all: lat(400, 100) } }));
    expect(none.rules.find((x) => x.metric === 'latency_ms')!.reason).toBe(
      'not measured: no per-profile latency samples in this run',
    );
  });
  it('budget compliance over 49 requests is insufficient evidence', () => {
    const input = gateCInput();
    input.metrics[3] = { id: 'budget_compliance', value: rate(49, 49), help: '' };
    expect(evaluateGate(gateC, input).verdict).toBe('FAIL');
  });
});

describe('properties', () => {
  const policy = {
    gate_id: 'p',
    version: '1',
    description: '',
    min_queries: 1,
    rules: [{ metric: 'top1_useful_rate', min: 0.8, min_denominator: 50 }],
  };
  const input = (k: number, n: number): GateInput => ({
    metrics: [{ id: 'top1_useful_rate', value: rate(k, n), help: '' }],
    latency: {},
    query_count: 60,
    replays: 1,
    artifacts,
    checklist_evidence: {},
  });
  it('too small a denominator is never a pass, whatever the rate', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 0, max: 49 })
          .chain((n) => fc.tuple(fc.integer({ min: 0, max: n }), fc.constant(n))),
        ([k, n]) => {
          const g = evaluateGate(policy, input(k, n));
          expect(g.verdict).toBe('FAIL');
          expect(g.rules[1]!.reason).toMatch(/^insufficient evidence: \d+\/\d+/);
        },
      ),
    );
  });
  it('with enough evidence the verdict is PASS exactly when k/n >= 0.8', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 50, max: 5000 })
          .chain((n) => fc.tuple(fc.integer({ min: 0, max: n }), fc.constant(n))),
        ([k, n]) => {
          const g = evaluateGate(policy, input(k, n));
          expect(g.verdict).toBe(5 * k >= 4 * n ? 'PASS' : 'FAIL');
        },
      ),
    );
  });
});

describe('missing fallback evidence says how to get it', () => {
  const withFallback = (det: RateValue, probes?: RateValue): GateInput => {
    const input = semanticInput(rate(45, 50));
    input.metrics = input.metrics.map((m) => (m.id === 'fallback_determinism' ? { ...m, value: det } : m));
    if (probes) input.metrics.push({ id: 'fallback_expectation_met', value: probes, help: '' });
    return input;
  };
  const detRule = (input: GateInput) =>
    evaluateGate(semantic, input).rules.find((r) => r.metric === 'fallback_determinism')!;

  it('no query fell back and the set has no probes: run rgate probes add <set>', () => {
    const r = detRule(withFallback(rate(0, 0)));
    expect(r.status).toBe('fail');
    expect(r.reason).toBe(
      'insufficient evidence: 0/0, nothing was counted; add fallback probes to the query set: rgate probes add semantic-v1 --version <next> --reset-note "fallback probes added" (then run again)',
    );
    const unfrozen = withFallback(rate(0, 0));
    unfrozen.artifacts = { ...artifacts, version: 'unfrozen' };
    expect(detRule(unfrozen).reason).toContain('rgate probes add semantic-v1 (then run again)');
  });

  it('the set has probes that did not fall back: no advice to add more', () => {
    const r = detRule(withFallback(rate(0, 0), rate(0, 6)));
    expect(r.reason).toBe(
      "insufficient evidence: 0/0, nothing was counted; the set's 6 probe queries did not give this evidence (see fallback_expectation_met and error_rate)",
    );
  });

  it('with evidence, no hint', () => {
    expect(detRule(withFallback(rate(8, 8))).reason).not.toContain('probes');
  });
});

describe('judgment debt is its own verdict (judged_top1)', () => {
  /** the semantic policy's input with a judged_top1 over the same denominator as top1 */
  const withDebt = (top1: RateValue, judged: RateValue): GateInput => {
    const input = semanticInput(top1);
    return {
      ...input,
      suite: 'semantic',
      metrics: input.metrics.map((m) => (m.id === 'judged_top1' ? { ...m, value: judged } : m)),
    };
  };

  it('a top-1 FAIL the unjudged top-1s could still carry is undecided: the fixture is the cause, named first', () => {
    // 37/86 useful, 43 unjudged: judged useful they would make 80/86 = 93.0%
    const g = evaluateGate(semantic, withDebt(rate(37, 86), rate(43, 86)));
    expect(g.verdict).toBe('FAIL');
    expect(g.cause).toBe('judgments');
    expect(g.reasons[0]).toBe(
      'insufficient judgments (the fixture, not the system, decides this FAIL): 43 of 86 top-1s unjudged; run `rgate label pool semantic --modes all`',
    );
    const top1 = g.rules.find((r) => r.metric === 'top1_useful_rate')!;
    expect(top1.status).toBe('fail');
    expect(top1.undecided).toBe(true);
    expect(top1.reason).toBe(
      '37/86 = 43.0% is below the minimum 80.0%; undecided: 43 unjudged top-1s count as not useful, and judged useful they would make it 80/86 = 93.0%',
    );
    const judged = g.rules.find((r) => r.metric === 'judged_top1')!;
    expect(judged.reason).toBe(
      'insufficient judgments: 43 of 86 top-1s unjudged (43/86 = 50.0% is below the minimum 95.0%); run `rgate label pool semantic --modes all`',
    );
    // judgment completeness is listed before the rules that rest on it
    expect(g.reasons[1]).toMatch(/^FAIL judged_top1: insufficient judgments/);
    expect(g.reasons[2]).toMatch(/^FAIL top1_useful_rate: /);
  });

  it('a top-1 FAIL that holds even with every unjudged top-1 useful is the system: cause system', () => {
    // the figures: 37/86 useful, 24 unjudged -> at best 61/86 = 70.9% < 80%
    const g = evaluateGate(semantic, withDebt(rate(37, 86), rate(62, 86)));
    expect(g.verdict).toBe('FAIL');
    expect(g.cause).toBe('system');
    const top1 = g.rules.find((r) => r.metric === 'top1_useful_rate')!;
    expect(top1.undecided).toBeUndefined();
    expect(top1.reason).toBe(
      '37/86 = 43.0% is below the minimum 80.0%, and would be even if all 24 unjudged top-1s were useful (61/86 = 70.9%)',
    );
    // the shortfall is still reported, first
    expect(g.reasons[0]).toBe(
      'FAIL judged_top1: insufficient judgments: 24 of 86 top-1s unjudged (62/86 = 72.1% is below the minimum 95.0%); run `rgate label pool semantic --modes all`',
    );
  });

  it('a met top-1 rule with too few judgments FAILs on the fixture alone', () => {
    const g = evaluateGate(semantic, withDebt(rate(45, 50), rate(40, 50)));
    expect(g.verdict).toBe('FAIL');
    expect(g.cause).toBe('judgments');
    expect(g.rules.find((r) => r.metric === 'top1_useful_rate')!.status).toBe('pass');
  });

  it('a broken system rule is never excused by judgment debt', () => {
    const input = withDebt(rate(37, 86), rate(43, 86));
    input.metrics = input.metrics.map((m) =>
      m.id === 'selection_mode_reporting' ? { ...m, value: rate(289, 290) } : m,
    );
    expect(evaluateGate(semantic, input).cause).toBe('system');
  });

  it('complete judgments: no cause on a pass, cause system on a FAIL; 95% judged is enough', () => {
    const pass = evaluateGate(semantic, withDebt(rate(45, 50), rate(50, 50)));
    expect(pass.verdict).toBe('PASS');
    expect(pass.cause).toBeUndefined();
    expect(evaluateGate(semantic, withDebt(rate(50, 60), rate(57, 60))).verdict).toBe('PASS');
    const fail = evaluateGate(semantic, withDebt(rate(30, 50), rate(50, 50)));
    expect(fail.cause).toBe('system');
    expect(fail.rules.find((r) => r.metric === 'top1_useful_rate')!.reason).toBe(
      '30/50 = 60.0% is below the minimum 80.0%',
    );
  });
});

describe('judgment debt wording', () => {
  it('one unjudged top-1 reads in the singular', () => {
    const input = semanticInput(rate(10, 86));
    input.metrics = input.metrics.map((m) => (m.id === 'judged_top1' ? { ...m, value: rate(85, 86) } : m));
    const top1 = evaluateGate(semantic, input).rules.find((r) => r.metric === 'top1_useful_rate')!;
    expect(top1.reason).toBe(
      '10/86 = 11.6% is below the minimum 80.0%, and would be even if the 1 unjudged top-1 were useful (11/86 = 12.8%)',
    );
  });
});

describe('vs_base rules in a run', () => {
  const policy = parseGatePolicy(
    {
      gate_id: 'g',
      version: '1',
      description: '',
      min_queries: 1,
      rules: [
        { metric: 'top1_useful_rate', min: 0.5 },
        { metric: 'ndcg_cut.10', vs_base: { max_drop: 0.02 } },
        { metric: 'map', vs_base: { max_drop: 0.05, significant: false, alpha: 0.01 } },
      ],
    },
    'g.json',
  );
  it('are not evaluated, say who judges them, and change no verdict', () => {
    const pass = evaluateGate(policy, semanticInput(rate(45, 50)));
    expect(pass.verdict).toBe('PASS');
    expect(pass.rules.map((r) => r.metric)).toEqual(['query_count', 'top1_useful_rate']);
    expect(pass.vs_base_rules).toEqual([
      {
        metric: 'ndcg_cut.10',
        max_drop: 0.02,
        significant: true,
        alpha: 0.05,
        reason:
          "judged by the server against the base branch's run on upload, not in this run's verdict: a drop of more than 0.02 below the base run that the paired test calls significant at alpha 0.05 fails it",
      },
      expect.objectContaining({ metric: 'map', significant: false, alpha: 0.01 }),
    ]);
    // "all 2 rules": the two evaluated, never the four of the policy
    expect(pass.reasons[0]).toBe('all 2 rules evaluated here met over 58 queries and 5 replays');
    expect(pass.reasons[1]).toMatch(/^NOT EVALUATED ndcg_cut\.10 vs base: judged by the server/);
    expect(pass.reasons[2]).toBe(
      "NOT EVALUATED map vs base: judged by the server against the base branch's run on upload, not in this run's verdict: a drop of more than 0.05 below the base run fails it",
    );
    const failed = evaluateGate(policy, semanticInput(rate(10, 50)));
    expect(failed.verdict).toBe('FAIL');
    expect(failed.vs_base_rules).toHaveLength(2);
  });
  it('a policy without one carries no vs_base_rules field', () => {
    expect(evaluateGate(semantic, semanticInput(rate(45, 50)))).not.toHaveProperty('vs_base_rules');
  });
});
