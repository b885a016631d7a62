import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../core/package-root.js';

export { PACKAGE_ROOT };

export function rgateVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string })
      .version;
  } catch {
    return '0.0.0';
  }
}

/**
 * A run id that sorts by time and cannot collide between two processes started in the same second:
 * `20261122T070501Z-3f9a1c`. Wall clock and randomness are fine here: the id lives only in the
 * report's environment section and in file names.
 */
export function newRunId(at: Date): string {
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}
