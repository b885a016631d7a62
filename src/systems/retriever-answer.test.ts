import { describe, expect, it } from 'vitest';
import { pathInList, retrieverAnswer } from './retriever-answer.js';

describe('retrieverAnswer', () => {
  it('passes a contract answer (an object) as it is', () => {
    const a = { ranked: [{ id: 'd1', score: 1 }] };
    expect(retrieverAnswer(a)).toEqual({ answer: a, list: false });
  });

  it('reads a plain list in order: ids, and items without a score scored by their place', () => {
    expect(retrieverAnswer(['d1', { id: 'd2', source_path: 'b.md' }, { id: 'd3', score: 0.1 }])).toEqual({
      answer: {
        ranked: [
          { id: 'd1', score: 3 },
          { id: 'd2', source_path: 'b.md', score: 2 },
          { id: 'd3', score: 0.1 },
        ],
      },
      list: true,
    });
  });

  it('reads a LlamaIndex chunk as its source document (relationships.SOURCE), its path from metadata', () => {
    const chunk = {
      node: {
        id_: 'random-uuid',
        metadata: { file_path: 'docs/a.md' },
        relationships: { SOURCE: { nodeId: 'doc-a' } },
      },
      score: 0.8,
    };
    expect(retrieverAnswer([chunk])).toEqual({
      answer: { ranked: [{ id: 'doc-a', source_path: 'docs/a.md', score: 0.8 }] },
      list: true,
    });
  });

  it('refuses a LangChain Document without an id, naming its place', () => {
    const r = retrieverAnswer([
      { pageContent: 'x', metadata: { id: 'd1' } },
      { pageContent: 'y', metadata: { source: 'b.md' } },
    ]);
    expect(r).toEqual({ problem: expect.stringMatching(/^\/1: a LangChain Document with no id/) });
  });

  it("says a plain list's violations where they are in the list", () => {
    expect(pathInList('/ranked/0/score: must be number')).toBe('/0/score: must be number');
  });
});
