/**
 * The top-1 measure's denominator split by outcome (useful / useful by fallback / useful without a
 * selection mode / judged not useful / unjudged / no answer), decided once when the report is built and stored in `judging.top1_split`, so
 * every renderer shows the same counts. The population and the buckets are the top-1 measures' own:
 * benchmark queries with a judgment, their replay-1 top-1 as judged (QueryOutcome.top1).
 */
import type { QueryOutcome, Top1Split } from '../src/documents/index.js';
import { isSemanticWin } from '../src/metrics/index.js';

export function top1Split(
  queries: readonly Pick<QueryOutcome, 'kind' | 'judged' | 'top1' | 'actual'>[],
  selection: boolean,
  semanticWinModes: readonly string[],
): Top1Split {
  const s: Top1Split = {
    counted: 0,
    useful: 0,
    useful_by_fallback: 0,
    judged_not_useful: 0,
    unjudged: 0,
    no_answer: 0,
  };
  for (const q of queries) {
    if (q.kind !== 'benchmark' || q.judged === false) continue;
    s.counted++;
    if (q.top1 === 'useful') {
      // without a selection step every useful top-1 is a win (top1_useful_any_mode is the rate)
      if (!selection || isSemanticWin(q.top1, q.actual.selection_mode, semanticWinModes)) s.useful++;
      // a plain ranking under a selection step: not a semantic win, and no fallback chose it either
      else if (q.actual.selection_mode === undefined)
        s.useful_without_mode = (s.useful_without_mode ?? 0) + 1;
      else s.useful_by_fallback++;
    } else if (q.top1 === 'not_useful') s.judged_not_useful++;
    else if (q.top1 === 'unjudged') s.unjudged++;
    else s.no_answer++;
  }
  return s;
}
