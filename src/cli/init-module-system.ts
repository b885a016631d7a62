import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { RgateError } from '../core/errors.js';
import type { ModuleSystemSpec } from '../documents/index.js';

/**
 * `rgate init --system module ./src/retriever.ts#search`: the module system spec, its path as the
 * user wrote it (rgate.config.json is written in `root`, which the path is relative to), the export
 * after `#` (none: the default export).
 */
export function moduleSystemSpec(
  target: string | undefined,
  contract: string | undefined,
  root: string,
): ModuleSystemSpec {
  if (!target)
    throw new RgateError(
      'usage',
      '--system module needs the module and its export',
      'e.g. --system module ./src/retriever.ts#search',
    );
  const hash = target.lastIndexOf('#');
  const path = hash === -1 ? target : target.slice(0, hash);
  const exportName = hash === -1 ? undefined : target.slice(hash + 1);
  if (path === '' || exportName === '')
    throw new RgateError(
      'usage',
      `--system module ${target}: expected <path>#<export>`,
      'e.g. --system module ./src/retriever.ts#search (without #export: the default export)',
    );
  if (!existsSync(resolve(root, path)))
    throw new RgateError(
      'usage',
      `--system module ${target}: ${path}: no such file`,
      'the path is relative to this folder',
    );
  return {
    type: 'module',
    path,
    ...(exportName !== undefined ? { export: exportName } : {}),
    ...(contract ? { contract } : {}),
  };
}
