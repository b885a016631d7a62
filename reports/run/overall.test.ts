import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/documents/index.js';
import { evaluateGate, parseGatePolicy, type GateInput } from '../../gates/index.js';
import { exitMeaning, renderOverall, worstVerdict } from './overall.js';

function report(suite: string, verdict: Report['gate']['verdict'], failing = false): Report {
  return {
    suite,
    gate: {
      gate_id: `${suite}-gate`,
      gate_version: '1',
      verdict,
      reasons: [],
      checklist: [],
      rules: [
        {
          metric: 'top1_useful_rate',
          op: 'min',
          threshold: 0.8,
          observed: failing ? 4 / 86 : 0.9,
          numerator: failing ? 4 : 77,
          denominator: 86,
          status: failing ? 'fail' : 'pass',
          reason: '',
        },
      ],
    },
    timing: { timing_rules: [] },
  } as unknown as Report;
}

describe('renderOverall', () => {
  it('orders rows best first and the overall line worst first; failing rules are named', () => {
    const text = renderOverall([report('semantic', 'FAIL', true), report('context-load', 'PASS')], {
      exitCode: 1,
    });
    const lines = text.split('\n');
    expect(lines[1]).toMatch(/^ {2}PASS {2}context-load/);
    expect(lines[2]).toMatch(/^ {2}FAIL {2}semantic/);
    expect(lines[3]).toBe('        fail: top1_useful_rate 4/86 = 0.0465 (min 0.8)');
    expect(lines.at(-1)).toBe('rgate: semantic FAIL, context-load PASS -> exit 1 (a gate failed)');
  });

  it('a rule failed for insufficient evidence says so, not a value that reads as a pass', () => {
    const r = report('semantic', 'FAIL', true);
    Object.assign(r.gate.rules[0]!, {
      threshold: 0.4,
      observed: 39 / 86,
      numerator: 39,
      denominator: 86,
      reason: 'insufficient evidence: 39/86, at least 200 in the denominator required; add probes',
    });
    const lines = renderOverall([r], { exitCode: 1 }).split('\n');
    expect(lines[2]).toBe(
      '        fail: top1_useful_rate: insufficient evidence: 39/86, at least 200 in the denominator required',
    );
  });

  it('colours the overall line by the worst verdict, and only when asked', () => {
    const bad = renderOverall([report('a', 'PASS'), report('b', 'FAIL', true)], { exitCode: 1, color: true });
    expect(bad.split('\n').at(-1)).toContain('\u001b[31m');
    expect(bad.split('\n').at(-1)).not.toContain('\u001b[32m');
    const good = renderOverall([report('a', 'PASS')], { exitCode: 0, color: true });
    expect(good.split('\n').at(-1)).toContain('\u001b[32m');
    // exit 3 with only PASS verdicts is still painted as a failure
    const down = renderOverall([report('a', 'PASS')], { exitCode: 3, color: true, systemDown: true });
    expect(down.split('\n').at(-1)).toContain('\u001b[31m');
    expect(down).toContain('(a system under test is down) -> exit 3');
    expect(renderOverall([report('a', 'PASS')], { exitCode: 0 })).not.toContain('\u001b[');
  });

  it('an interrupted invocation says so first and names no verdict: the cut suite, those never run, those complete', () => {
    const text = renderOverall([report('a', 'PASS'), report('b', 'FAIL', true)], {
      exitCode: 130,
      color: true,
      interrupted: { by: 'SIGINT', suites: ['b'], notRun: ['c', 'd'] },
    });
    const last = text.split('\n').at(-1)!;
    expect(last).toContain(
      'rgate: interrupted by SIGINT: b interrupted, c not run, d not run, a complete -> exit 130 (interrupted: no verdict)',
    );
    expect(last).toContain('\u001b[31m');
    expect(last).not.toContain('PASS');
    expect(exitMeaning(143, [])).toBe('interrupted: no verdict');
  });

  it('an interrupted suite shows no rule as failed, only what it observed (nothing, here)', () => {
    const cut = report('b', 'FAIL', true);
    cut.gate.reasons = ['run interrupted: 0 of 6 requests observed'];
    const lines = renderOverall([report('a', 'PASS'), cut], {
      exitCode: 130,
      interrupted: { by: 'SIGINT', suites: ['b'], notRun: [] },
    }).split('\n');
    expect(lines[1]).toMatch(/^ {2}PASS {2}a/);
    expect(lines[2]).toBe('  -     b      b-gate  no verdict (run interrupted: 0 of 6 requests observed)');
    expect(lines).toHaveLength(4);
    expect(lines.join('\n')).not.toContain('fail:');
  });

  it('a rule short of evidence names that, not a value that reads as passing; the hint is left to the report', () => {
    // 39/86 = 0.4535 meets min 0.4, but 100 are required: the rule fails (the warn-level one watches)
    const rule = (severity?: 'warn') => ({
      metric: 'top1_useful_rate',
      min: 0.4,
      min_denominator: 100,
      ...(severity ? { severity } : {}),
      description: 'top-1',
    });
    const policy = (id: string, severity?: 'warn') =>
      parseGatePolicy(
        { gate_id: id, version: '1', description: id, min_queries: 1, rules: [rule(severity)] },
        `${id}.gate.json`,
      );
    const input: GateInput = {
      metrics: [
        {
          id: 'top1_useful_rate',
          value: { kind: 'rate', numerator: 39, denominator: 86, rate: 39 / 86, wilson95: [0.35, 0.56] },
          help: '',
        },
      ],
      latency: {},
      query_count: 86,
      replays: 1,
      artifacts: {} as GateInput['artifacts'],
      checklist_evidence: {},
    };
    const withGate = (suite: string, id: string, severity?: 'warn'): Report =>
      ({
        ...report(suite, 'PASS'),
        gate: evaluateGate(policy(id, severity), input),
      }) as Report;
    const failed = withGate('a', 'strict');
    expect(failed.gate.verdict).toBe('FAIL');
    const watched = withGate('b', 'lenient', 'warn');
    expect(watched.gate.verdict).toBe('WATCH');
    const lines = renderOverall([failed, watched], { exitCode: 1 }).split('\n');
    expect(lines).toContain(
      '        fail: top1_useful_rate: insufficient evidence: 39/86, at least 100 in the denominator required',
    );
    expect(lines).toContain(
      '        watch: top1_useful_rate: insufficient evidence: 39/86, at least 100 in the denominator required (warn-level rule: WATCH, not FAIL)',
    );
    expect(lines.join('\n')).not.toContain('0.4535');
  });

  it('names the exit codes and the worst verdict', () => {
    expect(exitMeaning(0, ['PASS', 'WATCH'])).toBe('passed, with a WATCH warning');
    expect(exitMeaning(1, ['FAIL'])).toBe('a gate failed');
    expect(worstVerdict(['PASS', 'WATCH', 'PASS'])).toBe('WATCH');
    expect(worstVerdict([])).toBe('PASS');
  });
});
