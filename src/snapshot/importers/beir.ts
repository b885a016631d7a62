import { basename, extname } from 'node:path';
import type { CorpusLine, PartialConfig, QueryRecord } from '../../documents/index.js';
import { parseJsonl } from '../../core/jsonl.js';
import { validateOrThrow } from '../../contracts/ajv.js';
import { corpusLineId, validateCorpusLine } from '../../contracts/corpus.js';
import { RgateError } from '../../core/errors.js';
import { validateBeirQueryLine } from '../../contracts/query-set.js';
import { writeFixtureSet } from '../fixture-set.js';
import {
  attachQrels,
  countsOf,
  parseBeirQrels,
  provenanceText,
  readSource,
  type ImportResult,
  type SourceFile,
} from './common.js';

export interface BeirImportOptions {
  /** BEIR corpus.jsonl (`_id`, `title`, `text`); optional: without it the corpus is empty */
  corpus?: string;
  queries: string;
  /** qrels TSVs (header, CRLF ok); each query they judge is tagged `split:<file name without extension>` */
  qrels: string[];
  out: string;
  config?: PartialConfig;
  /** keep only queries with at least one judgment */
  /** keep the queries no qrels file judges (by default they are left out, as BEIR's loader does) */
  allQueries?: boolean;
  /** the command line, recorded in PROVENANCE.md */
  command?: string;
}

export const DEFAULT_IMPORT_CONFIG: PartialConfig = { mode: 'bm25', k: 1000 };

/** Import a BEIR dataset (corpus.jsonl, queries.jsonl, qrels/*.tsv) into a fixture set folder. */
export function importBeir(o: BeirImportOptions): ImportResult {
  const sources: SourceFile[] = [];
  const notes: string[] = [];
  const corpus: CorpusLine[] = [];
  if (o.corpus) {
    const src = readSource(o.corpus);
    sources.push(src.info);
    const label = basename(o.corpus);
    const firstLine = new Map<string, number>();
    for (const l of parseJsonl(src.text, label)) {
      const c = validateOrThrow(
        validateCorpusLine,
        l.value,
        { file: label, line: l.line },
        'BEIR corpus lines: {"_id", "title", "text"}',
      );
      const id = corpusLineId(c);
      if ('problem' in id) throw new RgateError('input_invalid', `${label}:${l.line} ${id.problem}`);
      // a set keeping both would fail its freeze later; which one a run reads would be an accident
      refuseRepeat(firstLine, id.id, l.line, label, '_id');
      corpus.push({ id: id.id, ...(c.title ? { title: c.title } : {}), text: c.text });
    }
  } else {
    notes.push('No corpus given: corpus.jsonl is empty (queries and judgments only). Runs need a corpus.');
  }

  const qsrc = readSource(o.queries);
  sources.push(qsrc.info);
  const qlabel = basename(o.queries);
  const firstQueryLine = new Map<string, number>();
  let queries: QueryRecord[] = parseJsonl(qsrc.text, qlabel).map((l) => {
    const q = validateOrThrow(
      validateBeirQueryLine,
      l.value,
      { file: qlabel, line: l.line },
      'BEIR query lines: {"_id", "text"}',
    );
    refuseRepeat(firstQueryLine, q._id, l.line, qlabel, '_id');
    return { query_id: q._id, text: q.text };
  });
  const byId = new Map(queries.map((q) => [q.query_id, q]));
  for (const path of o.qrels) {
    const src = readSource(path);
    sources.push(src.info);
    const judgments = parseBeirQrels(src.text, basename(path));
    attachQrels(queries, judgments);
    const split = `split:${basename(path, extname(path))}`;
    const judged = new Set(judgments.map((j) => j.query_id));
    for (const id of [...judged].sort()) {
      const q = byId.get(id)!;
      if (!q.tags?.includes(split)) q.tags = [...(q.tags ?? []), split];
    }
    notes.push(
      `${basename(path)}: ${judgments.length} judgment rows over ${judged.size} queries (tagged ${split}).`,
    );
  }
  // BEIR evaluates only the queries its qrels split judges; an unjudged query scores 0 in every
  // ranking measure (SciFact: nDCG@10 0.17 over all 1,109 queries where the test split's is 0.64)
  if (!o.allQueries && o.qrels.length > 0) {
    const before = queries.length;
    queries = queries.filter((q) => q.qrels && Object.keys(q.qrels).length > 0);
    if (queries.length < before)
      notes.push(
        `Kept the ${queries.length} of ${before} queries the qrels judge, as BEIR evaluates (--all-queries keeps the others).`,
      );
  }
  const r = { counts: countsOf(corpus.length, queries), notes, sources };
  writeFixtureSet(o.out, {
    corpus,
    queries,
    config: o.config ?? DEFAULT_IMPORT_CONFIG,
    provenance: provenanceText('beir', r, o.command),
  });
  return { dir: o.out, ...r };
}

/** An id seen on an earlier line of the same file: an input error naming both lines. */
function refuseRepeat(
  first: Map<string, number>,
  id: string,
  line: number,
  label: string,
  key: string,
): void {
  const prev = first.get(id);
  if (prev !== undefined)
    throw new RgateError(
      'input_invalid',
      `${label}:${line} /${key}: duplicate id ${JSON.stringify(id)} (first on line ${prev})`,
      'each record needs its own id: remove or rename one of the two lines',
    );
  first.set(id, line);
}
