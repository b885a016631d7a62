/**
 * JSON.stringify's text for data that holds one array object in many places (a trend page's twelve
 * charts share their labels and point styles: 1,000 entries each), each such array serialised once.
 * Plain objects and arrays are walked here; anything else (numbers, strings, a class instance, an
 * object with toJSON, which then sees no key) is handed to JSON.stringify whole, so the text is
 * JSON.stringify's, byte for byte.
 */
export function stringifySharingArrays(value: unknown): string {
  return walk(value, new Map()) ?? 'null';
}

function walk(value: unknown, seen: Map<unknown[], string>): string | undefined {
  if (Array.isArray(value)) {
    const known = seen.get(value);
    if (known !== undefined) return known;
    // an array of numbers and strings is serialised natively; one holding objects is walked
    const text = value.some((x) => typeof x === 'object' && x !== null)
      ? `[${value.map((x) => walk(x, seen) ?? 'null').join(',')}]`
      : JSON.stringify(value);
    seen.set(value, text);
    return text;
  }
  if (!isPlainObject(value)) return JSON.stringify(value);
  const parts: string[] = [];
  for (const key of Object.keys(value)) {
    // what JSON.stringify leaves out (undefined, a function, a symbol) is left out here too
    const text = walk(value[key], seen);
    if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || 'toJSON' in value) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
