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
 *
 * The CLI reads its queries from a JSON file (`--query-file`, types.EvaluationQuery: `query`,
 * `domain`, `expected_id`): one expected id per query, or none. cliExpectedId reads that id off an
 * rgate query record.
 */
import type { QueryRecord } from '../../documents/index.js';

/** The selection modes the CLI's evaluate counts a top-1 in (eval.go, whatever the system's setting). */
export const CLI_SEMANTIC_MODES: readonly string[] = ['semantic', 'embedding_semantic', 'hybrid_rrf'];

/**
 * The `expected_id` the CLI's query file would hold for this query: the one document it names as
 * relevant. Its useful_ids when it lists any (they override qrels, as in rgate's judging): the id
 * when there is exactly one. Otherwise its qrels: the id when exactly one has a grade >= 1 (the CLI
 * has no grades; 1 is rgate's and trec_eval's default relevance level). Anything else (several
 * relevant ids, useful_paths only, include rules, no judgment) has no single expected id: the CLI
 * counts such a query in its denominator and never as useful.
 */
export function cliExpectedId(
  q: Pick<QueryRecord, 'useful_ids' | 'useful_paths' | 'qrels'>,
): string | undefined {
  if ((q.useful_ids?.length ?? 0) > 0) return q.useful_ids!.length === 1 ? q.useful_ids![0] : undefined;
  if ((q.useful_paths?.length ?? 0) > 0) return undefined;
  const relevant = Object.entries(q.qrels ?? {}).filter(([, grade]) => grade >= 1);
  return relevant.length === 1 ? relevant[0]![0] : undefined;
}

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
    if (CLI_SEMANTIC_MODES.includes(mode) && q.expected_id && selected === q.expected_id) top1++;
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
