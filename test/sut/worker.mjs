#!/usr/bin/env node
// JSON-lines worker test SUT: reads `{"id", "query_id", "query", ...}` lines on stdin, answers
// `{"id", "response"}` lines on stdout. Keeps a request counter (hidden state a restart must flush).
// SUT_EXIT_AFTER=N: exits with code 0 after its Nth answer, as a worker recycling itself does; the
// query `exit-clean` makes it exit with code 0 holding the request, unanswered.
import { createInterface } from 'node:readline';
import { decide, flood, HUGE, recordAnswered, recordHolding, recordPid, spawnSleeper } from './behaviour.mjs';

recordPid(process.pid);
const state = { served: 0, answered: 0 };
const exitAfter = Number(process.env.SUT_EXIT_AFTER ?? 0);
const rl = createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const req = JSON.parse(line);
  state.served += 1;
  if (req.query === 'exit-clean') process.exit(0);
  const d = decide(req.query_id, req.query, state);
  switch (d.kind) {
    case 'crash':
      process.stderr.write('worker: fatal error in handler\n');
      process.exit(3);
      break;
    case 'hang':
      setInterval(() => {}, 1000);
      recordHolding(req.query_id);
      break;
    case 'hang-with-child':
      spawnSleeper();
      setInterval(() => {}, 1000);
      recordHolding(req.query_id);
      break;
    case 'garbage':
      process.stdout.write('WARN: cache miss, rebuilding\n');
      break;
    case 'huge':
      process.stdout.write(JSON.stringify({ id: req.id, response: { ranked: [], pad: HUGE } }) + '\n');
      break;
    case 'flood':
      // one response line of FLOOD_BYTES; the worker lives on and would serve the next request
      flood(process.stdout, `{"id": ${req.id}, "response": {"ranked": [], "pad": "`, '"}}\n');
      break;
    default:
      process.stdout.write(
        JSON.stringify({ id: d.wrongId ? req.id + 1000 : req.id, response: d.body }) + '\n',
      );
      recordAnswered(req.query_id);
      state.answered += 1;
      // stdout is a pipe, written synchronously on POSIX: the answer is out before the exit
      if (exitAfter && state.answered >= exitAfter) process.exit(0);
  }
});
