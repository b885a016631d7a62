#!/usr/bin/env node
// A per-query CLI that misbehaves on chosen queries: `crash` exits 2 with a message on stderr,
// `hang` never answers (and says so in $SUT_HOLDING_DIR), `slow` answers after 300 ms; anything else
// gets a fixed, correct answer.
// argv: <query_id> <query text>
import { recordHolding } from '../behaviour.mjs';

const [queryId, query] = process.argv.slice(2);
if (query === 'crash') {
  process.stderr.write(`flaky: segfault-like failure on ${queryId}\n`);
  process.exit(2);
}
if (query === 'hang') {
  setInterval(() => {}, 1000);
  recordHolding(queryId);
} else {
  const answer = () =>
    process.stdout.write(
      JSON.stringify({
        selection_mode: 'semantic',
        selected_id: 'doc-a',
        source_path: 'docs/a.md',
        ranked: [
          { id: 'doc-a', source_path: 'docs/a.md', score: 2 },
          { id: 'doc-b', source_path: 'docs/b.md', score: 1 },
        ],
      }),
    );
  if (query === 'slow') setTimeout(answer, 300);
  else answer();
}
