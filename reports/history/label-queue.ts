/**
 * The labeling queue's files: queue.jsonl (one (query, doc) per line, in review order) and the
 * grading page (reports/history/templates/label-queue.hbs): self-contained, keyboard only, the
 * grades saved as a JSONL download that `rgate label merge` reads.
 */
import type { LabelQueue } from '../../src/documents/index.js';
import { canonicalJson } from '../../src/core/canonical-json.js';
import { clientScript, cspHash, FRAMED_PAGE_CSP, template, type PageFrame } from '../templates.js';

/**
 * The queue's size in words, the same in the terminal and on the page: "178 unjudged (query,
 * document) pair(s) in 88 of the 90 judged queries" (two judged queries had nothing left to judge).
 */
export function labelQueueSize(q: LabelQueue): string {
  const queries = new Set(q.items.map((i) => i.query_id)).size;
  return `${q.items.length} unjudged (query, document) pair(s) in ${queries} of the ${q.judged_queries} judged queries`;
}

/** One canonical JSON line per item, in queue order. */
export function renderLabelQueueJsonl(q: LabelQueue): string {
  return q.items.map((i) => canonicalJson(i) + '\n').join('');
}

/** The grading page; `frame`: served by the dashboard (breadcrumb, its script from /assets/). */
export function renderLabelQueueHtml(q: LabelQueue, frame?: PageFrame): string {
  const client = frame ? '' : clientScript('history', 'label-queue-client.js');
  const csp = frame
    ? FRAMED_PAGE_CSP
    : [
        "default-src 'none'",
        "style-src 'unsafe-inline'",
        'img-src data:',
        `script-src ${cspHash(client)}`,
      ].join('; ');
  return template(
    'history',
    'label-queue',
  )({
    ...q,
    items: q.items.map((item, i) => ({ title: '', source_path: '', ...item, n: i + 1 })),
    size: labelQueueSize(q),
    title: `rgate label queue: ${q.origin.id}`,
    csp,
    client,
    frame: frame ?? null,
  });
}
