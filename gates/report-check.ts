/**
 * Schema check of a run report. It lives in gates/ because the layer table lets reports/ import
 * gates/ but not src/contracts/, and gates/ already reads the contracts.
 */
import { formatAjvErrors } from '../src/contracts/ajv.js';
import type { Report } from '../src/documents/index.js';
import { validateReportSchema } from '../src/contracts/report.js';
import { RgateError } from '../src/core/errors.js';

/** Whether a value matches the report schema (a stored report read back: history, diff, dashboard). */
export function isValidReport(report: unknown): report is Report {
  return validateReportSchema(report);
}

/** Throws RgateError('internal') naming the JSON paths when a value does not match the report schema. */
export function assertValidReport(report: unknown, where = 'report'): asserts report is Report {
  if (validateReportSchema(report)) return;
  const lines = formatAjvErrors(validateReportSchema.errors);
  throw new RgateError(
    'internal',
    `${where} does not match the report schema: ${lines.slice(0, 5).join('; ')}` +
      (lines.length > 5 ? ` (and ${lines.length - 5} more)` : ''),
    'the harness produced a report its own schema refuses; please report this',
  );
}
