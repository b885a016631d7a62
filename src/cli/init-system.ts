import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isRgateError, RgateError } from '../core/errors.js';
import { resolveConfig } from '../core/resolve-config.js';
import { shellWord } from '../core/shell-word.js';
import { RESPONSE_CONTRACTS, type ModuleSystemSpec, type SuiteSpec } from '../documents/index.js';
import { FIXTURE_FILES, readConfigFile, resolveFixtureDir } from '../snapshot/index.js';
import { checkSystemTemplates } from '../systems/index.js';

const BUILTIN_MODES: readonly string[] = ['bm25', 'semantic', 'context-load', 'ku'];

/** What of `rgate init`'s arguments decides the suite's system. */
interface SystemArgs {
  _: (string | number)[];
  system?: string[];
  contract?: string;
  fixture?: string;
}

function fixtureMode(args: SystemArgs, root: string): string | undefined {
  if (!args.fixture) return undefined;
  const file = join(resolveFixtureDir(args.fixture, root), 'config.json');
  if (!existsSync(file)) return undefined;
  const mode = (JSON.parse(readFileSync(file, 'utf8')) as { mode?: unknown }).mode;
  return typeof mode === 'string' && BUILTIN_MODES.includes(mode) ? mode : undefined;
}

export function systemSpec(args: SystemArgs, root: string): SuiteSpec['system'] {
  const [type = 'builtin', ...rest] = args.system ?? [];
  // everything after `--` (yargs turns numbers in it into numbers: they are argv strings)
  const argv = args._.slice(1).map(String);
  // an argv the suite would not run is the team's command silently replaced: refuse it (#33)
  if (type !== 'command' && argv.length > 0)
    throw new RgateError(
      'usage',
      `rgate init: the command after -- (${argv.map(shellWord).join(' ')}) would be ignored: ${
        type === 'builtin'
          ? `the suite would run the builtin engine${args.system ? '' : ' (no --system given)'}`
          : `--system ${type} is not a command`
      }`,
      '--system command --contract <contract> -- <argv> runs that command as the system under test',
    );
  if (type === 'builtin') {
    if (args.contract)
      throw new RgateError(
        'usage',
        `--contract ${args.contract}: the builtin engine has no response contract`,
        '--contract goes with --system command -- <argv> or --system http <url>',
      );
    const mode = rest[0] ?? fixtureMode(args, root) ?? 'bm25';
    if (!BUILTIN_MODES.includes(mode))
      throw new RgateError(
        'usage',
        `--system builtin ${mode}: unknown mode`,
        'modes: bm25, semantic, context-load, ku',
      );
    return { type: 'builtin', mode: mode as 'bm25' };
  }
  if (type === 'command') {
    if (argv.length === 0)
      throw new RgateError(
        'usage',
        '--system command needs the command after --',
        'e.g. --system command --contract rgate -- node search.mjs {query}',
      );
    if (!args.contract)
      throw new RgateError(
        'usage',
        '--system command needs --contract',
        `one of ${RESPONSE_CONTRACTS.join(', ')}`,
      );
    return { type: 'command', argv, contract: args.contract, ...exactKeyAsQuery(args.contract, argv) };
  }
  if (type === 'http') {
    const url = rest[0];
    if (!url || !/^https?:\/\//.test(url))
      throw new RgateError(
        'usage',
        '--system http needs the endpoint URL',
        'e.g. --system http http://127.0.0.1:8080/retrieve',
      );
    return {
      type: 'http',
      url,
      ...(args.contract ? { contract: args.contract, ...exactKeyAsQuery(args.contract, []) } : {}),
    };
  }
  if (type === 'module') return moduleSystemSpec(rest[0], args.contract, root);
  throw new RgateError('usage', `--system ${type}: unknown system type`, 'builtin, command, http or module');
}

/**
 * A system answering as memory-cli does (memory-cli-v1) reaches its exact-key lookup by being asked
 * for the key itself: its exact-key probes are sent the key as the query, unless the command passes
 * the key its own way (`{exact_key}` in its argv).
 */
function exactKeyAsQuery(contract: string, argv: readonly string[]): { exact_key?: 'as_query' } {
  return contract === 'memory-cli-v1' && !argv.some((a) => a.includes('{exact_key}'))
    ? { exact_key: 'as_query' }
    : {};
}

/**
 * Refuse now a placeholder `rgate run` would refuse at the suite's first run (`{qury}`, a url with a
 * placeholder, `{env.bad name}`), with the same check the adapters make. Judged against the config the
 * suite will run with: the --fixture set's config.json over the defaults, or the defaults alone for an
 * imported set (its config.json holds no other key), and no system params (init writes none), so a
 * `{params.*}` is refused as run would refuse it. `{env.NAME}` is checked by name only: the variable is
 * set where the suite runs (CI), not necessarily here.
 */
export function checkPlaceholders(
  system: SuiteSpec['system'],
  fixture: string | undefined,
  root: string,
): void {
  // a module system has no templates: it receives the values themselves
  if (system.type === 'builtin' || system.type === 'module' || system.type === 'function') return;
  const file =
    fixture === undefined ? undefined : join(resolveFixtureDir(fixture, root), FIXTURE_FILES.config);
  const config = file !== undefined && existsSync(file) ? readConfigFile(file).config : resolveConfig();
  try {
    checkSystemTemplates(system, config, { envSet: false });
  } catch (e) {
    if (!isRgateError(e)) throw e;
    throw new RgateError(
      e.code,
      `rgate init --system ${system.type}: ${e.message}`,
      e.hint,
      e.at ? { at: e.at } : undefined,
    );
  }
}
export function describeSystem(s: SuiteSpec['system']): string {
  if (s.type === 'builtin') return `builtin engine, ${s.mode ?? 'bm25'} mode`;
  if (s.type === 'command') return `command ${s.argv[0]} (${s.contract})`;
  if (s.type === 'module') return `module ${s.path}#${s.export ?? 'default'}`;
  if (s.type === 'function') return `function ${s.name ?? ''}`;
  return `http ${s.url}`;
}

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
