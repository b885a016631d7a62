#!/usr/bin/env node
// Gate the TREC run your pipeline already wrote: a JSON-lines worker (rgate's "worker": true command
// system) that answers each query with that query's lines of the run file, as ranked, with their
// scores. No retriever runs; rgate measures the file as trec_eval would, and gates it.
//
//   "system": { "type": "command", "worker": true, "contract": "rgate",
//               "argv": ["node", "node_modules/rgate/examples/trec-run-worker.mjs", "runs/nightly.txt"] }
//
// The run file (qid Q0 docno rank score tag, whitespace-separated, # comments) is read once, when
// the worker starts. Each request gets at most its `k` entries (the suite's config.k: set it to the
// run's depth, e.g. 1000, for MAP). A query the run has no line for is answered with an empty ranking.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const path = process.argv[2];
if (!path) {
  process.stderr.write('usage: trec-run-worker.mjs <run file>\n');
  process.exit(2);
}
const byQuery = new Map();
readFileSync(path, 'utf8')
  .split('\n')
  .forEach((line, i) => {
    const f = line.trim().split(/\s+/);
    if (f[0] === '' || f[0].startsWith('#')) return;
    const score = Number(f[4]);
    if (f.length < 6 || !Number.isFinite(score)) {
      process.stderr.write(`${path}:${i + 1}: not a TREC run line (qid Q0 docno rank score tag)\n`);
      process.exit(2);
    }
    if (!byQuery.has(f[0])) byQuery.set(f[0], []);
    byQuery.get(f[0]).push({ id: f[2], score });
  });

createInterface({ input: process.stdin }).on('line', (line) => {
  const req = JSON.parse(line);
  const ranked = (byQuery.get(req.query_id) ?? []).slice(0, req.k);
  process.stdout.write(`${JSON.stringify({ id: req.id, response: { ranked } })}\n`);
});
