import { resolveRunRef } from '../run-ref.js';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { historyUpToRun } from '../../../history/trends-up-to.js';
import {
  assertValidReport,
  renderHtml,
  renderReport,
  REPORT_FORMATS,
  type ReportFormat,
} from '../../../reports/index.js';
import { unpackedReport } from '../../contracts/report.js';
import { EXIT, RgateError } from '../../core/errors.js';
import type { Report } from '../../documents/index.js';
import { SqliteRunStore } from '../../store/index.js';
import type { CliIo, RgateCommand } from '../command.js';
import { refuseEmptyStore } from '../read-store.js';
import { loadRgateConfig } from '../../systems/rgate-config.js';
import { buildRunReport, inReportOrder } from '../../../harness/run-report.js';
import { planOfRecord } from '../../../harness/stored-plan.js';
import { upgradeReport } from '../../../harness/failure-reasons.js';
import { OUT_DIR_HELP, outDirOf, storePathOf } from '../out-dir.js';
import { terminalWidth } from '../io.js';

interface ReportArgs {
  run: string;
  format: ReportFormat;
  out?: string;
  'out-dir'?: string;
  store?: string;
}

/** A run id names `<out-dir>/runs/<run-id>/report.json`; anything with a slash or .json is a path. */
export function resolveReportPath(target: string, cwd: string, outDir: string): string {
  const asPath = resolve(cwd, target);
  if (target.endsWith('.json') || target.includes('/') || target.includes('\\')) {
    if (existsSync(asPath) && statSync(asPath).isDirectory()) return join(asPath, 'report.json');
    return asPath;
  }
  return join(outDir, 'runs', target, 'report.json');
}

/** Read and schema-check a report file; mistakes are the user's (exit 2) and name the JSON path. */
export function readReportFile(file: string): Report {
  if (!existsSync(file)) {
    throw new RgateError(
      'file_not_found',
      `report not found: ${file}`,
      'pass a run id (see .rgate/runs/) or the path of a report.json',
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new RgateError('input_invalid', `${file}: not valid JSON (${(e as Error).message})`);
  }
  return checkedReport(
    unpackedReport(value, file),
    file,
    'the file is not an rgate report (or was edited by hand)',
  );
}

/** A report read back (a file, a store's row) checked against the schema: a mismatch is the user's input, exit 2. */
function checkedReport(value: unknown, where: string, hint: string): Report {
  try {
    assertValidReport(value, where);
  } catch (e) {
    if (e instanceof RgateError) throw new RgateError('input_invalid', e.message, hint);
    throw e;
  }
  return upgradeReport(value);
}

/**
 * The HTML report's trend charts: the run's suite history up to that run, when the project's
 * history file exists and knows the run; undefined otherwise (never creates a store).
 */
function storedHistory(report: Report, path: string, given: string | undefined) {
  if (!existsSync(path)) return undefined;
  refuseEmptyStore(given ?? path, path);
  const store = new SqliteRunStore(path);
  try {
    return historyUpToRun(store, report.environment.run_id);
  } finally {
    store.close();
  }
}

/** `rgate report <run-id|report.json>`: re-render a stored run in any format. */
export const reportCommand: RgateCommand<ReportArgs> = {
  command: 'report <run>',
  describe: 'Re-render a run report as terminal text, JSON, HTML, Markdown or JUnit XML',
  builder: (y: Argv) =>
    y
      .positional('run', {
        type: 'string',
        demandOption: true,
        describe: 'a run id (<out-dir>/runs/<run-id>/report.json) or the path of a report.json',
      })
      .option('format', {
        alias: 'f',
        choices: REPORT_FORMATS,
        default: 'terminal' as ReportFormat,
        describe: 'output format',
      })
      .option('out', { alias: 'o', type: 'string', describe: 'write to this file instead of stdout' })
      .option('out-dir', { type: 'string', describe: OUT_DIR_HELP })
      .option('store', {
        type: 'string',
        describe: 'run history file for the HTML trend (default <out-dir>/history.sqlite)',
      })
      .example('rgate report <run-id>', 'print a stored run in the terminal')
      .example(
        'rgate report last/report.json --format html --out report.html',
        'one self-contained HTML file',
      )
      .example('rgate report <run-id> -f md', 'Markdown for a CI step summary')
      .example('rgate report <run-id> -f junit -o junit.xml', 'JUnit XML for CI test tabs'),
  async handler(args, io) {
    const file = resolveReportPath(args.run, io.cwd, outDirOf(io, args['out-dir']));
    const report = existsSync(file)
      ? readReportFile(file)
      : (storedRunReport(args.run, io, args) ?? readReportFile(file));
    // colour and the terminal's width only for a terminal on stdout; a file gets neither (80 columns)
    const text =
      args.format === 'html'
        ? renderHtml(report, { history: storedHistory(report, storePathOf(io, args), args.store) })
        : renderReport(report, args.format, {
            color: args.format === 'terminal' && !args.out && io.color,
            ...(args.out ? {} : { width: terminalWidth(io) }),
          });
    if (args.out) {
      const out = resolve(io.cwd, args.out);
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, text);
      io.err(`rgate: wrote ${args.format} report to ${out}`);
    } else {
      io.out(text);
    }
    // the verdict decides the exit code, as everywhere in rgate: 0 PASS/WATCH/NONE, 1 FAIL; a run
    // that did not complete (down, interrupted, partial) is never a pass, gated or not
    return report.gate.verdict === 'FAIL' || report.gate.overruled ? EXIT.gateFail : EXIT.ok;
  },
};

/**
 * A run id with no report file: the report the store kept, or for a run that never finished
 * (running, abandoned, interrupted) a partial report measured from the observations it stored,
 * marked partial and never a PASS. Undefined when the store does not know the run.
 */
function storedRunReport(runId: string, io: CliIo, args: ReportArgs): Report | undefined {
  if (runId.includes('/') || runId.endsWith('.json')) return undefined;
  const path = storePathOf(io, args);
  if (!existsSync(path)) return undefined;
  refuseEmptyStore(args.store ?? path, path);
  const store = new SqliteRunStore(path);
  try {
    runId = resolveRunRef(store, runId);
    const row = store.getRun(runId);
    if (!row) return undefined;
    const kept = store.getReport(runId);
    if (kept !== undefined) {
      return checkedReport(
        kept,
        `the report of run ${runId} in ${store.location}`,
        'written by another rgate version or edited by hand: render a report.json of the run instead (rgate report <path>), or run the suite again',
      );
    }
    const stored = row.plan;
    const loaded = loadRgateConfig(io.cwd);
    if (!stored || !loaded) {
      throw new RgateError(
        'usage',
        `run ${runId} is ${row.status} and has no report; it cannot be measured here`,
        stored ? 'run rgate report from the project that made the run' : 'the run was made by an older rgate',
      );
    }
    const plan = planOfRecord(
      { suite: row.suite, spec: stored.spec, overrides: stored.overrides, settings: row.settings },
      dirname(loaded.path),
      store,
    );
    return buildRunReport(plan, inReportOrder(store.getObservations(runId)), {
      runId,
      startedAt: row.started_at,
      system: stored.system,
      wallMs: 0,
      partial: row.status,
    });
  } finally {
    store.close();
  }
}
