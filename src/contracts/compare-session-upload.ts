import { compileSchema, formatAjvErrors } from './ajv.js';
import { firstProblem } from './run-upload.js';
import { CompareSessionSchema, UPLOAD_RUN_ID_PATTERN, type CompareSession } from '../documents/index.js';

const validateSession = compileSchema<CompareSession>(CompareSessionSchema, 'compare-session-upload');
const URL_SEGMENT = new RegExp(UPLOAD_RUN_ID_PATTERN);

/** An uploaded comparison session checked: the document, or its first problem as `/json/path: message`. */
export type SessionUploadCheck =
  { ok: true; session: CompareSession } | { ok: false; path: string; message: string; more: number };

/**
 * Check a comparison session sent to `rgate server` (the document `rgate compare` stores, whole):
 * its schema, then what a page needs of it: an id a URL carries as one segment, variants that name
 * distinct runs (each becomes a link to that run), a reference that is one of them.
 */
export function checkSessionUpload(value: unknown): SessionUploadCheck {
  if (!validateSession(value)) return firstProblem(formatAjvErrors(validateSession.errors));
  const mismatch = (path: string, message: string): SessionUploadCheck => ({
    ok: false,
    path,
    message,
    more: 0,
  });
  const id = value.environment.session_id;
  if (!URL_SEGMENT.test(id)) {
    return mismatch('/environment/session_id', `must match ${UPLOAD_RUN_ID_PATTERN} (it is a URL segment)`);
  }
  const runs = new Set<string>();
  for (const [i, v] of value.variants.entries()) {
    if (!URL_SEGMENT.test(v.run_id))
      return mismatch(`/variants/${i}/run_id`, `must match ${UPLOAD_RUN_ID_PATTERN}`);
    if (runs.has(v.run_id))
      return mismatch(`/variants/${i}/run_id`, `repeats run ${JSON.stringify(v.run_id)}`);
    runs.add(v.run_id);
  }
  if (!value.variants.some((v) => v.id === value.reference)) {
    return mismatch('/reference', `is ${JSON.stringify(value.reference)}, which names no variant`);
  }
  return { ok: true, session: value };
}
