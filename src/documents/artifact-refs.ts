import { Type, type Static } from '@sinclair/typebox';
import { Closed } from './keywords.js';

/** The pinned snapshot a run was made on: fixture, version, and each part's id and sha256. */
export const ArtifactRefsSchema = Closed({
  fixture: Type.String(),
  artifact_id: Type.String(),
  version: Type.String(),
  corpus_id: Type.String(),
  corpus_sha256: Type.String(),
  query_set_id: Type.String(),
  query_set_sha256: Type.String(),
  config_id: Type.String(),
  config_sha256: Type.String(),
});
export type ArtifactRefs = Static<typeof ArtifactRefsSchema>;
