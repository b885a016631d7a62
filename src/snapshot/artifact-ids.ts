import { basename, join, resolve } from 'node:path';
import type { Sha256 } from '../core/hash.js';
import type { CorpusRecord, Freeze, QueryRecord, RetrievalConfig } from '../documents/index.js';
import type { KnownHashes } from './content-hash.js';
import { countJudgments, readConfigFile, readCorpusFile, readQuerySetFile } from './read-artifacts.js';
import { FIXTURE_FILES, type ArtifactIds } from './types.js';

/** Version used in ids of a folder that has never been frozen. */
export const UNFROZEN_VERSION = 'unfrozen';

/**
 * A canonical id: `<set>/<part>@<version>#<first 16 hex of the sha256>`, e.g. `cacm/corpus@v1#4e318d8920a384df`.
 * The same content gives the same id on every machine; the full hash sits next to it as `*_sha256`.
 */
export function artifactId(
  name: string,
  part: 'corpus' | 'queries' | 'config',
  version: string,
  hash: Sha256 | string,
): string {
  return `${name}/${part}@${version}#${hash.slice('sha256:'.length, 'sha256:'.length + 16)}`;
}

export interface LoadedArtifacts {
  ids: ArtifactIds;
  corpus: CorpusRecord[];
  queries: QueryRecord[];
  config: RetrievalConfig;
}

/** Read, validate and hash the three artifacts of a fixture set folder (no freeze involved). */
export function readArtifacts(
  dir: string,
  version: string,
  name = basename(resolve(dir)),
  frozen?: Freeze,
): LoadedArtifacts {
  const cfg = readConfigFile(join(dir, FIXTURE_FILES.config));
  // with a freeze that recorded raw hashes, unchanged bytes skip re-serialising every line
  const known = (raw: string | undefined, canonical: string | undefined): KnownHashes | undefined =>
    raw && canonical ? { raw, canonical: canonical as Sha256 } : undefined;
  const corpus = readCorpusFile(
    join(dir, FIXTURE_FILES.corpus),
    cfg.config.as_of,
    known(frozen?.raw_sha256?.corpus, frozen?.corpus_sha256),
  );
  const qs = readQuerySetFile(
    join(dir, FIXTURE_FILES.query_set),
    known(frozen?.raw_sha256?.query_set, frozen?.query_set_sha256),
  );
  const ids: ArtifactIds = {
    name,
    version,
    corpus_id: artifactId(name, 'corpus', version, corpus.sha256),
    corpus_sha256: corpus.sha256,
    query_set_id: artifactId(name, 'queries', version, qs.sha256),
    query_set_sha256: qs.sha256,
    config_id: artifactId(name, 'config', version, cfg.sha256),
    config_sha256: cfg.sha256,
    counts: {
      corpus_records: corpus.records.length,
      queries: qs.queries.length,
      ...countJudgments(qs.queries),
    },
  };
  return { ids, corpus: corpus.records, queries: qs.queries, config: cfg.config };
}

/** The ids and hashes of a folder as it is now, under `version` (default: `unfrozen`). */
export function computeArtifactIds(dir: string, opts: { version?: string; name?: string } = {}): ArtifactIds {
  return readArtifacts(dir, opts.version ?? UNFROZEN_VERSION, opts.name).ids;
}
