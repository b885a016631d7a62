import { existsSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import { RgateError } from '../core/errors.js';
import type { CliIo } from './command.js';

/**
 * What a command that only reads the run history checks before opening it: opening a missing or
 * empty file would make it a new, empty store (SQLite takes a 0-byte file for an empty database and
 * the store migrates it), so a reader would write where it was asked only to read (#33).
 * `given` is `--store` as the user typed it; the message names the file that way.
 */
export function checkReadableStore(io: CliIo, path: string, given?: string): void {
  const shown = given ?? (relative(io.cwd, path) || path);
  if (!existsSync(path))
    throw new RgateError('file_not_found', `no run history at ${shown}`, 'run a suite first: rgate run');
  refuseEmptyStore(shown, path);
}

/** An existing file of 0 bytes is no run history: an input error, the file left as it is. */
export function refuseEmptyStore(shown: string, path: string): void {
  if (statSync(path).size === 0)
    throw new RgateError(
      'input_invalid',
      `${shown}: an empty file, not a run history`,
      'point --store at the history.sqlite rgate run writes (default <out-dir>/history.sqlite), or delete the empty file',
    );
}
