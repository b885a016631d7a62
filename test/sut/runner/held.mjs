#!/usr/bin/env node
// A retriever that holds one request, so a test can interrupt rgate while that request is in flight.
// Per query: argv <query_id> <query> <replay>. As a JSON-lines worker: argv --worker.
// Every request is logged to $SUT_LOG (one query id a line). The request `$SUT_HOLD_AT`
// ("<replay>:<query_id>") is held, once: the SUT starts a grandchild in its process group, writes
// {"pids": [own, grandchild]} to $SUT_MARKER (atomically, so a reader never sees half of it), then
// answers only when $SUT_RELEASE exists (if that is set), or never. With the marker already there,
// nothing is held: a resumed or clean run gets every answer at once.
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, renameSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const env = process.env;

function answer(query) {
  const top = query.length % 2 === 0 ? 'doc-a' : 'doc-b';
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
}

/** Calls `reply` now, or, for the held request, once released (never, without $SUT_RELEASE). */
function serve(queryId, query, replay, reply) {
  if (env.SUT_LOG) appendFileSync(env.SUT_LOG, `${queryId}\n`);
  const held = env.SUT_HOLD_AT === `${replay}:${queryId}` && env.SUT_MARKER && !existsSync(env.SUT_MARKER);
  if (!held) return reply(answer(query));
  const sleeper = spawn('sleep', ['300'], { stdio: 'ignore' });
  writeFileSync(`${env.SUT_MARKER}.tmp`, JSON.stringify({ pids: [process.pid, sleeper.pid] }));
  renameSync(`${env.SUT_MARKER}.tmp`, env.SUT_MARKER);
  const wait = setInterval(() => {
    if (env.SUT_RELEASE && existsSync(env.SUT_RELEASE)) {
      clearInterval(wait);
      sleeper.kill();
      reply(answer(query));
    }
  }, 20);
}

if (process.argv[2] === '--worker') {
  createInterface({ input: process.stdin }).on('line', (line) => {
    const req = JSON.parse(line);
    serve(req.query_id, req.query, req.replay, (response) =>
      process.stdout.write(JSON.stringify({ id: req.id, response }) + '\n'),
    );
  });
} else {
  const [queryId, query, replay] = process.argv.slice(2);
  serve(queryId, query, replay, (response) => process.stdout.write(JSON.stringify(response)));
}
