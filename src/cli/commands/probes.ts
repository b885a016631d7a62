import type { Argv } from 'yargs';
import { PROBE_DEFAULTS } from '../../core/defaults.js';
import { EXIT, RgateError } from '../../core/errors.js';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { addProbes } from '../../snapshot/index.js';
import { exactKeyChannel } from '../../systems/probe-inputs.js';
import { loadRgateConfig, resolveFixtureDir } from '../../systems/rgate-config.js';
import type { ProbesOutput, SuiteProbeFit } from '../../documents/index.js';
import type { RgateCommand } from '../command.js';

/**
 * The suites of the rgate.config.json found from `cwd` that run on the fixture folder `dir`, each with
 * the probes its system can take. No config (or one that does not load) names none: `probes add`
 * works on a set alone.
 */
function suitesOnSet(cwd: string, dir: string): SuiteProbeFit[] {
  let loaded;
  try {
    loaded = loadRgateConfig(cwd);
  } catch {
    return []; // a broken config is `rgate run`'s to report; the probes are written either way
  }
  if (!loaded) return [];
  const configPath = join(dir, 'config.json');
  const setMode = existsSync(configPath)
    ? String((JSON.parse(readFileSync(configPath, 'utf8')) as { mode?: unknown }).mode ?? '')
    : '';
  return Object.entries(loaded.config.suites)
    .filter(([, spec]) => resolve(resolveFixtureDir(loaded, spec)) === resolve(dir))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([suite, spec]) => {
      const c = exactKeyChannel(spec.system, spec.config?.mode ?? setMode);
      return c.receives
        ? { suite, takes: ['exact-key', 'no-match', 'path-priority'], not_applicable: [] }
        : {
            suite,
            takes: ['no-match', 'path-priority'],
            not_applicable: [{ kind: 'exact-key', reason: c.reason, fix: c.fix }],
          };
    });
}

interface ProbesArgs {
  action: 'add';
  set: string;
  count: number;
  seed: number;
  version?: string;
  'reset-note'?: string;
  freeze?: boolean;
  date?: string;
  json?: boolean;
}

/** One line per suite on the set: which probes its system can take, and for the others why not and the fix. */
function printFits(fits: readonly SuiteProbeFit[], out: (line: string) => void): void {
  for (const f of fits) {
    if (f.not_applicable.length === 0) out(`  suite ${f.suite}: its system can take every probe`);
    for (const n of f.not_applicable)
      out(
        `  suite ${f.suite}: takes ${f.takes.join(', ')} probes; ${n.kind} probes are not applicable (${n.reason}); fix: ${n.fix}`,
      );
  }
}

/**
 * `rgate probes add <set>`: fallback probes derived from the set's own corpus (seeded), so a suite
 * whose ordinary queries never fall back still evidences its fallback path.
 */
export const probesCommand: RgateCommand<ProbesArgs> = {
  command: 'probes <action> <set>',
  describe: "Add fallback probes (exact key, no match, path priority) derived from a set's corpus",
  builder: (y: Argv) =>
    y
      // `--version` here is the fixture version, not rgate's own (as in `rgate freeze`)
      .version(false)
      .positional('action', { choices: ['add'] as const, describe: 'what to do' })
      .positional('set', {
        type: 'string',
        demandOption: true,
        describe: 'set name (fixtures/<name>) or folder',
      })
      .option('count', {
        type: 'number',
        default: PROBE_DEFAULTS.count,
        describe: 'probes of each kind',
      })
      .option('seed', {
        type: 'number',
        default: PROBE_DEFAULTS.seed,
        describe: 'seed that samples records and folders and makes the no-match words',
      })
      .option('version', {
        type: 'string',
        describe: 'a frozen set: the new fixture version (higher than the frozen one)',
      })
      .option('reset-note', {
        type: 'string',
        describe: 'a frozen set: why the baseline moves (kept in freeze.json history)',
      })
      .option('freeze', {
        type: 'boolean',
        default: false,
        describe: 'freeze an unfrozen set afterwards (a frozen one is always re-frozen)',
      })
      .option('date', { type: 'string', describe: 'frozen_on date YYYY-MM-DD (default: today, UTC)' })
      .option('json', {
        type: 'boolean',
        default: false,
        describe: 'print the probes and the result as JSON',
      })
      .example('rgate probes add my-set', 'three probes of each kind into fixtures/my-set/queries.jsonl')
      .example(
        'rgate probes add context-load --version v2 --reset-note "fallback probes added"',
        'a frozen set: re-frozen as v2 with the note in its history',
      )
      .example('rgate probes add ./fixtures/notes --count 5 --seed 7 --json', 'five of each, another sample'),
  async handler(args, io) {
    if (!Number.isInteger(args.count) || args.count < 1 || args.count > 1000)
      throw new RgateError('usage', `--count ${args.count}: expected a whole number from 1 to 1000`);
    if (!Number.isInteger(args.seed) || args.seed < 0)
      throw new RgateError('usage', `--seed ${args.seed}: expected a whole number >= 0`);
    const r = await addProbes(args.set, {
      root: io.cwd,
      count: args.count,
      seed: args.seed,
      ...(args.version !== undefined ? { version: String(args.version) } : {}),
      ...(args['reset-note'] !== undefined ? { resetNote: args['reset-note'] } : {}),
      ...(args.freeze ? { freeze: true } : {}),
      frozenOn: args.date ?? new Date().toISOString().slice(0, 10),
    });
    const fits = suitesOnSet(io.cwd, r.dir);
    if (args.json) {
      io.out(
        JSON.stringify(
          {
            set: args.set,
            changed: r.changed,
            added: r.probes.length,
            replaced: r.replaced,
            kept: r.kept,
            notes: r.notes,
            probes: r.probes,
            suites: fits,
            ...(r.frozen ? { freeze: r.frozen.freeze } : {}),
          } satisfies ProbesOutput,
          null,
          2,
        ),
      );
      return EXIT.ok;
    }
    if (!r.changed) {
      io.out(`${args.set}: already holds these ${r.probes.length} probes; nothing written`);
      printFits(fits, io.out);
      return EXIT.ok;
    }
    io.out(
      `${args.set}: ${r.probes.length} probes written (${r.replaced} earlier generated probes replaced, ${r.kept} queries kept)`,
    );
    for (const p of r.probes)
      io.out(`  ${p.query_id}  ${JSON.stringify(p.text)}  expect ${JSON.stringify(p.expect)}`);
    for (const n of r.notes) io.out(`  note: ${n}`);
    printFits(fits, io.out);
    if (r.frozen)
      io.out(`  frozen: ${r.frozen.freeze.artifact_id} ${r.frozen.freeze.version} (${r.frozen.action})`);
    else io.out(`  next: rgate freeze ${args.set}`);
    return EXIT.ok;
  },
};
