#!/usr/bin/env node
// A per-query CLI that logs every query it answers (one line per call to $SUT_LOG) and answers after
// a short pause, so a test can kill a run part-way and count what a resume asks again.
// argv: <query_id> <query text>
import { appendFileSync } from 'node:fs';

const [queryId, query] = process.argv.slice(2);
appendFileSync(process.env.SUT_LOG, `${queryId}\n`);
const top = query.length % 2 === 0 ? 'doc-a' : 'doc-b';
const other = top === 'doc-a' ? 'doc-b' : 'doc-a';
setTimeout(
  () => {
    process.stdout.write(
      JSON.stringify({
        selection_mode: 'semantic',
        selected_id: top,
        source_path: `docs/${top.slice(4)}.md`,
        ranked: [
          { id: top, source_path: `docs/${top.slice(4)}.md`, score: 2 },
          { id: other, source_path: `docs/${other.slice(4)}.md`, score: 1 },
        ],
      }),
    );
  },
  Number(process.env.SUT_DELAY_MS ?? 0),
);
