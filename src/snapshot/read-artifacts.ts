import { basename } from 'node:path';
import { resolveConfig } from '../core/resolve-config.js';
import { RgateError } from '../core/errors.js';
import type { Sha256 } from '../core/hash.js';
import { readJsonFile } from '../core/jsonl.js';
import type { CorpusRecord, QueryRecord, RetrievalConfig } from '../documents/index.js';
import { validateOrThrow } from '../contracts/ajv.js';
import { validateConfig } from '../contracts/config.js';
import { corpusLineId, validateCorpusLine } from '../contracts/corpus.js';
import { validateQueryLine } from '../contracts/query-set.js';
import { hashCanonical, hashJsonlFile, type KnownHashes } from './content-hash.js';
import { normalizeCorpusLine } from './normalize.js';

/** Read, validate and hash config.json; the hash is over the resolved (defaults applied) config. */
export function readConfigFile(path: string): { config: RetrievalConfig; sha256: Sha256 } {
  const raw = readJsonFile(path);
  const label = basename(path);
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    // `$schema` is an editor hint, not configuration
    delete (raw as Record<string, unknown>)['$schema'];
  }
  const partial = validateOrThrow(
    validateConfig,
    raw,
    { file: label },
    'see the config.json row of docs/snapshots.md',
  );
  const config = resolveConfig(partial);
  return { config, sha256: hashCanonical(config) };
}

const CORPUS_HINT = 'corpus lines need id (or BEIR _id) and text';

/** Read, validate, normalise and hash a corpus JSONL file in one pass. Duplicate ids are an error. */
export function readCorpusFile(
  path: string,
  asOf: string,
  known?: KnownHashes,
): { records: CorpusRecord[]; sha256: Sha256 } {
  const label = basename(path);
  const records: CorpusRecord[] = [];
  const seen = new Map<string, number>();
  const { sha256 } = hashJsonlFile(
    path,
    label,
    (value, line) => {
      const line_ = validateOrThrow(validateCorpusLine, value, { file: label, line }, CORPUS_HINT);
      const id = corpusLineId(line_);
      if ('problem' in id)
        throw new RgateError('input_invalid', `${label}:${line} ${id.problem}`, CORPUS_HINT);
      const rec = normalizeCorpusLine(line_, asOf);
      const first = seen.get(rec.id);
      if (first !== undefined)
        throw new RgateError(
          'input_invalid',
          `${label}:${line} /id: duplicate id "${rec.id}" (first on line ${first})`,
        );
      seen.set(rec.id, line);
      records.push(rec);
    },
    known,
  );
  return { records, sha256 };
}

/** Read, validate and hash a query-set JSONL file in one pass. Duplicate query ids are an error. */
export function readQuerySetFile(
  path: string,
  known?: KnownHashes,
): { queries: QueryRecord[]; sha256: Sha256 } {
  const label = basename(path);
  const queries: QueryRecord[] = [];
  const seen = new Map<string, number>();
  const { sha256 } = hashJsonlFile(
    path,
    label,
    (value, line) => {
      const q = validateOrThrow(
        validateQueryLine,
        value,
        { file: label, line },
        'query lines need query_id and text',
      );
      const first = seen.get(q.query_id);
      if (first !== undefined)
        throw new RgateError(
          'input_invalid',
          `${label}:${line} /query_id: duplicate query_id "${q.query_id}" (first on line ${first})`,
        );
      seen.set(q.query_id, line);
      queries.push(q);
    },
    known,
  );
  return { queries, sha256 };
}

export function countJudgments(queries: readonly QueryRecord[]): {
  judged_queries: number;
  judgments: number;
} {
  let judged = 0;
  let judgments = 0;
  for (const q of queries) {
    const n = q.qrels ? Object.keys(q.qrels).length : 0;
    if (n > 0) judged++;
    judgments += n;
  }
  return { judged_queries: judged, judgments };
}
