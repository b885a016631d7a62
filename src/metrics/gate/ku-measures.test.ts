import { describe, expect, it } from 'vitest';
import type { CorpusRecord, KuObservation, Observation, QueryRecord } from '../../documents/index.js';
import { GateContext } from './_context.js';
import { aggregate } from './_values.js';
import { kuEscalationRate } from './ku-escalation-rate.js';
import { kuGuidanceRetention } from './ku-guidance-retention.js';
import { kuLevelAppropriateness } from './ku-level-appropriateness.js';
import { kuOverBudgetSplit } from './ku-over-budget-split.js';
import { kuOverBudgetWhole } from './ku-over-budget-whole.js';
import type { GateMeasure } from './_types.js';

const r = (id: string, level: CorpusRecord['level'], parent?: string): CorpusRecord => ({
  id,
  source_path: `kb/${id}.md`,
  text: id,
  kind: 'canonical',
  captured_at: '2026-01-01T00:00:00Z',
  ...(level ? { level } : {}),
  ...(parent ? { parent_id: parent } : {}),
});
const corpus = [r('s', 'summary'), r('i', 'intermediate', 's'), r('l1', 'leaf', 'i'), r('l2', 'leaf', 'i')];

const queries: QueryRecord[] = [
  // asks for the intermediate; the answer split it into its leaves and kept one of two guidance units
  {
    query_id: 'a',
    text: 'a',
    ku: {
      expected_level: 'intermediate',
      required_guidance: [
        { id: 'g1', role: 'planner' },
        { id: 'g2', role: 'validation' },
      ],
    },
  },
  // asks for a leaf; got a leaf and a summary, escalated, and loaded an over-budget unit whole
  {
    query_id: 'b',
    text: 'b',
    ku: { expected_level: 'leaf', required_guidance: [{ id: 'g3', role: 'goalSolver' }] },
  },
  // errored: keeps nothing, one unit at the wrong level, says nothing about escalation
  {
    query_id: 'c',
    text: 'c',
    ku: { expected_level: 'summary', required_guidance: [{ id: 'g4', role: 'planner' }] },
  },
  // no KU judgments: in no denominator but escalation's
  { query_id: 'd', text: 'd' },
];

const ku = (o: Partial<KuObservation>): KuObservation => ({
  purpose: 'task-evidence',
  escalated: false,
  strategies_run: ['level:leaf'],
  levels_used: [],
  total_considered: 4,
  units: [],
  over_budget: [],
  response_sha256: `sha256:${'0'.repeat(64)}`,
  ...o,
});
const obs = (query_id: string, o: Partial<Observation>): Observation => ({
  query_id,
  replay: 1,
  ok: true,
  ranked: [],
  fallback: { triggered: false },
  usage: { files: 0, chars: 0, tokens: 0 },
  latency_ms: 1,
  contract: { name: 'resolved-intent', valid: true, errors: [] },
  fingerprint: query_id,
  ...o,
});
const observations: Observation[] = [
  obs('a', {
    ku: ku({
      units: [
        { id: 'g1', origin: 'guidance', role: 'planner', chars: 10 },
        { id: 'g2', origin: 'current_turn', chars: 10 },
        { id: 'l1', origin: 'kb', level: 'leaf', loaded_as: 'child', split_from: 'i', chars: 100 },
        { id: 'l2', origin: 'kb', loaded_as: 'child', split_from: 'i', chars: 100 },
      ],
      over_budget: [{ id: 'i', resolution: 'children', children: ['l1', 'l2'] }],
    }),
  }),
  obs('b', {
    budgets: { max_chars_per_file: 500 },
    ku: ku({
      escalated: true,
      units: [
        { id: 'g3', origin: 'guidance', role: 'goalSolver', chars: 10 },
        { id: 'l1', origin: 'kb', chars: 100 },
        { id: 's', origin: 'kb', level: 'summary', chars: 900 },
      ],
    }),
  }),
  obs('c', { ok: false, error: { kind: 'timeout', message: 'late' } }),
  obs('d', { ku: ku({ units: [{ id: 's', origin: 'kb', chars: 10 }] }) }),
];

const ctx = new GateContext({ queries, corpus, observations, replays: 1, relevanceLevel: 1, seed: 1 });
const value = (m: GateMeasure) => {
  const v = aggregate(m.perQuery(ctx)[0]!, 1);
  return v.kind === 'rate' ? [v.numerator, v.denominator] : v;
};

describe('KU gate measures (DS012)', () => {
  it('guidance retention: kept in guidanceUnits / judged; elsewhere or errored is lost', () => {
    expect(value(kuGuidanceRetention)).toEqual([2, 4]);
  });

  it('level appropriateness: children standing in for an over-budget unit at the level count; an error is one wrong unit', () => {
    // a: l1, l2 stand in for i (intermediate) = 2/2; b: l1 (leaf, from the corpus) yes, s no = 1/2; c: 0/1
    expect(value(kuLevelAppropriateness)).toEqual([3, 5]);
  });

  it('escalation rate: over answered queries only', () => {
    expect(value(kuEscalationRate)).toEqual([1, 3]);
  });

  it('over-budget units: reported splits, and unreported units loaded past max_chars_per_file as whole', () => {
    expect(value(kuOverBudgetSplit)).toEqual([1, 2]);
    expect(value(kuOverBudgetWhole)).toEqual([1, 2]);
  });
});
