/**
 * The run report's validator. The JSON renderer validates every report before returning it, and
 * `rgate report` validates a report file before re-rendering it, so a hand-edited or truncated
 * report is refused with the JSON path of the problem. A large run's report file is packed
 * (src/documents/packed-report.ts): readers pass what they parsed through `unpackedReport` first.
 */
import { compileSchema, formatAjvErrors } from './ajv.js';
import {
  PACKED_REPORT_SCHEMA_VERSION,
  PackedReportSchema,
  ReportSchema,
  type PackedReport,
  type Report,
} from '../documents/index.js';
import { RgateError } from '../core/errors.js';
import { unpackReport } from '../core/packed-report.js';

export const validateReportSchema = compileSchema<Report>(ReportSchema, 'report');
export const validatePackedReportSchema = compileSchema<PackedReport>(PackedReportSchema, 'report-packed');

/**
 * A parsed report file or stored report as the report it holds: a packed one is checked against its
 * schema (refused naming `where` and the JSON path) and unpacked; anything else is returned as it
 * is, for the caller's report check.
 */
export function unpackedReport(value: unknown, where = 'report'): unknown {
  const v = value as { schema_version?: unknown } | null;
  if (v === null || typeof v !== 'object' || v.schema_version !== PACKED_REPORT_SCHEMA_VERSION) return value;
  if (!validatePackedReportSchema(value)) {
    const lines = formatAjvErrors(validatePackedReportSchema.errors);
    throw new RgateError(
      'input_invalid',
      `${where} does not match the packed report schema: ${lines.slice(0, 5).join('; ')}` +
        (lines.length > 5 ? ` (and ${lines.length - 5} more)` : ''),
      'the file is not a report rgate wrote (or was edited by hand): run the suite again',
    );
  }
  return unpackReport(value);
}
