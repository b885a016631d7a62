#!/usr/bin/env node
// A per-query CLI that logs every query it is asked (one line per call to $SUT_LOG) and answers at
// once, so a test can count what a run, and its resume, asked. With $SUT_HOLD naming a file, every
// call after the first $SUT_HOLD_AFTER holds its answer while that file exists: a test interrupts or
// kills the run at a point it knows (a request in flight, the ones before it answered and stored),
// not after a guessed delay, then removes the file.
// argv: <query_id> <query text>
import { appendFileSync, existsSync, readFileSync } from 'node:fs';

const [queryId, query] = process.argv.slice(2);
appendFileSync(process.env.SUT_LOG, `${queryId}\n`);
const call = readFileSync(process.env.SUT_LOG, 'utf8').split('\n').filter(Boolean).length;
const top = query.length % 2 === 0 ? 'doc-a' : 'doc-b';
const other = top === 'doc-a' ? 'doc-b' : 'doc-a';
const answer = () =>
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
// a run killed meanwhile has closed the pipe: the late answer goes nowhere, quietly
process.stdout.on('error', () => undefined);
const hold = process.env.SUT_HOLD;
if (hold && existsSync(hold) && call > Number(process.env.SUT_HOLD_AFTER ?? 0)) {
  const wait = setInterval(() => {
    if (existsSync(hold)) return;
    clearInterval(wait);
    answer();
  }, 20);
} else answer();
