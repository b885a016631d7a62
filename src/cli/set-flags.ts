import { compileSchema } from '../contracts/ajv.js';
import { editDistance } from '../core/edit-distance.js';
import { RgateError } from '../core/errors.js';
import { PartialConfigSchema, type PartialConfig } from '../documents/index.js';

/**
 * `--set key=value` flags into a nested config override: dotted keys nest (`bm25.k1=1.2`); values
 * parse as JSON when they can (numbers, booleans, arrays) and stay strings otherwise. Every key and
 * value is checked against the config schema first, so a typo is refused instead of running a
 * variant that silently changes nothing (`system.params.*` is the system's own and free-form).
 */
export function parseSetFlags(flags: readonly string[]): PartialConfig {
  const out: Record<string, unknown> = {};
  for (const f of flags) {
    const eq = f.indexOf('=');
    if (eq <= 0)
      throw new RgateError(
        'usage',
        `--set ${f}: expected key=value`,
        'for example --set weighting_mode=uniform',
      );
    const key = f.slice(0, eq);
    const raw = f.slice(eq + 1);
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      /* a bare string */
    }
    checkSetting(key, value, `--set ${f}`);
    const path = key.split('.');
    let node = out;
    for (const k of path.slice(0, -1)) {
      const next = node[k];
      node = (typeof next === 'object' && next !== null ? next : (node[k] = {})) as Record<string, unknown>;
    }
    node[path[path.length - 1]!] = value;
  }
  return out as PartialConfig;
}

interface SchemaNode {
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  additionalProperties?: unknown;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  format?: string;
  /** a pattern-constrained string says what it matches in words here (RankedEntriesSchema) */
  pattern?: string;
  description?: string;
  examples?: unknown[];
  items?: SchemaNode;
  anyOf?: SchemaNode[];
}

const ROOT = PartialConfigSchema as unknown as SchemaNode;
/** keys a --set may not name: `$schema` is for editors, not a setting */
const NOT_SETTINGS = new Set(['$schema']);

/** Every key path of the config schema, objects and leaves: `bm25`, `bm25.k1`, `system.params`... */
function configKeyPaths(node: SchemaNode = ROOT, prefix = ''): string[] {
  const out: string[] = [];
  for (const k of Object.keys(node.properties ?? {}).sort()) {
    if (!prefix && NOT_SETTINGS.has(k)) continue;
    const path = prefix ? `${prefix}.${k}` : k;
    out.push(path, ...configKeyPaths(node.properties![k]!, path));
  }
  return out;
}

/** An object that takes any keys (a system's `params`): below it, every key is the system's own. */
function freeForm(node: SchemaNode): boolean {
  return node.type === 'object' && node.properties === undefined && node.additionalProperties !== false;
}

/** The schema a dotted key names, or undefined with the deepest known prefix. */
function lookup(key: string): { node?: SchemaNode; known: string } {
  let node = ROOT;
  const parts = key.split('.');
  for (let i = 0; i < parts.length; i++) {
    if (freeForm(node)) return { node: {}, known: parts.slice(0, i).join('.') };
    const part = parts[i]!;
    const next =
      part !== '' && !(i === 0 && NOT_SETTINGS.has(part)) && Object.hasOwn(node.properties ?? {}, part)
        ? node.properties![part]
        : undefined;
    if (!next) return { known: parts.slice(0, i).join('.') };
    node = next;
  }
  return { node, known: key };
}

/**
 * The valid key closest to a mistyped one: by edit distance over whole key paths, or over the last
 * segment (+0.5) so `k1` finds `bm25.k1` before `k`; ties go to the shorter, then code-unit order.
 */
export function closestConfigKey(key: string): string {
  // a known first part narrows the search to its own keys: `system.mode` is meant under `system`
  const { known } = lookup(key);
  const all = configKeyPaths();
  const inside = known ? all.filter((p) => p.startsWith(`${known}.`)) : all;
  let best = '';
  let bestScore = Infinity;
  for (const path of inside.length ? inside : all) {
    const leaf = path.slice(path.lastIndexOf('.') + 1);
    const score = Math.min(editDistance(key, path), editDistance(key, leaf) + 0.5);
    if (
      score < bestScore ||
      (score === bestScore && (path.length < best.length || (path.length === best.length && path < best)))
    ) {
      best = path;
      bestScore = score;
    }
  }
  // under a free-form object the rest of the key is fine as typed: `system.mode` -> `system.params.mode`
  const node = lookup(best).node;
  if (node && freeForm(node) && known) return `${best}.${key.slice(known.length + 1)}`;
  return best;
}

/** "a number >= 0", "one of "uniform", "evidence_outcome_bias"", "an ISO-8601 date-time string"... */
function expectedText(node: SchemaNode): string {
  if (node.enum) return `one of ${node.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  // "a string" would not say what is wrong with the string given: the pattern's meaning does
  if (node.pattern !== undefined) return node.description ?? `a string matching /${node.pattern}/`;
  if (node.anyOf) return [...new Set(node.anyOf.map(expectedText))].join(', or ');
  const types = Array.isArray(node.type) ? node.type : node.type ? [node.type] : [];
  const bounds: string[] = [];
  if (node.minimum !== undefined) bounds.push(`>= ${node.minimum}`);
  if (node.exclusiveMinimum !== undefined) bounds.push(`> ${node.exclusiveMinimum}`);
  if (node.maximum !== undefined) bounds.push(`<= ${node.maximum}`);
  const article = (t: string) => (/^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`);
  const name = (t: string): string => {
    if (t === 'string' && node.format === 'date-time') return 'an ISO-8601 date-time string';
    if (t === 'string' && node.minLength) return 'a non-empty string';
    if (t === 'array' && node.items) return `an array of ${expectedText(node.items).replace(/^an? /, '')}s`;
    if (t === 'object' && node.properties)
      return `an object with ${Object.keys(node.properties).sort().join(', ')}`;
    return article(t);
  };
  const what = types.length ? types.map(name).join(' or ') : 'any JSON value';
  return bounds.length ? `${what} ${bounds.join(' and ')}` : what;
}

function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `the array ${JSON.stringify(v)}`;
  if (typeof v === 'object') return `the object ${JSON.stringify(v)}`;
  return `the ${typeof v} ${JSON.stringify(v)}`;
}

const validators = new Map<SchemaNode, ReturnType<typeof compileSchema>>();

/**
 * Refuse a setting the config schema does not have (exit 2, with the closest valid key) or a value
 * of the wrong type (exit 2, naming the expected type). `flag` is what the user typed, for the message.
 * Example: checkSetting('semantic.confidence_mn', 0.1, '--set semantic.confidence_mn=0.1') throws
 * "... did you mean semantic.confidence_min?"
 */
export function checkSetting(key: string, value: unknown, flag: string): void {
  const { node, known } = lookup(key);
  if (!node) {
    const near = closestConfigKey(key);
    const under = known ? lookup(known).node : ROOT;
    const siblings = Object.keys(under?.properties ?? {})
      .filter((k) => known || !NOT_SETTINGS.has(k))
      .sort()
      .map((k) => (known ? `${known}.${k}` : k));
    throw new RgateError(
      'usage',
      `${flag}: unknown config key "${key}"; did you mean ${near}?`,
      `${known ? `keys under ${known}` : 'config keys'}: ${siblings.join(', ')}; a system's own settings go under system.params.<key>`,
    );
  }
  if (Object.keys(node).length === 0) return; // free-form (system.params.*): the system's own value
  let validate = validators.get(node);
  if (!validate) validators.set(node, (validate = compileSchema(node)));
  if (!validate(value)) {
    throw new RgateError(
      'usage',
      `${flag}: ${key} expects ${expectedText(node)}, got ${describeValue(value)}`,
      `for example --set ${key}=${exampleOf(node)}`,
    );
  }
}

function exampleOf(node: SchemaNode): string {
  if (node.enum) return String(node.enum[0]);
  if (node.examples?.length) return String(node.examples[0]);
  if (node.anyOf?.[0]) return exampleOf(node.anyOf[0]);
  const t = Array.isArray(node.type) ? node.type[0] : node.type;
  if (t === 'boolean') return 'true';
  if (t === 'integer') return String(Math.max(1, node.minimum ?? 1));
  if (t === 'number') return String(node.maximum !== undefined ? node.maximum / 2 : (node.minimum ?? 0) + 1);
  if (t === 'array') return '\'["a","b"]\'';
  if (t === 'object') return `'{"${Object.keys(node.properties ?? { key: 1 })[0]}":...}'`;
  if (node.format === 'date-time') return '2026-01-01T00:00:00Z';
  return 'value';
}
