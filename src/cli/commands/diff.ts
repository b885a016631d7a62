import { resolveRunRef } from '../run-ref.js';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import { EXIT, RgateError } from '../../core/errors.js';
import { readJsonFile } from '../../core/jsonl.js';
import { unpackedReport } from '../../contracts/report.js';
import type { Report } from '../../documents/index.js';
import type { RunStore } from '../../store/index.js';
import { asReport } from '../../../history/trends.js';
import { diffReports } from '../../../history/diff.js';
import { renderDiffJson, renderDiffMarkdown, renderDiffTerminal } from '../../../reports/history/trends.js';
import type { CliIo, RgateCommand } from '../command.js';
import { terminalWidth } from '../io.js';
import { openStore, withStoreOptions, type StoreArgs } from './history.js';

interface DiffArgs extends StoreArgs {
  runA: string;
  runB: string;
  json?: boolean;
  format?: 'terminal' | 'json' | 'md';
}

/** A run id from the store, or a report.json path (anything ending in .json that exists). */
export function loadReport(io: CliIo, ref: string, store: () => RunStore): Report {
  const path = resolve(io.cwd, ref);
  if (ref.endsWith('.json') && existsSync(path)) {
    const r = asReport(unpackedReport(readJsonFile(path), ref));
    if (!r)
      throw new RgateError(
        'input_invalid',
        `${ref}: not an rgate report (schema rgate-report/1)`,
        'pass a report.json written by `rgate run`',
      );
    return r;
  }
  const s = store();
  ref = resolveRunRef(s, ref);
  const row = s.getRun(ref);
  if (!row)
    throw new RgateError('usage', `no run ${ref} in ${s.location}`, 'list runs with: rgate history <suite>');
  const r = asReport(s.getReport(ref));
  if (!r)
    throw new RgateError(
      'input_invalid',
      `run ${ref} (${row.status}) has no stored report to diff`,
      row.status === 'complete'
        ? `its stored report does not match the report schema (see it with: rgate report ${ref})`
        : 'only finished runs keep their report',
    );
  return r;
}

export const diffCommand: RgateCommand<DiffArgs> = {
  command: 'diff <runA> <runB>',
  describe: 'Per-query regressions, improvements, changed top-1 and selection mode between two runs',
  builder: (y: Argv) =>
    withStoreOptions(y)
      .positional('runA', { type: 'string', describe: 'the older / reference run id (or a report.json)' })
      .positional('runB', { type: 'string', describe: 'the newer / candidate run id (or a report.json)' })
      .option('json', { type: 'boolean', describe: 'print the diff as JSON' })
      .option('format', {
        choices: ['terminal', 'json', 'md'] as const,
        describe: 'output format (default terminal)',
      })
      .example(
        '$0 diff 20261121T020000Z-1a2b3c 20261122T020000Z-4d5e6f',
        'what changed between two nightly runs',
      )
      .example('$0 diff .rgate/runs/A/report.json .rgate/runs/B/report.json --format md', 'a PR comment'),
  handler: async (args, io) => {
    let store: RunStore | undefined;
    const getStore = () => (store ??= openStore(io, args));
    try {
      const a = loadReport(io, args.runA, getStore);
      const b = loadReport(io, args.runB, getStore);
      const d = diffReports(a, b);
      const format = args.json ? 'json' : (args.format ?? 'terminal');
      const text =
        format === 'json'
          ? renderDiffJson(d)
          : format === 'md'
            ? renderDiffMarkdown(d)
            : renderDiffTerminal(d, { color: io.color, width: terminalWidth(io) });
      io.out(text.replace(/\n$/, ''));
      return EXIT.ok;
    } finally {
      store?.close();
    }
  },
};
