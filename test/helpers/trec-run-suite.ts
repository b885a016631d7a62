/**
 * A team's TREC run file gated through examples/trec-run-worker.mjs over the frozen CACM set (the
 * README's "Gate the run files you already have"), and the re-ranking the tests hold against it.
 */
import { join } from 'node:path';
import { REPO } from './dist.js';

/** The Anserini BM25 run shipped with the CACM fixture. */
export const CACM_RUN = join(REPO, 'fixtures', 'cacm', 'source', 'cacm-bm25.txt');

/** The suite `nightly` of rgate.config.json: the worker answering from `run`, one replay, k 1000. */
export function trecRunSuite(run: string, measures: readonly string[], gate: string | null): unknown {
  return {
    fixture: 'cacm',
    system: {
      type: 'command',
      worker: true,
      contract: 'rgate',
      argv: [process.execPath, join(REPO, 'examples', 'trec-run-worker.mjs'), run],
    },
    config: { k: 1000 },
    replays: 1,
    ranking_measures: measures,
    gate,
  };
}

/** A run file with each query's documents at ranks 1 and 2 exchanged (scores kept in rank order). */
export function swapTopTwo(text: string): string {
  const lines = text.trimEnd().split('\n');
  return (
    lines
      .map((l, i) => {
        const f = l.split(' ');
        const other = f[3] === '1' ? lines[i + 1] : f[3] === '2' ? lines[i - 1] : undefined;
        if (!other || other.split(' ')[0] !== f[0]) return l;
        return [f[0], f[1], other.split(' ')[2], f[3], f[4], f[5]].join(' ');
      })
      .join('\n') + '\n'
  );
}
