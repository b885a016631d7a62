import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { estimateRun, feedRange } from './run-chunks.js';
import { RunBuilder } from './run-parse.js';

const dir = mkdtempSync(join(tmpdir(), 'rgate-run-chunks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function withFile<T>(name: string, text: string, f: (fd: number, size: number) => T): T {
  const path = join(dir, name);
  writeFileSync(path, text, 'latin1');
  const fd = openSync(path, 'r');
  try {
    return f(fd, Buffer.byteLength(text, 'latin1'));
  } finally {
    closeSync(fd);
  }
}

/** The chunks feedRange hands over, as text. */
function chunks(text: string, start: number, end: number, chunkBytes: number): string[] {
  return withFile(`c${chunkBytes}-${start}.txt`, text, (fd) => {
    const got: string[] = [];
    feedRange(
      { feed: (buf, e) => got.push(Buffer.from(buf.subarray(0, e)).toString('latin1')) },
      fd,
      start,
      end,
      chunkBytes,
    );
    return got;
  });
}

describe('feedRange', () => {
  const text = ['a 1', 'bb 22', 'ccc 333', 'dddd 4444', 'e 5'].join('\n') + '\n';

  it('hands over whole lines only, each chunk ending just after a newline, and all of them', () => {
    for (const size of [4, 8, 13, 64]) {
      const got = chunks(text, 0, text.length, size);
      // the chunks are the file's lines, in order, none split
      expect(got.join('')).toBe(text);
      for (const c of got) expect(c.endsWith('\n')).toBe(true);
    }
    expect(chunks(text, 0, text.length, 8).length).toBeGreaterThan(1);
  });

  it('grows its buffer for a line longer than a chunk', () => {
    const long = `${'x'.repeat(50)} Q0 d 1 2 r\nshort\n`;
    const first = long.slice(0, long.indexOf('\n') + 1);
    expect(chunks(long, 0, long.length, 8)).toEqual([first, 'short\n']);
  });

  it('reads only its byte range, and hands a last line without a newline over whole', () => {
    const from = text.indexOf('ccc');
    const to = text.indexOf('e 5');
    expect(chunks(text, from, to, 64)).toEqual(['ccc 333\ndddd 4444\n']);
    const open = 'a 1\nb 2';
    expect(chunks(open, 0, open.length, 64)).toEqual(['a 1\n', 'b 2']);
    expect(chunks('', 0, 0, 64)).toEqual([]);
  });

  it('counts a blank line just before a chunk boundary: later line numbers are the same at any chunk size', () => {
    // a chunk of 16 bytes ends right after the blank line (line 2)
    const run = 'q1 Q0 d1 1 1 r\n\nq1 Q0 d2 1 x r\n';
    for (const size of [15, 16, 17, 64]) {
      const message = withFile(`blank${size}.txt`, run, (fd, n) => {
        try {
          feedRange(new RunBuilder('run.txt', 0, 0), fd, 0, n, size);
        } catch (e) {
          return (e as Error).message;
        }
        return 'no error';
      });
      expect(message).toBe('run.txt:3: score "x" is not a number');
    }
  });
});

describe('estimateRun', () => {
  it('measures bytes per line and the docno share of the bytes from the file start', () => {
    const line = 'q1 Q0 DOC-1234 1 1.5 run\n'; // 25 bytes, docno 8
    const est = withFile('est.txt', line.repeat(100), (fd, size) => estimateRun(fd, size));
    expect(est.bytesPerLine).toBeCloseTo(25, 6);
    expect(est.docBytesPerByte).toBeCloseTo((800 + 1) / 2500, 6);
  });

  it('falls back to 40 bytes a line when the sample has no complete line', () => {
    const est = withFile('noline.txt', 'q1 Q0 D 1 2', (fd, size) => estimateRun(fd, size));
    expect(est.bytesPerLine).toBe(40);
  });
});
