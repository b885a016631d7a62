/**
 * A run's snapshot: the pinned inputs (corpus, query set, effective config) its numbers depend on,
 * as one key, and what changed between two runs' snapshots in words.
 */
import type { ArtifactRefs } from '../src/documents/index.js';

/**
 * What must stay equal for two runs' numbers to be comparable in a trend: the pinned ids and the
 * effective config's hash (a `--set` override keeps the `+overrides` id but changes the hash).
 */
export function snapshotKey(a: ArtifactRefs | undefined): string {
  if (!a) return '';
  return [a.corpus_id, a.query_set_id, a.config_id, a.config_sha256].join('\u0000');
}

/**
 * What changed between two runs' pinned inputs, in words ("" when nothing did): the fixture
 * version with its reset note, the corpus, the query set, the effective config (a `--set` variant
 * changes only its hash).
 */
export function snapshotChange(
  prev: Partial<ArtifactRefs> | null,
  cur: Partial<ArtifactRefs> | null,
  resetNotes: Readonly<Record<string, string>> = {},
): string {
  if (!prev || !cur || snapshotKey(prev as ArtifactRefs) === snapshotKey(cur as ArtifactRefs)) return '';
  const parts: string[] = [];
  if (prev.version !== cur.version) {
    const note = cur.version !== undefined ? resetNotes[cur.version] : undefined;
    parts.push(
      `fixture ${prev.version} -> ${cur.version}${note ? ` (reset note: ${note})` : ' (no reset note)'}`,
    );
  }
  if (prev.corpus_id !== cur.corpus_id) parts.push('corpus changed');
  if (prev.query_set_id !== cur.query_set_id) parts.push('query set changed');
  if (prev.config_id !== cur.config_id || prev.config_sha256 !== cur.config_sha256) {
    const short = (s: string | undefined) => (s ?? '').replace(/^sha256:/, '').slice(0, 8);
    parts.push(
      `config changed (${cur.config_id}, sha256 ${short(prev.config_sha256)} -> ${short(cur.config_sha256)})`,
    );
  }
  return parts.join('; ');
}
