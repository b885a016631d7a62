/** Opening a TREC input (a file, `-` for stdin, or a pipe), and the error that names a bad line of one. */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { fileProblem, RgateError } from '../core/errors.js';
import { bomError, startsWithBom } from '../core/utf8.js';

/**
 * A regular file stays an open descriptor, read by position (and by two threads for a large run);
 * anything else (stdin, /dev/stdin, a pipe, process substitution) cannot be read by position, so it
 * is read whole into memory first.
 */
export type TrecInput =
  { kind: 'file'; fd: number; size: number; label: string } | { kind: 'bytes'; buf: Buffer; label: string };

/** The path that means standard input, as for trec_eval's scripts and most Unix tools. */
export const STDIN = '-';

/**
 * How errors name an input: `stdin` for -, else the path as the user gave it (`runs/a/run.txt:17:`),
 * so two same-named files in two folders, or /dev/fd/63 from a process substitution, can be told apart.
 */
export function inputLabel(path: string): string {
  return path === STDIN ? 'stdin' : path;
}

/** `label`: how errors name the input, when `path` is not how the user wrote it (resolved against a cwd). */
export function openInput(path: string, label: string = inputLabel(path)): TrecInput {
  if (path === STDIN) {
    const buf = readAll(0, 'stdin');
    if (startsWithBom(buf)) throw trecBomError('stdin');
    return { kind: 'bytes', buf, label: 'stdin' };
  }
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    // Linux cannot open a socket through /dev/stdin or /dev/fd/N (ENXIO), and Node's child
    // processes get socket stdio: read the inherited descriptor itself
    const inherited = /^\/(?:dev\/stdin$|dev\/fd\/(\d+)$|proc\/self\/fd\/(\d+)$)/.exec(path);
    if (inherited && (e as NodeJS.ErrnoException).code === 'ENXIO') {
      const buf = readAll(Number(inherited[1] ?? inherited[2] ?? 0), label);
      if (startsWithBom(buf)) throw trecBomError(label);
      return { kind: 'bytes', buf, label };
    }
    const problem = fileProblem(label, e);
    if (problem instanceof RgateError) throw problem;
    throw new RgateError('input_invalid', `${label}: cannot be opened (${(e as Error).message})`);
  }
  const st = fstatSync(fd);
  // a folder opens fine on Linux and fails only at the first read, as an internal EISDIR
  if (st.isDirectory()) {
    closeSync(fd);
    throw fileProblem(label, Object.assign(new Error('EISDIR'), { code: 'EISDIR' }));
  }
  if (st.isFile()) {
    const head = Buffer.alloc(3);
    if (st.size >= 3 && readSync(fd, head, 0, 3, 0) === 3 && startsWithBom(head)) {
      closeSync(fd);
      throw trecBomError(label);
    }
    return { kind: 'file', fd, size: st.size, label };
  }
  let buf: Buffer;
  try {
    buf = readAll(fd, label);
  } finally {
    closeSync(fd);
  }
  if (startsWithBom(buf)) throw trecBomError(label);
  return { kind: 'bytes', buf, label };
}

/** A TREC file's BOM: trec_eval reads it as part of the first field, so it is refused, never skipped. */
export function trecBomError(label: string): RgateError {
  return bomError(
    label,
    "trec_eval would read it as part of line 1's query id; rgate refuses it rather than score a different file",
  );
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
