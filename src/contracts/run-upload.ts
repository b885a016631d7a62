import { compileSchema, formatAjvErrors } from './ajv.js';
import { validateReportSchema } from './report.js';
import { RunUploadSchema, type Report, type RunUpload } from '../documents/index.js';

const validateEnvelope = compileSchema<RunUpload>(RunUploadSchema, 'run-upload');

/** An upload checked: the document, or its first problem as `/json/path: message` (and how many more). */
export type UploadCheck =
  | { ok: true; upload: RunUpload & { result: { report: Report } } }
  | { ok: false; path: string; message: string; more: number };

/** The first of ajv's formatted errors as a check's failure (`prefix` roots a nested document's paths). */
export function firstProblem(
  lines: string[],
  prefix = '',
): { ok: false; path: string; message: string; more: number } {
  const first = lines[0] ?? '/: is invalid';
  const cut = first.indexOf(': ');
  const path = `${prefix}${first.slice(0, cut)}`.replace(/(.)\/$/, '$1');
  return { ok: false, path, message: first.slice(cut + 2), more: lines.length - 1 };
}

/**
 * Check an uploaded run against the upload, observation and report documents, then that its parts
 * agree (the report is this run's, no request twice): what `rgate server` stores is a run every page
 * and every history command can read.
 */
export function checkRunUpload(value: unknown): UploadCheck {
  if (!validateEnvelope(value)) return firstProblem(formatAjvErrors(validateEnvelope.errors));
  const report: unknown = value.result.report;
  if (!validateReportSchema(report))
    return firstProblem(formatAjvErrors(validateReportSchema.errors), '/result/report');
  const mismatch = (path: string, message: string): UploadCheck => ({ ok: false, path, message, more: 0 });
  if (report.environment.run_id !== value.meta.run_id) {
    return mismatch(
      '/result/report/environment/run_id',
      `is ${JSON.stringify(report.environment.run_id)}, the run is ${JSON.stringify(value.meta.run_id)}`,
    );
  }
  if (report.suite !== value.meta.suite) {
    return mismatch(
      '/result/report/suite',
      `is ${JSON.stringify(report.suite)}, the run's suite is ${JSON.stringify(value.meta.suite)}`,
    );
  }
  const seen = new Set<string>();
  for (const [i, o] of value.observations.entries()) {
    const key = `${o.replay}\u0000${o.query_id}`;
    if (seen.has(key))
      return mismatch(
        `/observations/${i}`,
        `repeats replay ${o.replay} of query ${JSON.stringify(o.query_id)}`,
      );
    seen.add(key);
  }
  return { ok: true, upload: value as RunUpload & { result: { report: Report } } };
}
