import { ORDER_IS_RANK_CONTRACTS } from '../../documents/index.js';
import type { CorpusRecord, RankedItem } from '../../documents/index.js';
import { perRequestRate } from './_values.js';
import type { GateMeasure } from './_types.js';

const num = (v: number | undefined): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/**
 * Seed 000's tie-break chain: combined_score desc, evidence_score desc, captured_at desc (from the
 * corpus), source_path asc, record id asc. Items without a score_breakdown are compared by score only.
 * Returns the index of the first out-of-order item, or -1.
 */
export function firstOrderingViolation(
  ranked: readonly RankedItem[],
  corpus: ReadonlyMap<string, CorpusRecord>,
): number {
  for (let i = 1; i < ranked.length; i++) {
    const a = ranked[i - 1]!;
    const b = ranked[i]!;
    if (!a.score_breakdown || !b.score_breakdown) {
      if (a.score < b.score) return i;
      continue;
    }
    const ca = num(a.score_breakdown.combined_score ?? a.score);
    const cb = num(b.score_breakdown.combined_score ?? b.score);
    if (ca !== cb) {
      if (ca < cb) return i;
      continue;
    }
    const ea = num(a.score_breakdown.evidence_score);
    const eb = num(b.score_breakdown.evidence_score);
    if (ea !== eb) {
      if (ea < eb) return i;
      continue;
    }
    const ta = corpus.get(a.id)?.captured_at ?? '';
    const tb = corpus.get(b.id)?.captured_at ?? '';
    const ma = Date.parse(ta);
    const mb = Date.parse(tb);
    const cmpT = Number.isFinite(ma) && Number.isFinite(mb) ? mb - ma : ta < tb ? 1 : ta > tb ? -1 : 0;
    if (cmpT !== 0) {
      if (cmpT > 0) return i;
      continue;
    }
    if (a.source_path !== b.source_path) {
      if (a.source_path > b.source_path) return i;
      continue;
    }
    if (a.id >= b.id) return i;
  }
  return -1;
}

export const orderingCompliance: GateMeasure = {
  id: 'ordering_compliance',
  help:
    'numerator: requests answered successfully whose ranked list follows the tie-break chain (combined_score ' +
    'desc, evidence_score desc, captured_at desc from the corpus, source_path asc, id asc; items without a ' +
    'score_breakdown: score desc only); denominator: requests, all replays, errored ones included. Source: ' +
    'seed 000 (context-load v0). Answers of contracts whose order is the rank (memory-cli-v1, ' +
    'resolved-intent) are not counted: their scores need not follow their order.',
  perQuery(ctx) {
    return [
      perRequestRate(
        this.id,
        ctx,
        (o) => o.ok && firstOrderingViolation(o.ranked, ctx.corpusById) < 0,
        // an answer whose order is its rank (memory-cli-v1, resolved-intent) has no score order to check
        (o) => !ORDER_IS_RANK_CONTRACTS.includes(o.contract.name),
      ),
    ];
  },
};
