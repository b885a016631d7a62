import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { ALARM_WINDOW } from '../../core/defaults.js';
import { EXIT, RgateError } from '../../core/errors.js';
import { SqliteRunStore } from '../../store/index.js';
import type { SuiteSpec } from '../../documents/index.js';
import { loadRgateConfig } from '../../systems/rgate-config.js';
import { historyFromStore, storedSuites } from '../../../history/trends.js';
import {
  renderHistoryHtml,
  renderHistoryJson,
  renderHistoryMarkdown,
  renderHistoryTerminal,
} from '../../../reports/history/trends.js';
import type { CliIo, RgateCommand } from '../command.js';
import { terminalWidth } from '../io.js';
import { readFreeze, resolveFixtureDir } from '../../snapshot/index.js';
import { OUT_DIR_HELP, outDirOf, storePathOf } from '../out-dir.js';
import { checkReadableStore } from '../read-store.js';

/** Options every history-store command shares (history, diff, baseline, compare, closeout). */
export interface StoreArgs {
  'out-dir'?: string;
  store?: string;
  config?: string;
}

export function withStoreOptions(y: Argv): Argv {
  return y
    .option('out-dir', { type: 'string', describe: OUT_DIR_HELP })
    .option('store', { type: 'string', describe: 'run history file (default <out-dir>/history.sqlite)' });
}

/** Open the run history read/write; a missing or empty file is an input error here (nothing has run yet). */
export function openStore(io: CliIo, args: StoreArgs, mustExist = true): SqliteRunStore {
  const path = storePathOf(io, args);
  // opening would create an empty store; reading commands say instead that nothing has run yet
  if (mustExist) checkReadableStore(io, path, args.store);
  return new SqliteRunStore(path);
}

/** A suite of rgate.config.json (found from the cwd upward, or --config), with the root its paths resolve against. */
export function loadSuiteSpec(
  io: CliIo,
  name: string,
  configPath?: string,
): { spec: SuiteSpec; root: string } {
  const loaded = loadRgateConfig(io.cwd, configPath);
  if (!loaded) {
    throw new RgateError(
      'usage',
      'no rgate.config.json found (from the current directory upward)',
      'create one, or pass --config <file>',
    );
  }
  const spec = loaded.config.suites[name];
  if (!spec) {
    throw new RgateError(
      'usage',
      `no suite named "${name}" in ${relative(io.cwd, loaded.path) || loaded.path}`,
      `known suites: ${Object.keys(loaded.config.suites).sort().join(', ') || '(none)'}`,
    );
  }
  return { spec, root: dirname(loaded.path) };
}

interface HistoryArgs extends StoreArgs {
  suite?: string;
  metric?: string;
  limit: number;
  json?: boolean;
  format?: 'terminal' | 'json' | 'md' | 'html';
  output?: string;
  'fail-on-alarm'?: boolean;
}

export const historyCommand: RgateCommand<HistoryArgs> = {
  command: 'history [suite]',
  describe: 'Trend each metric over the stored runs of a suite, with regression alarms',
  builder: (y: Argv) =>
    withStoreOptions(y)
      .positional('suite', { type: 'string', describe: 'suite name (default: every suite in the store)' })
      .option('metric', { type: 'string', describe: 'one metric, shown run by run with its interval' })
      .option('limit', { type: 'number', default: ALARM_WINDOW, describe: 'newest runs in the window' })
      .option('json', { type: 'boolean', describe: 'print the history as JSON' })
      .option('format', {
        choices: ['terminal', 'json', 'md', 'html'] as const,
        describe: 'output format (default terminal)',
      })
      .option('output', {
        alias: 'o',
        type: 'string',
        describe: 'write to this file instead of stdout (html: default .rgate/history-<suite>.html)',
      })
      .option('fail-on-alarm', {
        type: 'boolean',
        describe: 'exit 1 when the newest run raised a regression alarm (nightly CI)',
      })
      .example('$0 history semantic', 'every metric of the last 20 runs, with sparklines and alarms')
      .example(
        '$0 history semantic --metric top1_useful_rate',
        'one metric run by run with its Wilson interval',
      )
      .example('$0 history semantic --format html -o trend.html', 'trend charts of the gate metrics')
      .example('$0 history --fail-on-alarm', 'nightly CI: fail the job on a regression alarm'),
  handler: async (args, io) => {
    if (args.limit < 2 || !Number.isInteger(args.limit))
      throw new RgateError('usage', `--limit ${args.limit}: need an integer >= 2 for a trend`);
    const store = openStore(io, args);
    try {
      const suites = args.suite !== undefined ? [args.suite] : storedSuites(store);
      if (!suites.length)
        throw new RgateError('usage', `no runs in ${store.location}`, 'run a suite first: rgate run');
      const views = suites.map((s) =>
        historyFromStore(store, s, {
          limit: args.limit,
          resetNotes: resetNotesOf(io, s, args.config),
          ...(args.metric !== undefined ? { metric: args.metric } : {}),
        }),
      );
      const format = args.json ? 'json' : (args.format ?? 'terminal');
      const text =
        format === 'json'
          ? views.length === 1
            ? renderHistoryJson(views[0]!)
            : JSON.stringify(views, null, 2) + '\n'
          : format === 'md'
            ? views.map(renderHistoryMarkdown).join('\n')
            : format === 'html'
              ? renderHistoryHtml(views[0]!)
              : views
                  .map((v) => renderHistoryTerminal(v, { color: io.color, width: terminalWidth(io) }))
                  .join('\n');
      const out =
        args.output ??
        (format === 'html'
          ? join(outDirOf(io, args['out-dir'], args.config), `history-${suites[0]}.html`)
          : undefined);
      if (out) {
        const file = resolve(io.cwd, out);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, text);
        io.err(`rgate: wrote ${relative(io.cwd, file) || file}`);
      } else io.out(text.replace(/\n$/, ''));
      const alarmed = views.some((v) => v.alarms.length > 0);
      return args['fail-on-alarm'] && alarmed ? EXIT.gateFail : EXIT.ok;
    } finally {
      store.close();
    }
  },
};

/**
 * The reset notes of a suite's fixture (freeze.json history, by version), so the history marks a
 * snapshot change with its reason; none when the suite or its frozen fixture cannot be found here.
 */
function resetNotesOf(io: CliIo, suite: string, configPath?: string): Record<string, string> {
  const loaded = loadRgateConfig(io.cwd, configPath);
  const spec = loaded?.config.suites[suite];
  if (!loaded || !spec) return {};
  try {
    const dir = resolveFixtureDir(spec.fixture, dirname(loaded.path));
    if (!existsSync(join(dir, 'freeze.json'))) return {};
    const notes: Record<string, string> = {};
    for (const h of readFreeze(dir).history) if (h.reset_note) notes[h.version] = h.reset_note;
    return notes;
  } catch {
    return {}; // a moved or broken fixture must not stop the history from showing
  }
}
