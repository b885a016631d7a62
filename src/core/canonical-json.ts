/**
 * Canonical JSON: object keys sorted by code unit, no insignificant whitespace, strings with CRLF/CR
 * normalised to LF and trailing spaces/tabs before each line break removed. The same logical content
 * therefore gives the same bytes (and the same sha256 id) on every machine.
 * Example: canonicalJson({b: 1, a: 'x \r\n'}) === '{"a":"x\\n","b":1}'
 */
export function canonicalJson(value: unknown): string {
  return write(value);
}

export function normalizeText(s: string): string {
  // Most strings contain spaces but no CR and no space before a line break: leave them untouched.
  if (!/\r|[ \t](?:\n|$)/.test(s)) return s;
  return s.replace(/\r\n?/g, '\n').replace(/[ \t]+(?=\n|$)/g, '');
}

function write(v: unknown): string {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string':
      return JSON.stringify(normalizeText(v));
    case 'number':
      if (!Number.isFinite(v)) throw new TypeError(`canonical JSON cannot encode ${v}`);
      return JSON.stringify(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'object': {
      if (Array.isArray(v)) return '[' + v.map((x) => (x === undefined ? 'null' : write(x))).join(',') + ']';
      const obj = v as Record<string, unknown>;
      const keys = Object.keys(obj)
        .filter((k) => obj[k] !== undefined)
        .sort(compareCodeUnits);
      return '{' + keys.map((k) => JSON.stringify(k) + ':' + write(obj[k])).join(',') + '}';
    }
    default:
      throw new TypeError(`canonical JSON cannot encode a ${typeof v}`);
  }
}

/** Total order on strings by UTF-16 code units (locale-independent). */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
