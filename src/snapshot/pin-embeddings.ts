import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RgateError } from '../core/errors.js';
import { embedTexts } from './embedding-client.js';
import { readConfigFile, readCorpusFile, readQuerySetFile } from './read-artifacts.js';
import { FIXTURE_FILES } from './types.js';

export interface PinResult {
  /** vectors fetched: corpus records, queries */
  records: number;
  queries: number;
  dimensions: number;
  /** the model as `<api>:<model>@<url>` */
  embedder: string;
  /** put corpus.jsonl and queries.jsonl back as they were (when the freeze that follows is refused) */
  restore(): void;
}

/**
 * Pin the vectors of an HTTP embedder into a fixture set, before it is frozen: when config.json
 * names `embedder: {type: 'http', ...}`, every corpus record (title and text, as the engine embeds
 * them) and every query is embedded by the server and its vector written as the line's `embedding`.
 * The vectors are then part of corpus.jsonl and queries.jsonl, so they are hashed into corpus_id and
 * query_set_id (a changed vector is a changed snapshot) and runs never call the server. Vectors are
 * fetched afresh at every freeze: an unchanged server gives identical files, and the freeze is a
 * no-op. Every vector is fetched and checked before a byte is written, so a server error, a timeout
 * or a wrong dimension leaves the set untouched. Returns null when the set has no HTTP embedder.
 */
export async function pinEmbeddings(dir: string): Promise<PinResult | null> {
  const { config } = readConfigFile(join(dir, FIXTURE_FILES.config));
  const emb = config.embedder;
  if (!emb || emb.type !== 'http') return null;
  const corpusPath = join(dir, FIXTURE_FILES.corpus);
  const queriesPath = join(dir, FIXTURE_FILES.query_set);
  // validate first: a broken line gets the loaders' own message (file, line, JSON path)
  const records = readCorpusFile(corpusPath, config.as_of).records;
  const queries = readQuerySetFile(queriesPath).queries;
  const corpusText = readFileSync(corpusPath, 'utf8');
  const queriesText = readFileSync(queriesPath, 'utf8');
  const corpusLines = jsonLines(corpusText);
  const queryLines = jsonLines(queriesText);
  // the same text the engine's builtin embedder reads (src/engine indexText: title, newline, text)
  const texts = [
    ...records.map((r) => (r.title ? `${r.title}\n${r.text}` : r.text)),
    ...queries.map((q) => q.text),
  ];
  const vectors = await embedTexts(emb, texts);
  const dims = config.embedding.dimensions;
  const wrong = vectors.findIndex((v) => v.length !== dims);
  if (wrong >= 0)
    throw new RgateError(
      'config_invalid',
      `config.json /embedding/dimensions: ${dims}, but ${emb.model} returned ${vectors[wrong]!.length}-dimension vectors`,
      `set "embedding": {"dimensions": ${vectors[wrong]!.length}} in config.json`,
    );
  corpusLines.forEach((l, i) => (l.embedding = vectors[i]));
  queryLines.forEach((l, i) => (l.embedding = vectors[records.length + i]));
  const write = (path: string, content: string) => {
    const tmp = `${path}.rgate-tmp`;
    writeFileSync(tmp, content);
    renameSync(tmp, path);
  };
  write(corpusPath, corpusLines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  write(queriesPath, queryLines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return {
    records: records.length,
    queries: queries.length,
    dimensions: dims,
    embedder: `${emb.api}:${emb.model}@${emb.url}`,
    restore() {
      write(corpusPath, corpusText);
      write(queriesPath, queriesText);
    },
  };
}

/** The non-blank lines of a JSONL text, parsed (the loaders above have validated them). */
function jsonLines(text: string): Record<string, unknown>[] {
  return text
    .replace(/^\uFEFF/, '')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
