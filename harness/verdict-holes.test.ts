import { describe, expect, it } from 'vitest';
import type { GateResult, QueryOutcome, RuleResult } from '../src/documents/index.js';
import { withVerdictHoles } from './verdict-holes.js';

function q(
  id: string,
  top1: QueryOutcome['top1'],
  over: Partial<QueryOutcome> = {},
  mode = 'semantic',
): QueryOutcome {
  return {
    query_id: id,
    text: id,
    kind: 'benchmark',
    expected: {},
    actual: { ok: true, top_ids: [`d-${id}`], selected_id: `d-${id}`, selection_mode: mode as 'semantic' },
    top1,
    top1_by: 'qrels',
    judged: true,
    deterministic: true,
    ...over,
  } as QueryOutcome;
}

const top1Rule = (num: number, den: number): RuleResult => ({
  metric: 'top1_useful_rate',
  op: 'min',
  threshold: 0.8,
  observed: num / den,
  numerator: num,
  denominator: den,
  watch_band: [0.8, 0.82],
  status: num / den >= 0.8 ? 'pass' : 'fail',
  reason: '',
});

const gate = (rules: RuleResult[]): GateResult => ({
  gate_id: 'g',
  gate_version: '1',
  verdict: rules.some((r) => r.status === 'fail') ? 'FAIL' : 'PASS',
  rules,
  reasons: [],
  checklist: [],
});

// 38 of 50 useful; q01-q03 are holes: no judgment covers q01, q02's top-1 has no qrels line, q03 was
// selected by a fallback (useful there, it still would not count for top1_useful_rate)
const queries = [
  q('q01', 'unjudged'),
  q('q02', 'not_useful'),
  q('q03', 'unjudged', {}, 'fallback_path_priority'),
  q('q04', 'not_useful'),
  q('q05', 'useful'),
];
const qrels: Record<string, Record<string, number>> = { q02: { other: 1 }, q04: { 'd-q04': 0 } };

describe('withVerdictHoles', () => {
  it('names the pairs whose grades could carry a failing top-1 rule past its threshold', () => {
    const g = withVerdictHoles(gate([top1Rule(38, 50)]), queries, true, ['semantic'], (id) => qrels[id]);
    const h = g.rules[0]!.holes!;
    // q04's top-1 is graded 0 in the qrels: judged, not a hole
    expect(h.unjudged).toBe(3);
    expect(h.low).toBeCloseTo(38 / 50, 12);
    // q01 and q02 would count as semantic wins, q03 (a fallback) would not: 40/50 = 80%
    expect(h.high).toBeCloseTo(40 / 50, 12);
    expect(h.can_flip).toBe(true);
    expect(g.verdict_pairs).toEqual([
      { query_id: 'q01', doc_id: 'd-q01' },
      { query_id: 'q02', doc_id: 'd-q02' },
      { query_id: 'q03', doc_id: 'd-q03' },
    ]);
  });

  it('names none when grading cannot change the verdict', () => {
    // 30/50: 33/50 at best, FAIL either way
    const far = withVerdictHoles(gate([top1Rule(30, 50)]), queries, true, ['semantic'], (id) => qrels[id]);
    expect(far.rules[0]!.holes).toMatchObject({ unjudged: 3, can_flip: false });
    expect(far.verdict_pairs).toEqual([]);
    // the rule could flip, but another rule fails whatever is graded
    const other: RuleResult = {
      metric: 'error_rate',
      op: 'max',
      threshold: 0,
      observed: 0.1,
      status: 'fail',
      reason: '',
    };
    const blocked = withVerdictHoles(
      gate([top1Rule(38, 50), other]),
      queries,
      true,
      ['semantic'],
      (id) => qrels[id],
    );
    expect(blocked.rules[0]!.holes!.can_flip).toBe(true);
    expect(blocked.verdict_pairs).toEqual([]);
    // a gate with no top-1 rate rule is left as it was, and so is an overruled run
    expect(withVerdictHoles(gate([other]), queries, true, ['semantic'], () => undefined)).not.toHaveProperty(
      'verdict_pairs',
    );
    const overruled = { ...gate([top1Rule(38, 50)]), overruled: 'down' as const };
    expect(withVerdictHoles(overruled, queries, true, ['semantic'], () => undefined)).toBe(overruled);
  });
});
