import type { ArtifactRefs, RunSettings } from '../../src/documents/index.js';

/** A well-formed snapshot reference and settings for runs a test stores by hand (the store checks them). */
export const ARTIFACTS: ArtifactRefs = {
  fixture: 'demo',
  artifact_id: 'demo@v1',
  version: 'v1',
  corpus_id: 'demo/corpus@v1#0000000000000000',
  corpus_sha256: `sha256:${'0'.repeat(64)}`,
  query_set_id: 'demo/queries@v1#0000000000000000',
  query_set_sha256: `sha256:${'1'.repeat(64)}`,
  config_id: 'demo/config@v1#0000000000000000',
  config_sha256: `sha256:${'2'.repeat(64)}`,
};

export const SETTINGS: RunSettings = {
  replays: 1,
  concurrency: 1,
  seed: 1,
  relevance_level: 1,
  restart_between_replays: false,
};
