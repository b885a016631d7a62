#!/usr/bin/env node
// A per-query CLI whose behaviour is the run state a test wants, by $SUT_STATE:
//   ok       answers doc-a (judged useful) in semantic mode
//   down     exits 1 with a message on stderr, every time
//   once     answers a query the first time it is asked, then exits 1 (down from replay 2 on);
//            $SUT_MARKS is the folder that remembers which queries were asked
//   holes    answers doc-c (no judgment covers it) for queries whose id ends in an odd digit
// argv: <query_id>
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [queryId] = process.argv.slice(2);
const state = process.env.SUT_STATE ?? 'ok';
const fail = () => {
  process.stderr.write(`states: the index is unavailable for ${queryId}\n`);
  process.exit(1);
};
if (state === 'down') fail();
if (state === 'once') {
  const mark = join(process.env.SUT_MARKS ?? '.', queryId);
  if (existsSync(mark)) fail();
  writeFileSync(mark, '');
}
const top = state === 'holes' && /[13579]$/.test(queryId) ? 'doc-c' : 'doc-a';
const other = top === 'doc-a' ? 'doc-b' : 'doc-a';
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
