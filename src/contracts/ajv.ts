import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';
import { RgateError } from '../core/errors.js';
import { ONE_WORD_PATTERN } from '../documents/index.js';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
type AddFormats = (a: Ajv2020) => unknown;
const addFormats: AddFormats =
  (addFormatsImport as unknown as { default?: AddFormats }).default ??
  (addFormatsImport as unknown as AddFormats);

/** One shared ajv instance (JSON Schema 2020-12, all errors, formats) for every schema in rgate. */
let shared: Ajv2020 | undefined;
function ajv(): Ajv2020 {
  if (!shared) {
    shared = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
    addFormats(shared);
  }
  return shared;
}

/**
 * A validator compiled on its first use. Modules declare their validators at load time, and compiling
 * them all cost `rgate --help` a quarter of a second; a command now pays only for what it validates.
 */
export function compileSchema<T>(schema: object): ValidateFunction<T> {
  let real: ValidateFunction<T> | undefined;
  const lazy = function (this: unknown, data: unknown): boolean {
    real ??= ajv().compile<T>(schema);
    const ok = real.call(this, data);
    lazy.errors = real.errors;
    return ok;
  } as ValidateFunction<T>;
  lazy.errors = null;
  lazy.schema = schema;
  return lazy;
}

/** ajv errors as `/json/path: message` lines, most specific first, deterministic order. */
export function formatAjvErrors(errors: readonly ErrorObject[] | null | undefined): string[] {
  if (!errors) return [];
  const oneWordNames = new Set(
    errors
      .filter(
        (e) => e.keyword === 'pattern' && (e.params as { pattern?: string }).pattern === ONE_WORD_PATTERN,
      )
      .map((e) => e.instancePath),
  );
  const lines = errors.map((e) => {
    let path = e.instancePath || '/';
    let msg = e.message ?? 'is invalid';
    if (e.keyword === 'additionalProperties') {
      const extra = (e.params as { additionalProperty?: string }).additionalProperty;
      path = `${e.instancePath}/${extra}`;
      msg = 'is not a known field';
    } else if (e.keyword === 'enum') {
      msg = `must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    } else if (e.keyword === 'pattern' && (e.params as { pattern?: string }).pattern === ONE_WORD_PATTERN) {
      // an id that a TREC qrels or run line would split in two
      const name = (e as { propertyName?: string }).propertyName;
      if (name !== undefined) path = `${e.instancePath}/${JSON.stringify(name)}`;
      msg = 'must be one word (no spaces, tabs or newlines): TREC qrels and run lines split on whitespace';
    } else if (e.keyword === 'propertyNames' && oneWordNames.has(e.instancePath)) {
      return undefined; // said by the property name's own error (above)
    } else if (e.keyword === 'required') {
      path = `${e.instancePath}/${(e.params as { missingProperty: string }).missingProperty}`;
      msg = 'is required';
    }
    return `${path}: ${msg}`;
  });
  return [...new Set(lines.filter((l): l is string => l !== undefined))].sort((a, b) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
}

/**
 * Validate and throw one clear RgateError: `file:line /path: message` (the first error; the count of
 * the others follows). `where` names the file and, for JSONL, the 1-based line.
 */
export function validateOrThrow<T>(
  validate: ValidateFunction<T>,
  value: unknown,
  where: { file: string; line?: number },
  hint?: string,
): T {
  if (validate(value)) return value as T;
  const lines = formatAjvErrors(validate.errors);
  const loc = where.line !== undefined ? `${where.file}:${where.line}` : where.file;
  const more = lines.length > 1 ? ` (and ${lines.length - 1} more: ${lines.slice(1, 4).join('; ')})` : '';
  throw new RgateError('input_invalid', `${loc} ${lines[0] ?? 'is invalid'}${more}`, hint);
}
