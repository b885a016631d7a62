import { mkdirSync, writeFileSync } from 'node:fs';
import { writeFreeze } from '../../src/snapshot/index.js';

/**
 * The frozen fixture set the real-process CLI tests (run-sigint, run-lifecycle) run their systems
 * against: two documents, `queries` questions of distinct lengths each judging doc-a useful, a
 * semantic config, frozen. What those tests check is the run around the system, not retrieval, so
 * the set is as small as a run can be.
 */
export function writeTinySet(
  set: string,
  opts: { queries: number; queryId?: (i: number) => string; frozenOn: string },
): void {
  mkdirSync(set, { recursive: true });
  const docs = ['a', 'b'].map((x) =>
    JSON.stringify({
      id: `doc-${x}`,
      source_path: `docs/${x}.md`,
      text: `${x} document`,
      kind: 'canonical',
      captured_at: '2026-01-01T00:00:00Z',
    }),
  );
  writeFileSync(`${set}/corpus.jsonl`, docs.join('\n') + '\n');
  const id = opts.queryId ?? ((i: number) => `q${i + 1}`);
  const qs = Array.from({ length: opts.queries }, (_, i) =>
    JSON.stringify({ query_id: id(i), text: `question ${'x'.repeat(i)}`, qrels: { 'doc-a': 1 } }),
  );
  writeFileSync(`${set}/queries.jsonl`, qs.join('\n') + '\n');
  writeFileSync(`${set}/config.json`, JSON.stringify({ mode: 'semantic' }));
  writeFreeze(set, { frozenOn: opts.frozenOn });
}
