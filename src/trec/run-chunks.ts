/**
 * A run file read in chunks of whole lines: each chunk handed to a parser ends just after a newline
 * (or at the end of the range), so no line is split between two calls and a blank line before a
 * chunk's end is counted like any other; and a sample of the file's first MiB to size a parser's
 * storage before it starts.
 */
import { readSync } from 'node:fs';
import { CR, NL, SP, TAB } from './bytes.js';

/** What feedRange hands the lines to (RunBuilder). */
export interface ChunkSink {
  /** Parse every line of buf[0, end); end follows a newline or is the end of the range. */
  feed(buf: Uint8Array, end: number): void;
}

/**
 * Regular files are read and parsed in chunks of this many bytes: the WebAssembly scanner (run-scan.ts)
 * needs about 7 times a chunk in memory, and at 2 MiB that is small enough to keep between chunks
 * (8 MiB chunks made a fresh instance, and fresh pages, for each one).
 */
export const READ_CHUNK_BYTES = 2 << 20;

/**
 * A RunBuilder's buffers when its results leave it chunk by chunk (streamRun, a segmented read):
 * entries and docno bytes for a chunk or two, reused (it grows past them when it must).
 */
export const CHUNK_ENTRIES = 1 << 17;
export const CHUNK_ARENA = 1 << 21;

/**
 * Feed the lines of file bytes [start, end) to a sink, `chunkBytes` at a time (a line longer than a
 * chunk doubles the buffer); start must be a line start, end must follow a newline or be EOF.
 */
export function feedRange(
  sink: ChunkSink,
  fd: number,
  start: number,
  end: number,
  chunkBytes = READ_CHUNK_BYTES,
): void {
  let buf = Buffer.allocUnsafe(Math.min(chunkBytes, Math.max(end - start, 1)));
  let have = 0;
  let pos = start;
  for (;;) {
    if (have === buf.length) {
      const bigger = Buffer.allocUnsafe(buf.length * 2); // a line longer than a chunk
      buf.copy(bigger, 0, 0, have);
      buf = bigger;
    }
    const want = Math.min(buf.length - have, end - pos);
    const got = want > 0 ? readSync(fd, buf, have, want, pos) : 0;
    pos += got;
    const total = have + got;
    if (got === 0) {
      if (total > 0) sink.feed(buf, total);
      return;
    }
    const lastNl = buf.lastIndexOf(NL, total - 1);
    if (lastNl < 0) {
      have = total;
      continue;
    }
    // through the newline: ending at it would leave out a blank line just before it (feed() counts
    // the lines that start before its end), and every later line number would be one short
    sink.feed(buf, lastNl + 1);
    have = total - (lastNl + 1);
    buf.copy(buf, 0, lastNl + 1, total);
  }
}

/** C isspace minus newline, as the run parser splits fields */
const BLANK = new Uint8Array(256);
for (const b of [SP, TAB, CR, 11, 12]) BLANK[b] = 1;
BLANK[NL] = 2;

/** The file's first MiB (what estimateRun and segmentsPay look at, read once for both). */
export function readSample(fd: number, size: number): Uint8Array {
  const sample = Buffer.allocUnsafe(Math.max(1, Math.min(1 << 20, size)));
  return sample.subarray(0, readSync(fd, sample, 0, sample.length, 0));
}

/** Bytes per line and docno bytes per file byte, from the file's first MiB. */
export function estimateRun(
  fd: number,
  size: number,
  sample: Uint8Array = readSample(fd, size),
): { bytesPerLine: number; docBytesPerByte: number } {
  const got = sample.length;
  let lines = 0;
  let docBytes = 0;
  let i = 0;
  while (i < got) {
    let field = 0;
    while (i < got && sample[i] !== NL) {
      while (i < got && BLANK[sample[i] as number] === 1) i++;
      const f = i;
      while (i < got && BLANK[sample[i] as number] === 0) i++;
      if (i > f && field++ === 2) docBytes += i - f;
    }
    if (i < got) lines++;
    i++;
  }
  const used = Math.max(1, Math.min(got, i));
  return {
    bytesPerLine: lines > 0 ? used / lines : 40,
    docBytesPerByte: Math.min(1, (docBytes + 1) / used),
  };
}
