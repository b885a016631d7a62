import { dirname, join, resolve } from 'node:path';
import { findRgateConfig } from '../systems/rgate-config.js';
import type { CliIo } from './command.js';

/**
 * Where generated output (`history.sqlite`, `runs/`, `compare/`, `closeout/`) lives: `--out-dir` as
 * given, relative to the cwd; else `.rgate/` beside the rgate.config.json in use (the one found from
 * the cwd upward, as every command finds it), so a project keeps one history whichever subfolder a
 * command runs from; else `.rgate/` in the cwd.
 */
export function outDirOf(io: CliIo, given?: string, configPath?: string): string {
  if (given !== undefined) return resolve(io.cwd, given);
  const config = configPath ? resolve(io.cwd, configPath) : findRgateConfig(io.cwd);
  return join(config ? dirname(config) : io.cwd, '.rgate');
}

/** The run history file: `--store` as given, else `history.sqlite` in the out dir. */
export function storePathOf(
  io: CliIo,
  args: { 'out-dir'?: string; store?: string; config?: string },
): string {
  return args.store !== undefined
    ? resolve(io.cwd, args.store)
    : join(outDirOf(io, args['out-dir'], args.config), 'history.sqlite');
}

export const OUT_DIR_HELP =
  'where history.sqlite and written documents live (default: .rgate/ beside rgate.config.json)';
