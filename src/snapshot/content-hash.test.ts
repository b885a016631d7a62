import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../core/canonical-json.js';
import { sha256 } from '../core/hash.js';
import { firstInvalidUtf8 } from '../core/utf8.js';
import { hashJsonlFile, sha256FileSync } from './content-hash.js';

const dir = mkdtempSync(join(tmpdir(), 'rgate-hash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
function hashOf(text: string | Buffer): string {
  const p = join(dir, `f${n++}.jsonl`);
  writeFileSync(p, text);
  return hashJsonlFile(p, 'f.jsonl').sha256;
}

describe('hashJsonlFile (canonical content, one stream)', () => {
  const base = hashOf('{"id":"a","text":"x y"}\n{"id":"b","text":"z"}\n');

  it('ignores key order, CRLF, blank lines and trailing whitespace; refuses a BOM by name', () => {
    expect(hashOf('{"text":"x y","id":"a"}\r\n\r\n{ "text" : "z", "id":"b" }  \t\r\n')).toBe(base);
    expect(() => hashOf('\uFEFF{"id":"a","text":"x y"}\n')).toThrow(
      'f.jsonl:1: starts with a UTF-8 byte order mark',
    );
    expect(hashOf('{"id":"a","text":"x y"}\n{"id":"b","text":"z"}')).toBe(base);
    expect(hashOf('{"id":"a","text":"x \\r\\ny"}\n{"id":"b","text":"z"}\n')).not.toBe(base);
    // CRLF inside a string value is normalised too (canonicalJson)
    expect(hashOf('{"id":"a","text":"p\\r\\nq"}\n')).toBe(hashOf('{"id":"a","text":"p\\nq"}\n'));
    expect(hashOf('{"id":"a","text":"p  \\nq"}\n')).toBe(hashOf('{"id":"a","text":"p\\nq"}\n'));
  });

  it('changes with any content change, including line order', () => {
    expect(hashOf('{"id":"a","text":"x y"}\n{"id":"b","text":"Z"}\n')).not.toBe(base);
    expect(hashOf('{"id":"b","text":"z"}\n{"id":"a","text":"x y"}\n')).not.toBe(base);
    expect(hashOf('{"id":"a","text":"x y"}\n')).not.toBe(base);
  });

  it('is the sha256 of the canonical lines, whatever the chunking (multi-byte text across 4 MiB chunks)', () => {
    const rows = Array.from({ length: 9000 }, (_, i) => ({
      id: `d${i}`,
      text: 'Grüße, 日本語 — ' + 'x'.repeat(i % 997),
    }));
    const text = rows.map((r) => JSON.stringify(r)).join('\r\n');
    expect(Buffer.byteLength(text)).toBeGreaterThan(4 << 20);
    expect(hashOf(text)).toBe(sha256(rows.map((r) => canonicalJson(r) + '\n').join('')));
  });

  it('property: reformatting a record never changes the hash', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ minLength: 1 }), fc.oneof(fc.string(), fc.integer(), fc.boolean())),
        (o) => {
          const a = hashOf(JSON.stringify(o) + '\n');
          const b = hashOf(
            JSON.stringify(Object.fromEntries(Object.entries(o).reverse()), null, 0) + ' \r\n',
          );
          expect(b).toBe(a);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('trusts a known canonical hash only when the raw bytes match (records are still parsed)', () => {
    const p = join(dir, 'known.jsonl');
    writeFileSync(p, '{"id":"a","text":"x"}\n');
    const real = hashJsonlFile(p, 'k').sha256;
    const fake = `sha256:${'0'.repeat(64)}` as const;
    const seen: unknown[] = [];
    const r = hashJsonlFile(p, 'k', (v) => seen.push(v), { raw: sha256FileSync(p), canonical: fake });
    expect(r.sha256).toBe(fake);
    expect(seen).toEqual([{ id: 'a', text: 'x' }]);
    expect(hashJsonlFile(p, 'k', undefined, { raw: sha256(''), canonical: fake }).sha256).toBe(real);
  });

  it('names file and line of a broken or non-object line', () => {
    expect(() => hashOf('{"a":1}\n\n{oops}\n')).toThrow(/^f\.jsonl:3: not valid JSON/);
    expect(() => hashOf('{"a":1}\n[1,2]\n')).toThrow('f.jsonl:2 /: must be object');
    expect(() => hashOf('{"a":1}\n\u000b')).toThrow(/^f\.jsonl:2: not valid JSON/);
  });

  it('refuses invalid UTF-8, naming file, line and byte offset (a decoder would make every bad byte U+FFFD)', () => {
    const good = Buffer.from('{"id":"a","text":"x"}\n{"id":"b","text":"\u00e9t\u00e9"}\n', 'utf8');
    const at = good.indexOf(0x78); // the x of line 1
    for (const bad of [0xff, 0xfe, 0xc0, 0x80]) {
      const b = Buffer.from(good);
      b[at] = bad;
      expect(() => hashOf(b)).toThrow(
        `f.jsonl:1: not valid UTF-8 (byte 0x${bad.toString(16)} at byte offset ${at} of the file)`,
      );
    }
    const line2 = Buffer.concat([good, Buffer.from([0x7b, 0xed, 0xa0, 0x80, 0x7d, 0x0a])]); // a UTF-8-encoded surrogate
    expect(() => hashOf(line2)).toThrow(
      `f.jsonl:3: not valid UTF-8 (byte 0xed at byte offset ${good.length + 1} of the file)`,
    );
    expect(firstInvalidUtf8(Buffer.from([0xf0, 0x9f, 0x98]))).toBe(0); // truncated 4-byte sequence
    expect(firstInvalidUtf8(Buffer.from('Grüße 日本 😀', 'utf8'))).toBe(-1);
    expect(firstInvalidUtf8(Buffer.from([0x41, 0xe0, 0x80, 0x80]))).toBe(1); // overlong
  });

  it('hashes numbers and strings as spelled, and refuses a key given twice', () => {
    expect(hashOf('{"id":"a","n":1}\n')).not.toBe(hashOf('{"id":"a","n":1.0}\n'));
    expect(hashOf('{"id":"a","t":"a"}\n')).not.toBe(hashOf('{"id":"a","t":"\\u0061"}\n'));
    expect(hashOf('{"id":"a","n":[1, 2, {"b":1,"a":2}]}\n')).toBe(
      hashOf('{"n":[1,2,{"a":2,"b":1}],"id":"a"}\n'),
    );
    expect(() => hashOf('{"id":"a"}\n{"id":"b","t":1,"t":2}\n')).toThrow(
      'f.jsonl:2: duplicate key "t" at position 16',
    );
  });

  it('property: two files that differ in one byte never share an id, unless the difference is forgiven', () => {
    const scalar = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 12 }),
      fc.string({ maxLength: 6 }),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null),
    );
    const value = fc.oneof(
      scalar,
      fc.array(scalar, { maxLength: 4 }),
      fc.dictionary(fc.string({ maxLength: 5 }), scalar, { maxKeys: 3 }),
    );
    const record = fc.record({
      id: fc.string({ minLength: 1, maxLength: 8 }),
      text: fc.string({ unit: 'grapheme', maxLength: 30 }),
      extra: value,
    });
    const anyByte = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0x20, max: 0x7e }));
    const trailing = new Set([0x0a, 0x20, 0x09, 0x0d]);
    let tried = 0;
    let refused = 0;
    const hashOrRefused = (b: Buffer): string | undefined => {
      try {
        return hashOf(b);
      } catch (e) {
        expect((e as { code?: string }).code).toBe('input_invalid');
        return undefined;
      }
    };
    fc.assert(
      fc.property(
        fc.array(record, { minLength: 1, maxLength: 4 }),
        fc.nat(),
        // often no first byte: the original one stays, so a changed file is compared with the original
        fc.option(anyByte, { freq: 3 }),
        anyByte,
        (rows, where, first, second) => {
          const file = Buffer.from(rows.map((r) => canonicalJson(r) + '\n').join(''), 'utf8');
          const pos = where % file.length;
          const b1 = first ?? file[pos]!;
          fc.pre(b1 !== second);
          // forgiven: the file's last newline against trailing whitespace (space, tab, CR)
          fc.pre(!(pos === file.length - 1 && trailing.has(b1) && trailing.has(second)));
          const x = Buffer.from(file);
          const y = Buffer.from(file);
          x[pos] = b1;
          y[pos] = second;
          tried++;
          const hx = hashOrRefused(x);
          const hy = hashOrRefused(y);
          if (hx === undefined || hy === undefined) refused++;
          else expect(hy).not.toBe(hx);
        },
      ),
      { numRuns: 500, seed: 20261123 },
    );
    console.log(
      `content-hash property: ${tried} pairs of one-byte-apart files, ${refused} with a file refused, ${tried - refused} hashed apart`,
    );
    expect(tried - refused).toBeGreaterThan(60);
  });
});
