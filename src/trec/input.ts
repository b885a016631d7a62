/** Opening a TREC input file, and the error that names a bad line of one. */
import { openSync } from 'node:fs';
import { RgateError } from '../core/errors.js';

export function openFile(path: string): number {
  try {
    return openSync(path, 'r');
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'ENOENT')
      throw new RgateError('file_not_found', `${path}: no such file`, 'check the path');
    if (err.code === 'EISDIR')
      throw new RgateError('input_invalid', `${path}: is a directory, expected a file`);
    throw e;
  }
}

export function inputError(label: string, line: number, what: string, hint: string): RgateError {
  return new RgateError('input_invalid', `${label}:${line}: ${what}`, hint);
}
