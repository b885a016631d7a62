#!/usr/bin/env node
// A JSON-lines worker whose behaviour is the run state a test wants, by $SUT_STATE:
//   ok       answers doc-a (judged useful) in semantic mode
//   down     answers every request with an error envelope (the index is unavailable)
//   once     answers a query the first time it is asked, then the error (down from replay 2 on)
//   holes    answers doc-c (no judgment covers it) for queries whose id ends in an odd digit
// One process serves the whole run, so a state costs one spawn, not one per request.
import { createInterface } from 'node:readline';

const state = process.env.SUT_STATE ?? 'ok';
const asked = new Set();
const answer = (queryId) => {
  const fail = state === 'down' || (state === 'once' && asked.has(queryId));
  asked.add(queryId);
  if (fail)
    return { error: { code: 'index_unavailable', message: `the index is unavailable for ${queryId}` } };
  const top = state === 'holes' && /[13579]$/.test(queryId) ? 'doc-c' : 'doc-a';
  const other = top === 'doc-a' ? 'doc-b' : 'doc-a';
  return {
    selection_mode: 'semantic',
    selected_id: top,
    source_path: `docs/${top.slice(4)}.md`,
    ranked: [
      { id: top, source_path: `docs/${top.slice(4)}.md`, score: 2 },
      { id: other, source_path: `docs/${other.slice(4)}.md`, score: 1 },
    ],
  };
};
createInterface({ input: process.stdin }).on('line', (line) => {
  const req = JSON.parse(line);
  process.stdout.write(JSON.stringify({ id: req.id, response: answer(req.query_id) }) + '\n');
});
