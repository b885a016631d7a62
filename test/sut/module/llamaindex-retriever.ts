// A LlamaIndex.TS retriever as a team writes one: the real @llamaindex/core BaseRetriever, Document
// and BaseEmbedding, over an in-memory vector list of ours with our deterministic embedder. rgate
// calls its retrieve({query}) and reads the NodeWithScore list it returns.
import { BaseEmbedding } from '@llamaindex/core/embeddings';
import { BaseRetriever } from '@llamaindex/core/retriever';
import { Document, type NodeWithScore } from '@llamaindex/core/schema';
import type { QueryBundle } from '@llamaindex/core/query-engine';
import { cosine, DOCS, embed } from './pinned-docs.js';

class HashEmbedding extends BaseEmbedding {
  constructor() {
    super();
  }
  async getTextEmbedding(text: string): Promise<number[]> {
    return embed(text);
  }
}

class InMemoryRetriever extends BaseRetriever {
  private readonly embedding = new HashEmbedding();
  private readonly nodes = DOCS.map((d) => ({
    node: new Document({ id_: d.id, text: d.text, metadata: { file_path: d.source } }),
    vector: embed(d.text),
  }));
  constructor(private readonly k: number) {
    super();
  }
  async _retrieve(params: QueryBundle): Promise<NodeWithScore[]> {
    const q = await this.embedding.getTextEmbedding(String(params.query));
    return this.nodes
      .map((n) => ({ node: n.node, score: cosine(q, n.vector) }))
      .sort((a, b) => b.score - a.score || (a.node.id_ < b.node.id_ ? -1 : 1))
      .slice(0, this.k);
  }
}

/** The retriever itself, as rgate gets it: `"export": "retriever"`. */
export const retriever = new InMemoryRetriever(3);
