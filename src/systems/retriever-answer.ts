/**
 * What a module or function retriever returned, as a payload its contract can read. A contract answer
 * (an object) passes as it is. A list is a plain ranking, read as rgate's `ranked` in list order:
 * - a string is an id;
 * - a LangChain.js `Document` (`pageContent` + `metadata`): id from `id`, else `metadata.id`;
 *   source_path from `metadata.source`; score from `metadata.score` when a number;
 * - a LlamaIndex.TS `NodeWithScore` (`node` + optional `score`): id from `node.metadata.id`, else the
 *   source document's id (`node.sourceNode.nodeId`, a chunk's document), else `node.id_`; source_path
 *   from `metadata.file_path`, else `metadata.source`; score from `score`;
 * - any other object is an rgate ranked item as written (checked by the contract).
 * An item without a score gets one from its place (n - i), so the list order is the ranking.
 * Pure and dependency-free: it runs in the worker thread, where the framework objects are.
 */
export type RetrieverAnswer =
  | { answer: unknown; list: boolean }
  | {
      /** `/2: ...`, the JSON path in what the function returned */
      problem: string;
    };

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

export function retrieverAnswer(value: unknown): RetrieverAnswer {
  if (!Array.isArray(value)) return { answer: value, list: false };
  const n = value.length;
  const ranked: unknown[] = [];
  for (let i = 0; i < n; i++) {
    const item = itemOf(value[i], n - i);
    if ('problem' in item) return { problem: `/${i}${item.problem}` };
    ranked.push(item.item);
  }
  return { answer: { ranked }, list: true };
}

function itemOf(v: unknown, placeScore: number): { item: unknown } | { problem: string } {
  if (typeof v === 'string') return { item: { id: v, score: placeScore } };
  if (!isObj(v)) return { item: v };
  if (typeof v['pageContent'] === 'string' && isObj(v['metadata'])) return langchainItem(v, placeScore);
  if (isObj(v['node'])) return llamaindexItem(v, placeScore);
  return { item: 'score' in v ? v : { ...v, score: placeScore } };
}

function langchainItem(doc: Obj, placeScore: number): { item: unknown } | { problem: string } {
  const meta = doc['metadata'] as Obj;
  const id = str(doc['id']) ?? str(meta['id']);
  if (id === undefined)
    return {
      problem:
        ': a LangChain Document with no id (rgate reads Document.id, then metadata.id): give each document its corpus id',
    };
  const source = str(meta['source']);
  return {
    item: {
      id,
      ...(source !== undefined ? { source_path: source } : {}),
      score: num(meta['score']) ?? placeScore,
    },
  };
}

function llamaindexItem(hit: Obj, placeScore: number): { item: unknown } | { problem: string } {
  const node = hit['node'] as Obj;
  const meta = isObj(node['metadata']) ? node['metadata'] : {};
  const rel = isObj(node['relationships']) ? node['relationships'] : {};
  // a chunk names its document under relationships.SOURCE (what the `sourceNode` getter reads)
  const source = isObj(rel['SOURCE']) ? str(rel['SOURCE']['nodeId']) : undefined;
  const id = str(meta['id']) ?? source ?? str(node['id_']);
  if (id === undefined)
    return {
      problem: '/node: a LlamaIndex node with no id (rgate reads metadata.id, the source node id, then id_)',
    };
  const path = str(meta['file_path']) ?? str(meta['source']);
  return {
    item: {
      id,
      ...(path !== undefined ? { source_path: path } : {}),
      score: num(hit['score']) ?? placeScore,
    },
  };
}

/** A contract violation about `ranked` said where it is in what the function returned (a plain list). */
export function pathInList(line: string): string {
  return line.replace(/^\/ranked(\/|:)/, (_m, c: string) => (c === '/' ? '/' : '(the list):'));
}
