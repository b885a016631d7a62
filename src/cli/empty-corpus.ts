/**
 * A set of 0 documents imports and freezes (BEIR judgments may be pinned before the corpus is at
 * hand, as the SciFact example of docs/snapshots.md does), but never without a word: a run of it retrieves nothing.
 */
export function emptyCorpusWarning(set: string, frozen: boolean): string {
  return `rgate: warning: ${set}: the corpus is empty (0 documents)${frozen ? ', frozen as such' : ''}: a run of this set retrieves nothing and every ranking measure is 0; import the documents (BEIR: --corpus corpus.jsonl) before gating on it`;
}
