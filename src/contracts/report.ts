/**
 * The run report's validator. The JSON renderer validates every report before returning it, and
 * `rgate report` validates a report file before re-rendering it, so a hand-edited or truncated
 * report is refused with the JSON path of the problem.
 */
import { compileSchema } from './ajv.js';
import { ReportSchema, type Report } from '../documents/index.js';

export const validateReportSchema = compileSchema<Report>(ReportSchema, 'report');
