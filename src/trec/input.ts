/** Opening a TREC input file, and the error that names a bad line of one. */
import { closeSync, fstatSync, openSync } from 'node:fs';
import { fileProblem, RgateError } from '../core/errors.js';

export function openFile(path: string): number {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    throw fileProblem(path, e);
  }
  // a folder opens fine on Linux and fails only at the first read, as an internal EISDIR
  if (fstatSync(fd).isDirectory()) {
    closeSync(fd);
    throw fileProblem(path, Object.assign(new Error('EISDIR'), { code: 'EISDIR' }));
  }
  return fd;
}

export function inputError(label: string, line: number, what: string, hint: string): RgateError {
  return new RgateError('input_invalid', `${label}:${line}: ${what}`, hint);
}
