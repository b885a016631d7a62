import type {
  ArtifactRefs,
  CorpusRecord,
  Freeze,
  QueryRecord,
  RetrievalConfig,
  VerifyCheck,
  VerifySetResult,
} from '../documents/index.js';

/** The fixed file names of a fixture set folder `fixtures/<set>/`. */
export const FIXTURE_FILES = {
  corpus: 'corpus.jsonl',
  query_set: 'queries.jsonl',
  config: 'config.json',
  freeze: 'freeze.json',
  provenance: 'PROVENANCE.md',
} as const;

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

/** One file's hash against freeze.json (declared with `rgate verify --json`'s document). */
export type FileCheck = VerifyCheck;

/** One set verified; `rgate verify --json` adds its counts. */
export type VerifyResult = Omit<VerifySetResult, 'counts'>;
