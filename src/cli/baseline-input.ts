import { RgateError } from '../core/errors.js';
import { readJsonFile } from '../core/jsonl.js';
import type { Report } from '../documents/index.js';
import { baselinePerQuery } from '../../harness/run-baseline.js';

/** A previous report.json as the baseline for `vs_baseline` rules. */
export function baselineFromReportFile(path: string) {
  const r = readJsonFile(path) as Partial<Report>;
  if (!r || typeof r !== 'object' || !Array.isArray(r.metrics) || !r.artifacts) {
    throw new RgateError(
      'input_invalid',
      `${path}: not an rgate report (no metrics/artifacts)`,
      'pass a report.json written by `rgate run`',
    );
  }
  const perQuery = baselinePerQuery(r);
  return {
    metrics: r.metrics,
    ...(perQuery ? { per_query: perQuery } : {}),
    source: path,
    ...(r.environment?.run_id ? { run_id: r.environment.run_id } : {}),
    artifacts: r.artifacts,
  };
}
