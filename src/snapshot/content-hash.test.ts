import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../core/canonical-json.js';
import { sha256 } from '../core/hash.js';
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

  it('ignores key order, CRLF, BOM, blank lines and trailing whitespace', () => {
    expect(hashOf('\uFEFF{"text":"x y","id":"a"}\r\n\r\n{ "text" : "z", "id":"b" }  \t\r\n')).toBe(base);
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
});
