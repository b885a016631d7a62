import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Ajv2020, ErrorObject, Options, ValidateFunction } from 'ajv/dist/2020.js';
import type formatsPlugin from 'ajv-formats';
import { RgateError } from '../core/errors.js';
import { ONE_WORD_PATTERN, PATTERNS_IN_WORDS } from '../documents/index.js';

const requireHere = createRequire(import.meta.url);

type AddFormats = (a: Ajv2020) => unknown;
type FormatsModule = typeof formatsPlugin & { default?: AddFormats };

/**
 * An ajv instance as rgate validates with (JSON Schema 2020-12, all errors, strict, formats); the
 * build (scripts/write-validators.mjs) generates the precompiled validators with the same options.
 * ajv is required here, not imported: a command whose validators are precompiled never loads it.
 */
export function createAjv(extra: Options = {}): Ajv2020 {
  const { Ajv2020: Ajv } = requireHere('ajv/dist/2020') as typeof import('ajv/dist/2020.js');
  // ajv-formats is CommonJS with its plugin as `default` as well as the module itself
  const formats = requireHere('ajv-formats') as FormatsModule;
  const a = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true, ...extra });
  ((formats.default ?? formats) as AddFormats)(a);
  return a;
}

/** One shared instance for the validators compiled at run time (see compileSchema). */
let shared: Ajv2020 | undefined;

/** The named schemas, in the order their modules declared them: what the build precompiles. */
const named = new Map<string, object>();

/**
 * Every schema declared with a name so far (scripts/write-validators.mjs imports src/contracts/ first).
 * @internal the build's, not the product's: it runs in scripts/write-validators.mjs
 */
export function namedSchemas(): ReadonlyMap<string, object> {
  return named;
}

/** What ties a precompiled validator to its schema: a stale one is not used (see loadValidator). */
export function schemaHash(schema: object): string {
  return createHash('sha256').update(JSON.stringify(schema)).digest('hex');
}

/** Where the build writes the precompiled validators, beside this module's compiled file. */
export function precompiledFile(name: string, dir = new URL('./precompiled/', import.meta.url)): URL {
  return new URL(`${name}.cjs`, dir);
}

/**
 * The validator of `schema`: the build's precompiled code (ajv standalone) when there is one for
 * this very schema, else compiled now. Compiling the report schema alone took ~0.1 s of every run.
 */
function loadValidator<T>(schema: object, name: string | undefined): ValidateFunction<T> {
  if (name !== undefined) {
    const file = precompiledFile(name);
    if (existsSync(file)) {
      const mod = requireHere(file.pathname) as ValidateFunction<T> & { schemaHash?: string };
      if (mod.schemaHash === schemaHash(schema)) return mod;
    }
  }
  shared ??= createAjv();
  // a document (a schema with a $id) another schema embeds is known to ajv once that one compiled:
  // compiling it again under the same id is refused, so it is taken from there
  const id = (schema as { $id?: unknown }).$id;
  const known = typeof id === 'string' ? shared.getSchema<T>(id) : undefined;
  if (!known) return shared.compile<T>(schema);
  if (known.schema === schema || JSON.stringify(known.schema) === JSON.stringify(schema)) return known;
  // another schema under a taken id (two copies of a module, one of them changed): ajv would refuse
  // it in the shared instance, so it gets one of its own
  return createAjv().compile<T>(schema);
}

/**
 * A validator loaded on its first use. Modules declare their validators at load time, and compiling
 * them all cost `rgate --help` a quarter of a second; a command now pays only for what it validates.
 * `name` (a file name: letters, digits, dashes) makes the build precompile it (see loadValidator);
 * a schema made at run time (a --set value's config node) goes without and is compiled on use.
 */
export function compileSchema<T>(schema: object, name?: string): ValidateFunction<T> {
  if (name !== undefined) {
    if (!/^[a-z0-9-]+$/.test(name) || (named.has(name) && named.get(name) !== schema)) {
      throw new Error(`compileSchema: validator name ${JSON.stringify(name)} is malformed or taken`);
    }
    named.set(name, schema);
  }
  let real: ValidateFunction<T> | undefined;
  const lazy = function (this: unknown, data: unknown): boolean {
    real ??= loadValidator<T>(schema, name);
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
    } else if (e.keyword === 'pattern' && PATTERNS_IN_WORDS.has((e.params as { pattern: string }).pattern)) {
      const pattern = (e.params as { pattern: string }).pattern;
      msg = `must match ${pattern} (${PATTERNS_IN_WORDS.get(pattern)})`;
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
