#!/usr/bin/env node
// A deliberately nondeterministic system under test (JSON-lines worker): two tied items whose order
// depends on how many requests this process has served, i.e. on arrival order. Replays shuffle the
// query order, so a query's ranking changes between replays. Answers in rgate's own format.
import { createInterface } from 'node:readline';

let served = 0;
createInterface({ input: process.stdin }).on('line', (line) => {
  const req = JSON.parse(line);
  served += 1;
  const a = { id: 'doc-a', source_path: 'docs/a.md', score: 1 };
  const b = { id: 'doc-b', source_path: 'docs/b.md', score: 1 };
  const ranked = served % 2 === 0 ? [a, b] : [b, a];
  const response = {
    selection_mode: 'semantic',
    selected_id: ranked[0].id,
    source_path: ranked[0].source_path,
    ranked,
  };
  process.stdout.write(JSON.stringify({ id: req.id, response }) + '\n');
});
