import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { compareCodeUnits } from '../core/canonical-json.js';
import type { Observation } from '../documents/index.js';
import { scoredRanking } from '../metrics/index.js';

/**
 * Replay 1's rankings as a TREC run (`qid Q0 docno rank score tag`), in the order the system returned
 * them, each id once (at its first position, as the ranking measures keep it), so trec_eval scores
 * exactly what rgate scored (the same scoredRanking). Scores are printed with 17 significant digits
 * so no tie is created or broken by rounding.
 */
export function writeTrecRun(path: string, observations: readonly Observation[], tag: string): void {
  const first = observations
    .filter((o) => o.replay === 1)
    .sort((a, b) => compareCodeUnits(a.query_id, b.query_id));
  const lines: string[] = [];
  for (const o of first) {
    // ranks renumbered 1..n past a dropped repeat (trec_eval orders by score and ignores them)
    scoredRanking(o).forEach((r, i) => {
      lines.push(`${o.query_id} Q0 ${r.id} ${i + 1} ${formatScore(r.score)} ${tag}`);
    });
  }
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, lines.join('\n') + (lines.length ? '\n' : ''));
}

function formatScore(x: number): string {
  return Number.isInteger(x) ? x.toFixed(1) : x.toPrecision(17).replace(/0+$/, '').replace(/\.$/, '.0');
}
