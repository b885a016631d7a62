import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { normalizeText } from '../../systems/normalize/index.js';
import {
  cortexPhase2Figures,
  cortexPhase2Gain,
  cortexPhase2Median,
  cortexPhase2Ndcg5,
  harnessTokens,
  pythonRound,
} from './cortex-phase2.js';

const FIX = resolve(import.meta.dirname, '../../../fixtures');

/**
 * The expected figures are the cortex Phase 2 harness's own: its `_relevance_gain`, `_ndcg_at_k(.., 5)`
 * and `_median` (scripts/phase2_retrieval_eval_harness_v0.py at cortex 76ecbb7, Python 3.11) run on
 * the recorded answers of fixtures/cortex-coach/responses (`evidence_outcome_bias`, the harness's
 * default mode), entries = the `task:` ones, as the harness selects them. Not computed by rgate.
 */
const HARNESS: Record<string, { ndcg: number; gains: number[] }> = {
  q_small_decision_linkage_gap: { ndcg: 0, gains: [0, 0, 0, 0, 0, 0] },
  q_small_recent_gate_failure: { ndcg: 0.63093, gains: [0, 0.25, 0, 0, 0, 0, 0, 0, 0] },
  q_small_phase_handoff_checklist: { ndcg: 0, gains: [0, 0, 0, 0, 0, 0, 0, 0, 0] },
  q_medium_context_rollover_enforcement: { ndcg: 0.495506, gains: [0.3, 0, 0, 0, 1.3, 0, 0, 0, 0] },
  q_medium_ci_overhead_regression: { ndcg: 0, gains: [0, 0, 0, 0, 0, 0, 0, 0, 0] },
  q_medium_policy_vs_implementation_boundary: {
    ndcg: 1,
    gains: [2.214286, 2.214286, 2.214286, 2.214286, 2.214286, 1, 2.214286, 2.214286, 2.214286],
  },
  q_large_stale_playbook_cleanup: { ndcg: 0.525934, gains: [0, 2.6, 0.3, 0, 0, 1, 1, 0, 0] },
  q_large_retrieval_noise_control: { ndcg: 0, gains: [0, 0, 0, 0, 0, 0, 0, 0, 0] },
  q_large_phase_closeout_traceability: { ndcg: 0.765361, gains: [1, 1, 0, 0, 0, 0, 0, 1, 0] },
};
const HARNESS_MEDIAN = 0.495506;

interface FixtureQuery {
  query_id: string;
  query_text: string;
  must_include_signals_any: string[];
  must_include_tags_any: string[];
  must_exclude_tags_all: string[];
}
const fixtureQueries = JSON.parse(
  readFileSync(resolve(FIX, 'cortex-coach', 'fixture-queries.json'), 'utf8'),
) as FixtureQuery[];
const queries = fixtureQueries.map((q) => ({ ...q, text: q.query_text }));
const recordedText = (id: string) =>
  readFileSync(resolve(FIX, 'cortex-coach', 'responses', `${id}.evidence_outcome_bias.json`), 'utf8');

describe('the cortex Phase 2 harness figures, reproduced', () => {
  it("rounds as Python's round(x, 6): exact decimal value, ties to even", () => {
    expect(pythonRound(0.0078125, 6)).toBe(0.007812); // an exact tie: to even
    expect(pythonRound(0.0078135, 6)).toBe(0.007813); // not a tie in binary: its exact value decides
    expect(pythonRound(2.675, 2)).toBe(2.67); // 2.67499999... in binary
    expect(pythonRound(0.5, 0)).toBe(0);
    expect(pythonRound(1.5, 0)).toBe(2);
    expect(pythonRound(0.6309297535714574, 6)).toBe(0.63093);
    expect(pythonRound(-0.0000125, 5)).toBe(-0.00001);
  });

  it('tokens are runs of letters and digits of length 3 or more', () => {
    expect(harnessTokens('CI gate-failure, v2 öl über_x 42a')).toEqual(['gate', 'failure', 'über', '42a']);
  });

  it('reproduces the harness per query and in aggregate on the recorded answers, through rgate', () => {
    // the path rgate takes: the answers normalised (task: entries ranked, each keeping its excerpt)
    const corpus = new Map(
      readFileSync(resolve(FIX, 'cortex-phase2', 'corpus.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { id: string; text: string })
        .map((r) => [r.id, r.text]),
    );
    const first = (id: string) => normalizeText('context-load-v0', recordedText(id));
    const f = cortexPhase2Figures(queries, corpus, first);
    expect(f.queries.map((q) => q.query_id)).toEqual(fixtureQueries.map((q) => q.query_id));
    for (const q of f.queries) {
      expect({ id: q.query_id, ndcg: q.ndcg_5, gains: q.gains }).toEqual({
        id: q.query_id,
        ndcg: HARNESS[q.query_id]!.ndcg,
        gains: HARNESS[q.query_id]!.gains,
      });
    }
    expect(f.median_ndcg_5).toBe(HARNESS_MEDIAN);
  });

  it('judges the raw answer entries the same (the gain alone, on the recorded JSON)', () => {
    for (const q of queries) {
      const files = (
        JSON.parse(recordedText(q.query_id)) as {
          files: { path: string; selected_by: string; excerpt: string }[];
        }
      ).files.filter((e) => e.selected_by.startsWith('task:'));
      expect(files.map((e) => cortexPhase2Gain(q, e))).toEqual(HARNESS[q.query_id]!.gains);
    }
  });

  it('nDCG@5 takes its ideal from the returned gains; an all-zero list scores 0; the median of an even count is the middle mean', () => {
    expect(cortexPhase2Ndcg5([0, 1])).toBe(pythonRound(1 / Math.log2(3), 6));
    expect(cortexPhase2Ndcg5([0, 0, 0])).toBe(0);
    expect(cortexPhase2Ndcg5([])).toBe(0);
    expect(cortexPhase2Median([0.2, 0.1, 0.4, 0.3])).toBe(0.25);
    expect(cortexPhase2Median([])).toBe(0);
  });

  it('an errored request scores 0', () => {
    const f = cortexPhase2Figures(queries.slice(0, 1), new Map(), () => ({ ok: false, ranked: [] }));
    expect(f).toEqual({
      queries: [{ query_id: queries[0]!.query_id, ndcg_5: 0, gains: [] }],
      median_ndcg_5: 0,
    });
  });
});

describe('without an excerpt, the corpus text stands in', () => {
  it('is an approximation: the import drops trailing spaces, so a cut at 160 reads further', () => {
    const corpus = new Map([['a.md', 'Version: v0  \nStatus: x  \nspecify']]);
    const q = { query_id: 'q', text: 'nothing here', must_include_signals_any: ['ci'] };
    const f = cortexPhase2Figures([q], corpus, () => ({ ok: true, ranked: [{ id: 'a.md', chars: 30 }] }));
    expect(f.queries[0]!.gains).toEqual([0]);
    const g = cortexPhase2Figures([q], corpus, () => ({ ok: true, ranked: [{ id: 'a.md' }] }));
    expect(g.queries[0]!.gains).toEqual([1]); // "specify" holds "ci"
  });
});
