import { describe, expect, it } from 'vitest';
import { sampleFindingsReport } from '../../test/fixtures/sample-report.js';
import { peerFigureViews, violationView } from './view-findings.js';

describe('violationView', () => {
  it('groups rules by JSON path; a cut group spans only its rows shown', () => {
    const v = violationView(sampleFindingsReport(), 2)!;
    expect(v.rows.map((r) => [r.path, r.message, r.first_of_path, r.path_rows])).toEqual([
      ['/files/*/score_breakdown/combined_score', 'is required', true, 2],
      ['/files/*/score_breakdown/combined_score', 'must be number', false, 0],
    ]);
    expect(v.more).toBe('… and 1 more rules (see the JSON report)');
    expect(violationView(sampleFindingsReport(), 1)!.rows[0]!.path_rows).toBe(1);
  });

  it('a report written before examples names the first query only', () => {
    const r = sampleFindingsReport();
    for (const rule of r.contract_violations!.rules) delete rule.examples;
    const v = violationView(r)!;
    expect(v.rows[0]).toMatchObject({ example_ids: ['q-001'], examples: 'q-001 …', examples_cut: true });
    delete r.contract_violations;
    expect(violationView(r)).toBeUndefined();
  });
});

describe('peerFigureViews', () => {
  it("a rate as n/d on both sides; a report written before the peer's name shows its source", () => {
    const r = sampleFindingsReport();
    const [, rate] = peerFigureViews(r);
    expect(rate).toMatchObject({
      peer: 'memory-cli evaluate',
      figure: '40/58 (69.0%)',
      metric: 'top1_useful_rate',
    });
    expect(rate!.ours).toMatch(/^\d+\/\d+ \(\d+\.\d%\)$/);
    delete r.peer_figures![0]!.peer;
    expect(peerFigureViews(r)[0]!.line).toMatch(
      /^cortex Phase 2 harness \(phase2_retrieval_eval_harness_v0\).*: cortex_phase2\.median_ndcg_5 = 0\.495506; rgate's ndcg_cut\.5 = 0\.4123\.$/,
    );
  });
});
