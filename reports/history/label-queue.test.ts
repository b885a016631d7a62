import { describe, expect, it } from 'vitest';
import { LABEL_QUEUE_SCHEMA_VERSION, type LabelQueue } from '../../src/documents/index.js';
import { renderLabelQueueHtml, renderLabelQueueJsonl } from './label-queue.js';

const EVIL = '</script><script>alert(1)</script>"\' onfocus=alert(2) <!--';

const queue: LabelQueue = {
  schema: LABEL_QUEUE_SCHEMA_VERSION,
  origin: { kind: 'compare', id: `cmp-1${EVIL}`, suite: 'ctx' },
  fixture: 'mini',
  corpus_id: 'mini/corpus@v1#0',
  query_set_id: 'mini/queries@v1#0',
  query_set_changed: false,
  k: 5,
  sources: [{ id: 'v1', label: EVIL, run_id: 'r' }],
  judged_queries: 1,
  not_in_corpus: 0,
  items: [
    {
      query_id: `q${EVIL}`,
      query_text: EVIL,
      doc_id: `d${EVIL}`,
      title: EVIL,
      text: EVIL,
      surfaced_by: ['v1'],
      best_rank: 1,
    },
  ],
};

describe('label queue renderers', () => {
  it('the page carries hostile text only escaped, and exactly one script, allowed by its hash', () => {
    const html = renderLabelQueueHtml(queue);
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('onfocus=alert(2) <');
    expect(html.match(/<script>/g)).toHaveLength(1);
    // (the CSP attribute is entity-escaped; the browser test proves the hash lets the script run)
    expect(html).toMatch(/script-src &#x27;sha256-[A-Za-z0-9+/&#;]+&#x27;/);
    expect(html).not.toMatch(/\bsrc=|\bhref=|https?:\/\//);
    expect(html).toContain('data-query="q&lt;/script&gt;');
  });

  it('an empty queue says there is nothing to grade', () => {
    expect(renderLabelQueueHtml({ ...queue, items: [] })).toContain('Nothing to grade');
  });

  it('JSONL: one canonical line per item, in queue order', () => {
    const text = renderLabelQueueJsonl({
      ...queue,
      items: [queue.items[0]!, { ...queue.items[0]!, doc_id: 'x' }],
    });
    const lines = text.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    expect(JSON.parse(lines[1]!).doc_id).toBe('x');
    expect(lines[0]!.startsWith('{"best_rank":1,"doc_id":')).toBe(true);
  });
});
