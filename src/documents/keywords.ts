/**
 * Builders for the JSON Schema keywords rgate's schemas are written with. TypeBox's own builders
 * would state some of them differently (a union of literals as `anyOf`, a literal with an added
 * `type`, a record as `patternProperties`, a tuple as draft-07 `items`), and ajv words its errors
 * after the schema: `must be one of "a", "b"` is what users read today, not `must match a schema in
 * anyOf`. So these emit exactly the keywords written and carry the TypeScript type alongside.
 */
import {
  Type,
  type ObjectOptions,
  type Static,
  type TObject,
  type TProperties,
  type TSchema,
  type TUnsafe,
} from '@sinclair/typebox';

/**
 * The pattern of an id that ends up in a TREC file (a document id, a query id): one word, as TREC
 * qrels and run lines are split on whitespace. ajv's message for it is reworded in src/contracts.
 */
export const ONE_WORD_PATTERN = '^\\S+$';

/** A non-empty id with no whitespace (see ONE_WORD_PATTERN). */
export function OneWordId(): TUnsafe<string> {
  return Type.Unsafe<string>({ type: 'string', minLength: 1, pattern: ONE_WORD_PATTERN });
}

/** An object that refuses fields it does not declare (every rgate document is one). */
export function Closed<T extends TProperties>(properties: T, options: ObjectOptions = {}): TObject<T> {
  return Type.Object(properties, { additionalProperties: false, ...options });
}

/** `{"enum": [...]}`; the list stays the one the caller exports, copied so a schema edit cannot reach it. */
export function StringEnum<const T extends readonly string[]>(values: T): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ enum: [...values] });
}

/** `{"const": value}`, without the `type` a TypeBox literal adds. */
export function Const<const T extends string | boolean>(value: T): TUnsafe<T> {
  return Type.Unsafe<T>({ const: value });
}

/** A schema's JSON keywords, without TypeBox's symbol-keyed bookkeeping. */
function keywordsOf(schema: TSchema): Record<string, unknown> {
  return Object.fromEntries(Object.entries(schema));
}

/**
 * The same schema that also admits null: `"type": [t, "null"]` or a null in its `enum`, never an
 * `anyOf`, except for a whole document (one with a `$id`): a widened copy would claim the document's
 * id with other content (ajv, meeting both, refuses the id as ambiguous), so it is kept as it is, in
 * an `anyOf` with null.
 */
export function OrNull<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  if (typeof schema.$id === 'string')
    return Type.Unsafe<Static<T> | null>({ anyOf: [schema, { type: 'null' }] });
  const { type, enum: values, ...keywords } = keywordsOf(schema);
  if (typeof type === 'string') return Type.Unsafe<Static<T> | null>({ ...keywords, type: [type, 'null'] });
  if (Array.isArray(values)) return Type.Unsafe<Static<T> | null>({ ...keywords, enum: [...values, null] });
  throw new Error(`OrNull: a schema with one type or an enum, not ${JSON.stringify(schema)}`);
}

/** Exactly two items, `[a, b]` (2020-12 `prefixItems`). */
export function Pair<T extends TSchema>(item: T): TUnsafe<[Static<T>, Static<T>]> {
  return Type.Unsafe<[Static<T>, Static<T>]>({
    type: 'array',
    prefixItems: [item, item],
    minItems: 2,
    maxItems: 2,
  });
}

/** An object used as a map: any key, every value `value` (`additionalProperties`, not `patternProperties`). */
export function StringMap<T extends TSchema>(
  value: T,
  options: { propertyNames?: object } = {},
): TUnsafe<Record<string, Static<T>>> {
  return Type.Unsafe<Record<string, Static<T>>>({ type: 'object', ...options, additionalProperties: value });
}

/** Any JSON object, kept as it came (e.g. BEIR's per-document `metadata`). */
export function AnyObject(): TUnsafe<Record<string, unknown>> {
  return Type.Unsafe<Record<string, unknown>>({ type: 'object' });
}

/** `{"oneOf": [...]}`: exactly one branch, where TypeBox's union would say `anyOf`. */
export function OneOf<T extends TSchema[]>(schemas: [...T]): TUnsafe<Static<T[number]>> {
  return Type.Unsafe<Static<T[number]>>({ oneOf: schemas });
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/**
 * The schema as published: every part equal to one of `defs` is stated once under `$defs` and
 * referred to by `$ref` wherever it occurs. An equal schema validates alike, so the type stays.
 */
export function WithDefs<T extends TSchema>(schema: T, defs: Record<string, TSchema>): TUnsafe<Static<T>> {
  const names = new Map(Object.entries(defs).map(([name, def]) => [canonical(def), name]));
  const refer = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(refer);
    if (node === null || typeof node !== 'object') return node;
    const name = names.get(canonical(node));
    if (name !== undefined) return { $ref: `#/$defs/${name}` };
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, refer(v)]));
  };
  const { properties, ...keywords } = keywordsOf(schema);
  return Type.Unsafe<Static<T>>({ ...keywords, $defs: defs, properties: refer(properties) });
}
