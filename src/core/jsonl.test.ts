import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonl, parseJsonText, readJsonFile, readTextFile } from './jsonl.js';

describe('parseJsonl', () => {
  it('numbers lines from 1 and skips blanks and CRLF', () => {
    const lines = parseJsonl('{"a":1}\r\n\r\n{"a":2}\n', 'x.jsonl');
    expect(lines).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 3, value: { a: 2 } },
    ]);
  });
  it('names the file and line of a broken line', () => {
    expect(() => parseJsonl('{"a":1}\n{oops}\n', 'q.jsonl')).toThrow(/^q\.jsonl:2: not valid JSON/);
  });
  it('refuses a BOM by name instead of skipping it unseen', () => {
    expect(() => parseJsonl('\uFEFF{"a":1}\n', 'q.jsonl')).toThrow(
      'q.jsonl:1: starts with a UTF-8 byte order mark (bytes EF BB BF)',
    );
  });
});

describe('readJsonFile / parseJsonText', () => {
  it('refuses a BOM by name and places a syntax error at line:column', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rgate-json-'));
    const p = join(dir, 'shard.json');
    writeFileSync(p, '\uFEFF{"a": 1}\n');
    expect(() => readJsonFile(p)).toThrow('shard.json:1: starts with a UTF-8 byte order mark');
    writeFileSync(p, '{\n  "a": 1,\n  b: 2\n}\n');
    expect(() => readJsonFile(p)).toThrow(/^shard\.json:3:3: not valid JSON/);
    expect(() => parseJsonText('{\n"a":', 'x.json')).toThrow(/^x\.json:2:5: not valid JSON/);
    // JSON.parse gives no position here: the caller's locator does
    expect(() => parseJsonText('[1,\n]', 'x.json', { locate: () => 4 })).toThrow(/^x\.json:2:1: not valid/);
    rmSync(dir, { recursive: true });
  });
});

describe('readTextFile', () => {
  it('refuses invalid UTF-8 with the line and byte offset, instead of reading U+FFFD', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rgate-utf8-'));
    const p = join(dir, 'config.json');
    writeFileSync(
      p,
      Buffer.concat([Buffer.from('{\n  "k": "caf'), Buffer.from([0xe9]), Buffer.from('"\n}\n')]),
    );
    expect(() => readTextFile(p)).toThrow(
      `${p}:2: not valid UTF-8 (byte 0xe9 at byte offset 13 of the file)`,
    );
    writeFileSync(p, '{\n  "k": "café"\n}\n');
    expect(readTextFile(p)).toBe('{\n  "k": "café"\n}\n');
    rmSync(dir, { recursive: true });
  });
});
