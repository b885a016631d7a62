/**
 * A comparison's label effects (computed with the session, history/compare-labels.ts) as the one
 * sentence every format shows.
 */
import type { CompareSession, LabelEffect, MetricWinner } from '../../src/documents/index.js';
import { signed } from './shared.js';

export function labelEffectText(e: LabelEffect): string {
  return (
    `${e.metric} moved ${signed(e.mean_delta)} (${e.a} -> ${e.b}) with no ranking change: ` +
    `0 top-1 flips, every other measure tied on every query (${e.tied_measures.join(', ')}). ` +
    'A label effect (how answers are labelled, e.g. their selection mode), not a retrieval difference.'
  );
}

/** The session's label effects as sentences (none for a session that does not carry them). */
export function labelEffectTexts(s: CompareSession): string[] {
  return (s.label_effects ?? []).map(labelEffectText);
}

/** What a winners line says when it names none: a label effect is distinguishable, yet no retrieval win. */
export function noWinnerText(w: MetricWinner): string {
  return w.label_effect ? 'no retrieval winner (a label effect)' : 'no distinguishable winner';
}
