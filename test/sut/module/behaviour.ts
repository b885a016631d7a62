// The module system's test SUT: the query text picks what it does, as test/sut/behaviour.mjs does for
// the process SUTs. Holding a query is recorded in params.holding_dir (a thread shares rgate's
// process, so nothing goes through the environment). Keeps a request counter (hidden state a restart
// must flush).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { okAnswer } from '../behaviour.mjs';

interface Request {
  query_id: string;
  query: string;
  params: { holding_dir?: string };
}

let served = 0;

function holding(req: Request): void {
  const dir = req.params.holding_dir;
  if (dir) writeFileSync(join(dir, `${encodeURIComponent(req.query_id)}.holding`), '');
}

export async function search(req: Request): Promise<unknown> {
  served += 1;
  switch (req.query) {
    case 'crash':
      // an error nobody catches ends the thread, as an uncaught exception ends a process
      setImmediate(() => {
        throw new Error('fatal error in handler');
      });
      return new Promise(() => undefined);
    case 'hang':
      holding(req);
      return new Promise(() => undefined);
    case 'hang-with-child':
      // a busy loop: no promise ever settles, only terminating the thread ends it
      holding(req);
      for (;;) served += 0;
    case 'garbage':
      return 'WARN: cache miss, rebuilding';
    case 'break-contract':
      return { ranked: 'not a list', selectedId: 3 };
    case 'envelope':
      return { error: { code: 'index_unavailable', message: 'index not built', action: 'run build-index' } };
    case 'throw':
      throw new Error('index shard 3 unreachable');
    case 'reject':
      return Promise.reject(new TypeError('embedding service said 503'));
    case 'log':
      console.log('cache miss for %s', req.query_id);
      console.warn('warning: slow shard');
      return okAnswer(req.query_id, req.query);
    case 'exit':
      process.exit(7);
      break;
    case 'counter':
      return okAnswer(req.query_id, `served:${served}`);
    default:
      return okAnswer(req.query_id, req.query);
  }
}
