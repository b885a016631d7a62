#!/usr/bin/env node
// A plain ranker answering retrieval-result-v1 (no selection mode in the contract):
// `node retrieval-result.mjs <query>`. "about dN" answers dN then d10; "dup" answers d1 then d6
// three times (a repeated id); "empty" answers no results (k_returned 0).
const query = process.argv[2] ?? '';
const item = (doc, rank, score) => ({
  chunk_id: doc,
  document_id: doc,
  text_content: `text of ${doc}`,
  page: null,
  section: null,
  coordinates: null,
  rank,
  score,
});
let results = [];
if (query.startsWith('dup'))
  results = [item('d1', 1, 0.9), item('d6', 2, 0.8), item('d6', 3, 0.7), item('d6', 4, 0.6)];
else if (query.startsWith('about ')) results = [item(query.slice(6), 1, 0.9), item('d10', 2, 0.5)];
process.stdout.write(
  JSON.stringify({
    schema_version: '1.0',
    query_embedding_dimensions: 768,
    k_requested: 10,
    k_returned: results.length,
    results,
  }) + '\n',
);
