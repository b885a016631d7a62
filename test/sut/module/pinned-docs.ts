// The pinned fixture the framework retrievers serve (test/framework-retrievers.test.ts freezes the
// same records as a fixture set), and our deterministic embedder: words hashed into 256 dimensions,
// normalised, so an answer depends on nothing but the text (no model, no network).
export const DOCS = [
  {
    id: 'doc-ingest',
    source: 'docs/ingest.md',
    text: 'ingest pipeline batches events before writing them to storage',
  },
  {
    id: 'doc-cache',
    source: 'docs/cache.md',
    text: 'query cache keeps recent answers warm and evicts stale entries',
  },
  {
    id: 'doc-tenancy',
    source: 'docs/tenancy.md',
    text: 'multi tenancy isolates each tenant with its own index and quota',
  },
  {
    id: 'doc-compactor',
    source: 'docs/compactor.md',
    text: 'the compactor merges small segments into larger storage files',
  },
  {
    id: 'doc-alerts',
    source: 'docs/alerts.md',
    text: 'alerts page the on call engineer when error rates cross a threshold',
  },
  {
    id: 'doc-tokens',
    source: 'docs/tokens.md',
    text: 'ingest tokens authenticate writers and rotate every ninety days',
  },
];

export const QUERIES = [
  { query_id: 'q-cache', text: 'which cache evicts stale answers', useful: 'doc-cache' },
  { query_id: 'q-tenant', text: 'how is a tenant isolated with its own quota', useful: 'doc-tenancy' },
  { query_id: 'q-compactor', text: 'compactor merges segments', useful: 'doc-compactor' },
  { query_id: 'q-alerts', text: 'who is paged when error rates cross a threshold', useful: 'doc-alerts' },
];

const DIM = 256;

function hash(word: string): number {
  let h = 2166136261;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619);
  return (h >>> 0) % DIM;
}

export function embed(text: string): number[] {
  const v = new Array<number>(DIM).fill(0);
  for (const w of text.toLowerCase().split(/\W+/)) if (w.length > 2) v[hash(w)]! += 1;
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

export function cosine(a: readonly number[], b: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}
