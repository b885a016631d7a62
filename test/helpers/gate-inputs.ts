/**
 * Gate inputs for tests of the evaluator and of the messages the docs quote: the semantic policy's
 * metrics around one top-1 rate, and a rate with its Wilson interval written out here so a test does
 * not trust the code under test for it.
 */
import type { ArtifactRefs, MetricEntry, RateValue } from '../../src/documents/index.js';
import type { GateInput } from '../../gates/evaluate.js';

/** Wilson 95% interval, written out here so the test does not trust the code under test. */
export function rate(k: number, n: number): RateValue {
  if (n === 0) return { kind: 'rate', numerator: 0, denominator: 0, rate: null, wilson95: null };
  const z = 1.959963984540054;
  const p = k / n;
  const d = 1 + (z * z) / n;
  const c = (p + (z * z) / (2 * n)) / d;
  const h = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return {
    kind: 'rate',
    numerator: k,
    denominator: n,
    rate: p,
    wilson95: [Math.max(0, c - h), Math.min(1, c + h)],
  };
}
const sha = (c: string) => `sha256:${c.repeat(64)}`;
export const artifacts: ArtifactRefs = {
  fixture: 'semantic-v1',
  artifact_id: 'semantic-v1-fixture',
  version: '1',
  corpus_id: 'corpus@1',
  corpus_sha256: sha('a'),
  query_set_id: 'queries@1',
  query_set_sha256: sha('b'),
  config_id: 'config@1',
  config_sha256: sha('c'),
};

export function semanticInput(top1: RateValue, over: Partial<GateInput> = {}): GateInput {
  const metrics: MetricEntry[] = [
    { id: 'top1_useful_rate', value: top1, help: '' },
    { id: 'fallback_determinism', value: rate(8, 8), help: '' },
    { id: 'selection_mode_reporting', value: rate(290, 290), help: '' },
    { id: 'source_trace_completeness', value: rate(290, 290), help: '' },
    // every counted top-1 judged unless a test says otherwise
    { id: 'judged_top1', value: rate(top1.denominator, top1.denominator), help: '' },
  ];
  return {
    metrics,
    latency: {},
    query_count: 58,
    replays: 5,
    artifacts,
    checklist_evidence: {
      responses_with_selection_fields: { numerator: 290, denominator: 290 },
      fallback_order: { numerator: 40, denominator: 40 },
    },
    ...over,
  };
}
