#!/usr/bin/env node
// A tiny retriever a team might start from: `node term-overlap.mjs <corpus_dir> <k> <query>` ranks the
// pinned corpus by how many query terms each record contains and prints rgate's response contract
// ({ranked: [{id, score}]}). Ties go to the smaller id, so every replay ranks the same way.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const [corpusDir = '.', k = '10', query = ''] = process.argv.slice(2);
const terms = new Set(query.toLowerCase().match(/[a-z0-9]+/g) ?? []);
const ranked = readFileSync(join(corpusDir, 'corpus.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l))
  .map((r) => {
    const words = new Set(`${r.title ?? ''} ${r.text ?? ''}`.toLowerCase().match(/[a-z0-9]+/g) ?? []);
    let score = 0;
    for (const t of terms) if (words.has(t)) score += 1;
    return { id: r.id, score };
  })
  .filter((r) => r.score > 0)
  .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  .slice(0, Number(k));
process.stdout.write(JSON.stringify({ ranked }) + '\n');
