/**
 * AthenaMind `memory-cli evaluate`'s four rates, reproduced (internal/retrieval/eval.go at
 * bd11492; facts read there, code written here). The CLI asks each query once and:
 * - top1_useful_rate: answered in `semantic`, `embedding_semantic` or `hybrid_rrf` with
 *   selected_id = the query's expected id, over every query (those without an expected id too);
 * - selection_mode_reporting: a non-empty selection_mode, over every query;
 * - source_trace_completeness: a non-empty selected_id and source_path, over every query;
 * - fallback_determinism: of the queries answered in a `fallback_` mode, those whose mode,
 *   selected_id and source_path are the same in 5 asks; **1/1 when no query fell back** (a default,
 *   not a measurement).
 * A failed request stops the CLI's whole evaluation; here it counts as an answer with nothing in it.
 */

const SEMANTIC = ['semantic', 'embedding_semantic', 'hybrid_rrf'];

export interface Rate {
  numerator: number;
  denominator: number;
}

export interface MemoryCliEvaluate {
  top1_useful_rate: Rate;
  selection_mode_reporting: Rate;
  source_trace_completeness: Rate;
  fallback_determinism: Rate & { by_default: boolean };
}

interface Answer {
  ok: boolean;
  replay: number;
  selection_mode?: string;
  selected_id?: string;
  source_path?: string;
}

/**
 * The four rates from a run's observations: replay 1 is the CLI's one ask; the fallback check
 * compares the first five replays (as many as the run made).
 */
export function memoryCliEvaluate(
  queries: readonly { query_id: string; expected_id?: string }[],
  answers: (queryId: string) => readonly Answer[],
): MemoryCliEvaluate {
  let top1 = 0;
  let modes = 0;
  let traces = 0;
  let checks = 0;
  let stable = 0;
  for (const q of queries) {
    const all = [...answers(q.query_id)].sort((a, b) => a.replay - b.replay);
    const first = all[0];
    const mode = first?.ok ? (first.selection_mode ?? '') : '';
    const selected = first?.ok ? (first.selected_id ?? '') : '';
    const source = first?.ok ? (first.source_path ?? '') : '';
    if (mode !== '') modes++;
    if (selected !== '' && source !== '') traces++;
    if (SEMANTIC.includes(mode) && q.expected_id && selected === q.expected_id) top1++;
    if (mode.startsWith('fallback_')) {
      checks++;
      const same = all
        .slice(0, 5)
        .every(
          (a) =>
            a.ok &&
            a.selection_mode === mode &&
            (a.selected_id ?? '') === selected &&
            (a.source_path ?? '') === source,
        );
      if (same) stable++;
    }
  }
  const n = queries.length;
  return {
    top1_useful_rate: { numerator: top1, denominator: n },
    selection_mode_reporting: { numerator: modes, denominator: n },
    source_trace_completeness: { numerator: traces, denominator: n },
    fallback_determinism:
      checks === 0
        ? { numerator: 1, denominator: 1, by_default: true }
        : { numerator: stable, denominator: checks, by_default: false },
  };
}
