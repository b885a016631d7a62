#!/usr/bin/env node
// A JSON-lines worker that runs degraded and says so (issue 24): it ranks the pinned corpus by query
// terms (rgate's contract) and, since a worker has no per-request stderr, puts what a one-shot CLI
// would print on stderr in its answer's `warnings`. Its own stderr gets a start-up log line that
// belongs to no request and must not be counted. `--bad-warnings` answers `"warnings": 7` instead.
//   node warning-worker.mjs <corpus_dir> [--bad-warnings]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const [corpusDir = '.', flag] = process.argv.slice(2);
const records = readFileSync(join(corpusDir, 'corpus.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l));
process.stderr.write('2026-11-26T08:00:00Z INFO worker started, no embedding server configured\n');

const words = (s) => new Set(s.toLowerCase().match(/[a-z0-9]+/g) ?? []);
createInterface({ input: process.stdin }).on('line', (line) => {
  const req = JSON.parse(line);
  const terms = words(req.query);
  const ranked = records
    .map((r) => {
      const w = words(`${r.title ?? ''} ${r.text ?? ''}`);
      let score = 0;
      for (const t of terms) if (w.has(t)) score += 1;
      return { id: r.id, score };
    })
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, req.k);
  // every answer fell back to token overlap; a query with no match also says so, twice (deduplicated)
  const warnings = ['warning: embedding unavailable; using token-overlap scoring'];
  if (ranked.length === 0)
    warnings.push('no term of the query is in the corpus', 'no term of the query is in the corpus');
  const answer = { id: req.id, response: { ranked }, warnings: flag === '--bad-warnings' ? 7 : warnings };
  process.stdout.write(JSON.stringify(answer) + '\n');
});
