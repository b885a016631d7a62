/** Opening a TREC input (a file, `-` for stdin, or a pipe), and the error that names a bad line of one. */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import { fileProblem, RgateError } from '../core/errors.js';

/**
 * A regular file stays an open descriptor, read by position (and by two threads for a large run);
 * anything else (stdin, /dev/stdin, a pipe, process substitution) cannot be read by position, so it
 * is read whole into memory first.
 */
export type TrecInput =
  { kind: 'file'; fd: number; size: number; label: string } | { kind: 'bytes'; buf: Buffer; label: string };

/** The path that means standard input, as for trec_eval's scripts and most Unix tools. */
export const STDIN = '-';

/** How errors name an input: `stdin` for -, else the file's name (`run.txt:17: ...`). */
export function inputLabel(path: string): string {
  return path === STDIN ? 'stdin' : basename(path);
}

export function openInput(path: string): TrecInput {
  if (path === STDIN) return { kind: 'bytes', buf: readAll(0, 'stdin'), label: 'stdin' };
  const label = inputLabel(path);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    // Linux cannot open a socket through /dev/stdin or /dev/fd/N (ENXIO), and Node's child
    // processes get socket stdio: read the inherited descriptor itself
    const inherited = /^\/(?:dev\/stdin$|dev\/fd\/(\d+)$|proc\/self\/fd\/(\d+)$)/.exec(path);
    if (inherited && (e as NodeJS.ErrnoException).code === 'ENXIO') {
      return { kind: 'bytes', buf: readAll(Number(inherited[1] ?? inherited[2] ?? 0), label), label };
    }
    const problem = fileProblem(path, e);
    if (problem instanceof RgateError) throw problem;
    throw new RgateError('input_invalid', `${path}: cannot be opened (${(e as Error).message})`);
  }
  const st = fstatSync(fd);
  // a folder opens fine on Linux and fails only at the first read, as an internal EISDIR
  if (st.isDirectory()) {
    closeSync(fd);
    throw fileProblem(path, Object.assign(new Error('EISDIR'), { code: 'EISDIR' }));
  }
  if (st.isFile()) return { kind: 'file', fd, size: st.size, label };
  try {
    return { kind: 'bytes', buf: readAll(fd, label), label };
  } finally {
    closeSync(fd);
  }
}

export function closeInput(input: TrecInput): void {
  if (input.kind === 'file') closeSync(input.fd);
}

/** Read a stream to its end; reads have no position, which a pipe refuses (ESPIPE). */
function readAll(fd: number, label: string): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  let buf = Buffer.allocUnsafe(1 << 16);
  let off = 0;
  for (;;) {
    let got: number;
    try {
      got = readSync(fd, buf, off, buf.length - off, null);
    } catch (e) {
      // a non-blocking stdin (inherited from a parent that set O_NONBLOCK) has no data yet
      if ((e as NodeJS.ErrnoException).code === 'EAGAIN') {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
        continue;
      }
      throw new RgateError('input_invalid', `${label}: cannot be read (${(e as Error).message})`);
    }
    if (got === 0) break;
    off += got;
    total += got;
    if (off === buf.length) {
      chunks.push(buf);
      buf = Buffer.allocUnsafe(Math.min(buf.length * 2, 64 << 20));
      off = 0;
    }
  }
  chunks.push(buf.subarray(0, off));
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
}

export function inputError(label: string, line: number, what: string, hint: string): RgateError {
  return new RgateError('input_invalid', `${label}:${line}: ${what}`, hint);
}

/** A file with no data lines: named as empty, not left to fail later as "no query in common". */
export function emptyInputError(label: string, bytes: number, what: string): RgateError {
  return new RgateError(
    'input_invalid',
    bytes === 0 ? `${label}: empty file: no ${what}` : `${label}: no ${what}: only blank and comment lines`,
    bytes === 0 && label === 'stdin' ? 'nothing was piped to stdin' : 'check that this is the right file',
  );
}
