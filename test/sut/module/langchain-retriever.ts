// A LangChain.js retriever as a team writes one: the real @langchain/core VectorStore and its
// retriever (asRetriever), over an in-memory store of ours with our deterministic embedder. rgate
// calls its invoke(query) and reads the Documents it returns.
import { Document, type DocumentInterface } from '@langchain/core/documents';
import { Embeddings } from '@langchain/core/embeddings';
import { VectorStore } from '@langchain/core/vectorstores';
import { cosine, DOCS, embed } from './pinned-docs.js';

class HashEmbeddings extends Embeddings {
  constructor() {
    super({});
  }
  async embedDocuments(texts: string[]): Promise<number[][]> {
    return texts.map(embed);
  }
  async embedQuery(text: string): Promise<number[]> {
    return embed(text);
  }
}

class InMemoryStore extends VectorStore {
  declare FilterType: never;
  private rows: Array<{ vector: number[]; doc: DocumentInterface }> = [];
  _vectorstoreType(): string {
    return 'rgate-test-memory';
  }
  async addVectors(vectors: number[][], documents: DocumentInterface[]): Promise<void> {
    vectors.forEach((vector, i) => this.rows.push({ vector, doc: documents[i]! }));
  }
  async addDocuments(documents: DocumentInterface[]): Promise<void> {
    await this.addVectors(
      await this.embeddings.embedDocuments(documents.map((d) => d.pageContent)),
      documents,
    );
  }
  async similaritySearchVectorWithScore(query: number[], k: number): Promise<[DocumentInterface, number][]> {
    return this.rows
      .map((r): [DocumentInterface, number] => [r.doc, cosine(query, r.vector)])
      .sort((a, b) => b[1] - a[1] || (a[0].id! < b[0].id! ? -1 : 1))
      .slice(0, k);
  }
}

const store = new InMemoryStore(new HashEmbeddings(), {});
await store.addDocuments(
  DOCS.map((d) => new Document({ id: d.id, pageContent: d.text, metadata: { source: d.source } })),
);

/** The retriever itself, as rgate gets it: `"export": "retriever"`. */
export const retriever = store.asRetriever({ k: 3 });

/** Documents without an id: rgate refuses to guess one. */
export const anonymous = {
  async invoke(query: string): Promise<DocumentInterface[]> {
    const docs = await retriever.invoke(query);
    return docs.map(
      (d) => new Document({ pageContent: d.pageContent, metadata: { source: d.metadata['source'] } }),
    );
  },
};
