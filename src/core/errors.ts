/** Exit codes (DESIGN.md): 0 PASS/WATCH, 1 FAIL, 2 usage or input error, 3 system-under-test or internal error. */
export const EXIT = { ok: 0, gateFail: 1, usage: 2, internal: 3 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Error codes a user can act on map to exit 2; the rest are internal (exit 3). */
export type RgateErrorCode =
  | 'usage'
  | 'input_invalid'
  | 'file_not_found'
  | 'freeze_mismatch'
  | 'freeze_violation'
  | 'config_invalid'
  | 'gate_invalid'
  | 'sut_error'
  | 'internal';

/**
 * The one error type for mistakes a user can fix: printed as a message and a hint, never a stack.
 * Example: `throw new RgateError('input_invalid', 'queries.jsonl:17 /qrels/doc-3: must be integer', 'grades are integers')`
 */
export class RgateError extends Error {
  readonly code: RgateErrorCode;
  readonly hint: string | undefined;
  /**
   * Where in the document being checked the mistake is, as a JSON path without its leading slash
   * (`system/argv/2`, `gate`), when the thrower knows. A caller that knows the document's own place
   * (a suite inside rgate.config.json) prefixes it, so nobody reads the place back out of the message.
   */
  readonly at: string | undefined;
  constructor(code: RgateErrorCode, message: string, hint?: string, place?: { at: string }) {
    super(message);
    this.name = 'RgateError';
    this.code = code;
    this.hint = hint;
    this.at = place?.at;
  }

  get exitCode(): ExitCode {
    return this.code === 'sut_error' || this.code === 'internal' ? EXIT.internal : EXIT.usage;
  }
}

/**
 * Marks an RgateError across copies of this module: the CLI's front is bundled (program-bundle.cjs)
 * with its own copy, while the command modules it loads throw the ES module's class.
 */
const BRAND = Symbol.for('rgate.RgateError');
Object.defineProperty(RgateError.prototype, BRAND, { value: true });

export function isRgateError(e: unknown): e is RgateError {
  return (
    e instanceof RgateError ||
    (typeof e === 'object' && e !== null && (e as { [BRAND]?: unknown })[BRAND] === true)
  );
}

/**
 * A file that cannot be read for a reason the user can fix (missing, a folder, no permission), as an
 * input error naming it; anything else is returned as it was, to be reported as internal.
 */
export function fileProblem(path: string, e: unknown): unknown {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new RgateError('file_not_found', `${path}: no such file`, 'check the path');
  if (code === 'EISDIR') return new RgateError('input_invalid', `${path}: is a directory, expected a file`);
  if (code === 'EACCES' || code === 'EPERM')
    return new RgateError('input_invalid', `${path}: permission denied`, 'check the file permissions');
  return e;
}

/** `e` with its place set to `at` when it is an RgateError that does not know its place yet. */
export function placed(at: string, e: unknown): unknown {
  return isRgateError(e) && e.at === undefined ? new RgateError(e.code, e.message, e.hint, { at }) : e;
}
