import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { formatAjvErrors } from '../contracts/ajv.js';
import type { RgateConfigFile, SuiteSpec } from '../documents/index.js';
import { validateRgateConfig } from '../contracts/rgate-config.js';
import { EXIT, isRgateError, RgateError } from '../core/errors.js';
import { lookupRoots } from '../core/package-root.js';
import { checkShellScripts } from './shell-scripts.js';
import { findNodeAtLocation, parse, parseTree, type Node as JsonNode, type ParseError } from 'jsonc-parser';
import { parseJsonText } from '../core/jsonl.js';

export const RGATE_CONFIG_FILE = 'rgate.config.json';

export interface LoadedRgateConfig {
  /** absolute path of the file read */
  path: string;
  /** its folder: relative fixture, gate and cwd paths resolve against it */
  dir: string;
  config: RgateConfigFile;
}

/** Walk from `cwd` up to the filesystem root and return the first rgate.config.json found. */
export function findRgateConfig(cwd: string): string | undefined {
  let dir = resolve(cwd);
  for (;;) {
    const p = join(dir, RGATE_CONFIG_FILE);
    if (existsSync(p) && statSync(p).isFile()) return p;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/**
 * `file:line` of the value at a JSON pointer (`/suites/cacm/system/argv/1`) in a config file, or of the
 * deepest part of it that exists; the bare file when it cannot be read or parsed.
 */
export function configLocation(file: string, pointer: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return file;
  }
  const tree = parseTree(text);
  if (!tree) return file;
  const segments = pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  let node: JsonNode | undefined = tree;
  for (let n = segments.length; n >= 0; n--) {
    const path = segments.slice(0, n).map((s) => (/^\d+$/.test(s) ? Number(s) : s));
    node = findNodeAtLocation(tree, path);
    if (node) break;
  }
  const offset = node?.parent?.type === 'property' ? node.parent.offset : (node?.offset ?? 0);
  return `${file}:${lineCol(text, offset).split(':')[0]}`;
}

/**
 * A suite's mistake found while preparing it (a placeholder, a gate or fixture that does not
 * resolve, a parameter), located in the config: `rgate.config.json:14 /suites/s/system/argv/1:
 * unknown placeholder {qury}`. Errors that are not the user's pass through unchanged.
 */
export function locateSuiteError(loaded: { path: string }, suite: string, e: unknown): unknown {
  if (!isRgateError(e) || e.exitCode !== EXIT.usage) return e;
  const pointer = e.at === undefined ? `/suites/${suite}` : `/suites/${suite}/${e.at}`;
  // a thrower that knows its place also names it first in its own words: said once here
  const own = e.at === undefined ? undefined : `${e.at}: `;
  const message =
    own && e.message.startsWith(own) ? e.message.slice(own.length) : `suite "${suite}": ${e.message}`;
  return new RgateError(e.code, `${configLocation(loaded.path, pointer)} ${pointer}: ${message}`, e.hint);
}

function lineCol(text: string, pos: number): string {
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  return `${line}:${pos - before.lastIndexOf('\n')}`;
}

/**
 * Where strict JSON first goes wrong, for the errors JSON.parse gives without a position
 * ("Unexpected token ']', "[1,]" is not valid JSON").
 */
export function firstJsonErrorOffset(text: string): number | undefined {
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  return errors[0]?.offset;
}

/**
 * Load rgate.config.json: `explicitPath` (the CLI's `--config`) if given, `false` for `--no-config`
 * (returns undefined), else discovered from `cwd` upward like other tools' rc files. Schema-validated;
 * mistakes throw RgateError with file, line:column (bad JSON) or JSON path, e.g.
 * `rgate.config.json /suites/cacm/replays: must be >= 1`.
 */
export function loadRgateConfig(cwd: string, explicitPath?: string | false): LoadedRgateConfig | undefined {
  if (explicitPath === false) return undefined;
  let path: string | undefined;
  if (explicitPath !== undefined) {
    path = isAbsolute(explicitPath) ? explicitPath : resolve(cwd, explicitPath);
    if (!existsSync(path)) {
      throw new RgateError(
        'file_not_found',
        `${explicitPath}: no such config file`,
        'check the --config path',
      );
    }
  } else {
    path = findRgateConfig(cwd);
    if (path === undefined) return undefined;
  }
  const value = parseJsonText(readFileSync(path, 'utf8'), path, {
    code: 'config_invalid',
    hint: 'rgate.config.json is strict JSON: no comments, no trailing commas',
    locate: firstJsonErrorOffset,
  });
  if (!validateRgateConfig(value)) {
    const lines = formatAjvErrors(validateRgateConfig.errors);
    // if/then branches repeat a failure as "must match \"then\" schema": those lines add nothing
    const useful = lines.filter((l) => !l.endsWith('must match "then" schema'));
    const shown = useful.length > 0 ? useful : lines;
    const more = shown.length > 1 ? ` (and ${shown.length - 1} more: ${shown.slice(1, 4).join('; ')})` : '';
    throw new RgateError(
      'config_invalid',
      `${configLocation(path, (shown[0] ?? '').split(':')[0] ?? '')} ${shown[0] ?? 'is invalid'}${more}`,
      'see docs/systems.md, "rgate.config.json", for its format',
    );
  }
  const config = value;
  for (const [i, name] of (config.default_suites ?? []).entries()) {
    if (!Object.hasOwn(config.suites, name)) {
      throw new RgateError(
        'config_invalid',
        `${configLocation(path, `/default_suites/${i}`)} /default_suites/${i}: no suite named "${name}"`,
        `suites: ${Object.keys(config.suites).sort().join(', ') || '(none)'}`,
      );
    }
  }
  // a suite whose query text a shell would run as code is refused before any command reads this file,
  // whichever suites the command goes on to run (src/systems/shell-scripts.ts)
  for (const name of Object.keys(config.suites).sort()) {
    const system = config.suites[name]!.system;
    if (system.type !== 'command') continue;
    try {
      checkShellScripts(system.argv, system.env, 'system');
    } catch (e) {
      throw locateSuiteError({ path }, name, e);
    }
  }
  return { path, dir: dirname(path), config };
}

/**
 * A suite's fixture folder: a path is relative to the config file; a bare name is `fixtures/<name>`
 * next to it, else one of the demo sets bundled with rgate.
 */
export function resolveFixtureDir(loaded: { dir: string }, suite: SuiteSpec): string {
  const f = suite.fixture;
  if (isAbsolute(f)) return f;
  if (/[\\/]/.test(f) || f.startsWith('.')) return resolve(loaded.dir, f);
  const candidates = lookupRoots(loaded.dir).map((r) => resolve(r, 'fixtures', f));
  return candidates.find((d) => existsSync(d)) ?? candidates[0]!;
}

/**
 * A suite's gate policy file: a path is relative to the config file; a bare id is
 * `gates/<id>.gate.json` next to it, else one of the gates bundled with rgate.
 */
export function resolveGatePath(loaded: { dir: string }, suite: SuiteSpec): string | undefined {
  const g = suite.gate;
  if (g === undefined || g === null) return undefined;
  if (isAbsolute(g)) return g;
  if (/[\\/]/.test(g) || g.endsWith('.json')) return resolve(loaded.dir, g);
  const candidates = lookupRoots(loaded.dir).map((r) => resolve(r, 'gates', `${g}.gate.json`));
  return candidates.find((f) => existsSync(f)) ?? candidates[0]!;
}
