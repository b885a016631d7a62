import type { ArtifactRefs, CorpusRecord, Freeze, QueryRecord, RetrievalConfig } from '../documents/index.js';

/** The fixed file names of a fixture set folder `fixtures/<set>/`. */
export const FIXTURE_FILES = {
  corpus: 'corpus.jsonl',
  query_set: 'queries.jsonl',
  config: 'config.json',
  freeze: 'freeze.json',
  provenance: 'PROVENANCE.md',
} as const;

export type ArtifactPart = 'corpus' | 'query_set' | 'config';

/** A fixture set loaded, validated and (by default) verified against its freeze. */
export interface PinnedSuite {
  name: string;
  dir: string;
  corpus: CorpusRecord[];
  queries: QueryRecord[];
  config: RetrievalConfig;
  freeze: Freeze;
  artifacts: ArtifactRefs;
}

/** The content ids of the three artifacts of a folder as it is now. */
export interface ArtifactIds {
  name: string;
  version: string;
  corpus_id: string;
  corpus_sha256: string;
  query_set_id: string;
  query_set_sha256: string;
  config_id: string;
  config_sha256: string;
  counts: { corpus_records: number; queries: number; judged_queries: number; judgments: number };
}

export interface FileCheck {
  part: ArtifactPart | 'freeze';
  file: string;
  ok: boolean;
  /** what freeze.json says */
  expected: string;
  /** what the file holds now */
  actual: string;
}

export interface VerifyResult {
  ok: boolean;
  dir: string;
  name: string;
  artifact_id: string;
  version: string;
  checks: FileCheck[];
  /** one line per failed check: file, expected hash, actual hash */
  problems: string[];
}
