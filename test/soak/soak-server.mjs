// The soak's system under test: a real HTTP service on 127.0.0.1 in its own process (so its memory
// is not rgate's), answering each RetrievalQuery in rgate's format with a deterministic ranking
// derived from the query text. Prints its URL on stdout once listening.
import http from 'node:http';

const DOCS = Number(process.env.SOAK_DOCS ?? 2000);

function hash(s) {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0;
  return h;
}

const server = http.createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    const q = JSON.parse(body);
    const h = hash(q.query);
    const ranked = Array.from({ length: 10 }, (_, i) => {
      const d = (h + i * 7919) % DOCS;
      return { id: `d${d}`, source_path: `docs/d${d}.md`, score: 10 - i, chars: 100 };
    });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ selection_mode: 'semantic', ranked }));
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${server.address().port}/retrieve\n`);
});
