#!/usr/bin/env node
// Per-query test SUT: `node cli.mjs <query_id> <query>`; prints one rgate-format JSON answer on stdout.
import { decide, flood, HUGE, recordHolding, recordPid, spawnSleeper } from './behaviour.mjs';

const [queryId = '', query = ''] = process.argv.slice(2);
recordPid(process.pid);
const d = decide(queryId, query, { served: 1 });
process.stderr.write(`cli: handling ${queryId}\n`);
switch (d.kind) {
  case 'crash':
    process.stderr.write('cli: segfault-like failure\n');
    process.exit(3);
    break;
  case 'hang':
    setInterval(() => {}, 1000);
    recordHolding(queryId);
    break;
  case 'hang-with-child':
    spawnSleeper();
    setInterval(() => {}, 1000);
    recordHolding(queryId);
    break;
  case 'garbage':
    process.stdout.write('Traceback (most recent call last): not JSON at all');
    break;
  case 'huge':
    process.stdout.write(JSON.stringify({ ranked: [], pad: HUGE }));
    break;
  case 'flood':
    // a runaway that would go on running afterwards: only a kill ends it
    flood(process.stdout, '{"ranked": [], "pad": "', '"}', () => setInterval(() => {}, 1000));
    break;
  default:
    process.stdout.write(JSON.stringify(d.body));
}
