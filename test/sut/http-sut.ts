// HTTP test SUT: a real node:http server on 127.0.0.1 with an ephemeral port, answering RetrievalQuery
// POSTs in rgate's format with the behaviour the query text asks for (see behaviour.mjs). No mocks.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decide, flood, HUGE } from './behaviour.mjs';

export interface HttpSut {
  url: string;
  server: http.Server;
  requests: Array<{ headers: http.IncomingHttpHeaders; body: Record<string, unknown> }>;
  /** query ids of the requests it holds for good (hang), once their whole body is read */
  holding: string[];
  connections(): Promise<number>;
  close(): Promise<void>;
}

export interface HttpSutOptions {
  /** normal answers are held until this many are due, then written together; default 1 */
  holdUntil?: number;
  /** called once an answer is written to the socket, before the client can have read it */
  onAnswered?(queryId: string): void;
}

export async function startHttpSut(o: HttpSutOptions = {}): Promise<HttpSut> {
  const state = { served: 0 };
  const requests: HttpSut['requests'] = [];
  const holding: string[] = [];
  const held: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const q = JSON.parse(body) as { query: string };
      requests.push({ headers: req.headers, body: q });
      state.served += 1;
      const queryId = decodeURIComponent(String(req.headers['x-rgate-query-id'] ?? ''));
      const d = decide(queryId, q.query, state);
      const json = (status: number, value: unknown): void => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      switch (d.kind) {
        case 'crash':
          req.socket.destroy();
          break;
        case 'hang':
        case 'hang-with-child':
          holding.push(queryId);
          break;
        case 'garbage':
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end('<html>502 Bad Gateway</html>');
          break;
        case 'huge':
          json(200, { ranked: [], pad: HUGE });
          break;
        case 'flood':
          // streamed as fast as the client reads, never built in memory: a runaway, not a big answer
          res.writeHead(200, { 'content-type': 'application/json' });
          flood(res, '{"ranked": [], "pad": "', '"}', () => res.end());
          break;
        default:
          held.push(() => {
            json(d.body.error ? 422 : 200, d.body);
            o.onAnswered?.(queryId);
          });
          if (held.length >= (o.holdUntil ?? 1)) for (const answer of held.splice(0)) answer();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/retrieve`,
    server,
    requests,
    holding,
    connections: () =>
      new Promise((resolve, reject) => server.getConnections((e, n) => (e ? reject(e) : resolve(n)))),
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
