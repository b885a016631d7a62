/**
 * Canonical JSON: object keys sorted by code unit, no insignificant whitespace, strings with CRLF/CR
 * normalised to LF and trailing spaces/tabs before each line break removed. The same logical content
 * therefore gives the same bytes (and the same sha256 id) on every machine.
 * Example: canonicalJson({b: 1, a: 'x \r\n'}) === '{"a":"x\\n","b":1}'
 */
export function canonicalJson(value: unknown): string {
  return write(value, normalizeText);
}

/**
 * The JSON a fixture file stores: keys sorted by code unit and no insignificant whitespace, as
 * canonicalJson, but every string exactly as given (a query's CR, tab or trailing space is what the
 * team wrote and what its system receives). The file's id is still canonicalJson's (content-hash.ts
 * normalises while hashing), so storing text as written changes no snapshot id.
 * Example: storedJson({b: 1, a: 'x \r\n'}) === '{"a":"x \\r\\n","b":1}'
 */
export function storedJson(value: unknown): string {
  return write(value, (s) => s);
}

export function normalizeText(s: string): string {
  // Most strings contain spaces but no CR and no space before a line break: leave them untouched.
  if (!/\r|[ \t](?:\n|$)/.test(s)) return s;
  return s.replace(/\r\n?/g, '\n').replace(/[ \t]+(?=\n|$)/g, '');
}

function write(v: unknown, text: (s: string) => string): string {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string':
      return JSON.stringify(text(v));
    case 'number':
      if (!Number.isFinite(v)) throw new TypeError(`canonical JSON cannot encode ${v}`);
      return JSON.stringify(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'object': {
      if (Array.isArray(v))
        return '[' + v.map((x) => (x === undefined ? 'null' : write(x, text))).join(',') + ']';
      const obj = v as Record<string, unknown>;
      const keys = Object.keys(obj)
        .filter((k) => obj[k] !== undefined)
        .sort(compareCodeUnits);
      return '{' + keys.map((k) => JSON.stringify(k) + ':' + write(obj[k], text)).join(',') + '}';
    }
    default:
      throw new TypeError(`canonical JSON cannot encode a ${typeof v}`);
  }
}

/** Total order on strings by UTF-16 code units (locale-independent). */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The canonical form of one JSON text as written (a JSONL line): keys sorted by code unit and JSON's
 * insignificant whitespace dropped, but every number and string kept as it was spelled, so `1.0`
 * and `1`, or `"\u0061"` and `"a"`, stay different content. Only strings that normalizeText would
 * change (CR, spaces before a line break) are re-encoded. `text` must already be valid JSON (the
 * caller has JSON.parse'd it); a key that appears twice in one object is refused, since JSON.parse
 * would silently keep the last one and the first could then change without changing the hash.
 * Example: canonicalJsonText('{ "b": 1.0, "a": "x" }') === '{"a":"x","b":1.0}'
 */
export function canonicalJsonText(text: string): string {
  const s = new LexemeWriter(text);
  const out = s.value();
  s.ws();
  if (s.i !== text.length) throw new SyntaxError(`unexpected text at position ${s.i}`);
  return out;
}

class LexemeWriter {
  i = 0;
  constructor(private readonly t: string) {}

  ws(): void {
    const t = this.t;
    let c = t.charCodeAt(this.i);
    while (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) c = t.charCodeAt(++this.i);
  }

  value(): string {
    this.ws();
    const c = this.t.charCodeAt(this.i);
    if (c === 0x7b) return this.object();
    if (c === 0x5b) return this.array();
    if (c === 0x22) {
      const { raw, decoded } = this.string();
      return decoded === normalizeText(decoded) ? raw : JSON.stringify(normalizeText(decoded));
    }
    return this.atom();
  }

  private object(): string {
    this.i++; // {
    const members: { key: string; text: string }[] = [];
    const seen = new Set<string>();
    this.ws();
    if (this.t.charCodeAt(this.i) === 0x7d) {
      this.i++;
      return '{}';
    }
    for (;;) {
      this.ws();
      const start = this.i;
      const { raw, decoded } = this.string();
      if (seen.has(decoded)) throw new SyntaxError(`duplicate key ${raw} at position ${start}`);
      seen.add(decoded);
      this.ws();
      this.i++; // :
      members.push({ key: decoded, text: raw + ':' + this.value() });
      this.ws();
      if (this.t.charCodeAt(this.i++) === 0x7d) break; // } (else ,)
    }
    members.sort((a, b) => compareCodeUnits(a.key, b.key));
    return '{' + members.map((m) => m.text).join(',') + '}';
  }

  private array(): string {
    this.i++; // [
    this.ws();
    if (this.t.charCodeAt(this.i) === 0x5d) {
      this.i++;
      return '[]';
    }
    const items: string[] = [];
    for (;;) {
      items.push(this.value());
      this.ws();
      if (this.t.charCodeAt(this.i++) === 0x5d) break; // ] (else ,)
    }
    return '[' + items.join(',') + ']';
  }

  private string(): { raw: string; decoded: string } {
    const t = this.t;
    const start = this.i++;
    let escaped = false;
    for (;;) {
      const c = t.charCodeAt(this.i++);
      if (c === 0x5c) {
        escaped = true;
        this.i++;
      } else if (c === 0x22) break;
    }
    const raw = t.slice(start, this.i);
    return { raw, decoded: escaped ? (JSON.parse(raw) as string) : raw.slice(1, -1) };
  }

  /** number, true, false, null: everything up to the next delimiter, as written */
  private atom(): string {
    const t = this.t;
    const start = this.i;
    for (;;) {
      const c = t.charCodeAt(this.i);
      if (Number.isNaN(c) || c === 0x2c || c === 0x5d || c === 0x7d || c <= 0x20) break;
      this.i++;
    }
    return t.slice(start, this.i);
  }
}
