import { join, relative } from 'node:path';
import type { Argv } from 'yargs';
import { vsBaseGateLines } from '../../../gates/index.js';
import { EXIT, RgateError } from '../../core/errors.js';
import type { SessionUploadOutcome, UploadOutput, UploadPendingOutput } from '../../documents/index.js';
import { openStore } from './history.js';
import type { CliIo, RgateCommand } from '../command.js';
import { OUT_DIR_HELP, outDirOf } from '../out-dir.js';
import { resolveRunRef } from '../run-ref.js';
import {
  dropPending,
  listPending,
  sendSession,
  sendUpload,
  setAsidePending,
  type UploadOutcome,
} from '../upload-client.js';
import {
  DEFAULT_TOKEN_ENV,
  uploadStoredRun,
  vsBaseFailed,
  uploadTargetOf,
  withUploadFlags,
  type UploadFlags,
} from '../upload-flags.js';

interface UploadArgs extends UploadFlags {
  run?: string;
  server?: string;
  pending?: boolean;
  config?: string;
  'out-dir'?: string;
  store?: string;
  json?: boolean;
}

/** `rgate upload <run>`: a finished run of the local history to `rgate server`; `--pending` sends what could not be sent. */
export const uploadCommand: RgateCommand<UploadArgs> = {
  command: 'upload [run]',
  describe:
    "Send a finished run (or every pending run and comparison session) to a team's rgate server, idempotent by id",
  builder: (y: Argv) =>
    withUploadFlags(
      y
        .positional('run', { type: 'string', describe: 'run id (or a unique prefix of one), or "latest"' })
        .option('server', { type: 'string', describe: 'the server URL, e.g. https://rgate.example.org' })
        .option('pending', {
          type: 'boolean',
          describe:
            'send every upload kept in <out-dir>/pending-uploads/ (to the server and project each was meant for)',
        })
        .option('config', {
          type: 'string',
          describe: 'path to rgate.config.json (default: found from the cwd upward)',
        })
        .option('out-dir', { type: 'string', describe: OUT_DIR_HELP })
        .option('store', { type: 'string', describe: 'run history file (default <out-dir>/history.sqlite)' })
        .option('json', { type: 'boolean', describe: 'print what happened as JSON' }),
    )
      .example(
        `${DEFAULT_TOKEN_ENV}=… $0 upload latest --server https://rgate.example.org --project search`,
        'the newest run',
      )
      .example(
        '$0 upload 20261126T0930 --server http://127.0.0.1:8787 --project search --token-env CI_RGATE_TOKEN',
        'a run by id prefix, token from another variable',
      )
      .example(
        '$0 upload --pending',
        'after an outage: send every run (then every compare session) kept while the server was unreachable',
      ),
  async handler(args, io) {
    const outDir = outDirOf(io, args['out-dir'], args.config);
    if (args.pending) {
      if (args.run) throw new RgateError('usage', '--pending sends every pending upload: name no run');
      return sendPending(args, io, outDir);
    }
    if (!args.run) throw new RgateError('usage', 'name the run to upload (or "latest"), or pass --pending');
    if (!args.server) throw new RgateError('usage', 'rgate upload needs --server <url>');
    const target = uploadTargetOf(args.server, args, io, '--server');
    // a reader: a missing or empty history is refused, never created
    const store = openStore(io, args);
    try {
      const runId =
        args.run === 'latest' ? store.listRuns({ limit: 1 })[0]?.run_id : resolveRunRef(store, args.run);
      if (!runId) throw new RgateError('usage', `no runs in ${store.location}`);
      const outcome = await uploadStoredRun(io, store, runId, target, outDir, {
        retries: args.retries,
        json: args.json,
      });
      if (args.json) io.out(JSON.stringify(outcome satisfies UploadOutput));
      // the server's vs_base rules failed the run: exit 1, as a gate FAIL (docs/server.md)
      return vsBaseFailed(outcome)
        ? EXIT.gateFail
        : outcome.kind === 'stored' || outcome.kind === 'exists'
          ? EXIT.ok
          : outcome.kind === 'refused'
            ? EXIT.usage
            : EXIT.internal;
    } finally {
      store.close();
    }
  },
};

async function sendPending(args: UploadArgs, io: CliIo, outDir: string): Promise<number> {
  const pending = listPending(outDir);
  const shownDir = relative(io.cwd, outDir) || outDir;
  if (pending.length === 0) {
    // under --json stdout is the document alone (an empty list), so the sentence goes to stderr
    (args.json ? io.err : io.out)(`no pending uploads in ${shownDir}`);
    if (args.json) io.out(JSON.stringify([] satisfies UploadPendingOutput));
    return EXIT.ok;
  }
  let code: number = EXIT.ok;
  let unsent = 0;
  let setAside = 0;
  const results: UploadPendingOutput = [];
  for (const { file, pending: p } of pending) {
    const server = args.server ?? p.server;
    const project = args.project ?? p.project;
    const target = uploadTargetOf(server, { ...args, project }, io, '--server');
    const retries = args.retries === undefined ? {} : { retries: args.retries };
    let what: string;
    let outcome: UploadOutcome | SessionUploadOutcome;
    if (p.schema === 'rgate-pending-session/1') {
      const session_id = p.session.environment.session_id;
      what = `session ${session_id}`;
      outcome = await sendSession(target, p.session, retries);
      results.push({ session_id, ...outcome });
    } else {
      const run_id = p.upload.meta.run_id;
      what = `run ${run_id}`;
      outcome = await sendUpload(target, p.upload, retries);
      results.push({ run_id, ...outcome });
    }
    if (outcome.kind === 'stored' || outcome.kind === 'exists') {
      dropPending(file);
      io.err(`${outcome.kind === 'stored' ? 'uploaded' : 'already on the server'}: ${what}: ${outcome.url}`);
      // a run sent late is judged against its base branch all the same: its FAIL fails this command
      if ('vsBase' in outcome && outcome.vsBase) io.err(`${what} against its base branch: ${outcome.vsBase}`);
      if ('vsBaseGate' in outcome && outcome.vsBaseGate)
        for (const line of vsBaseGateLines(outcome.vsBaseGate)) io.err(line);
      if ('vsBaseGate' in outcome && vsBaseFailed(outcome)) code = Math.max(code, EXIT.gateFail);
    } else if (outcome.kind === 'refused' && outcome.status === 409) {
      // no retry can change the server's copy: say so once and take the file out of the queue
      const moved = setAsidePending(file);
      io.err(
        `rgate: ${what} not sent: ${outcome.reason}; the server keeps its copy. Moved out of the queue to ${relative(io.cwd, moved) || moved} (rgate upload --pending skips it from now on): compare it with the server's, then delete it`,
      );
      code = Math.max(code, EXIT.usage);
      setAside++;
    } else {
      unsent++;
      io.err(`rgate: ${what} still pending: ${outcome.reason}`);
      code = Math.max(code, outcome.kind === 'refused' ? EXIT.usage : EXIT.internal);
    }
  }
  // an outage that leaves runs unsent is said in one line with the count, and is never an exit 0
  // (a run set aside on a 409 has said so above, and exits 2)
  if (unsent > 0) {
    const sent = pending.length - unsent - setAside;
    io.err(
      `rgate: ${unsent} of ${pending.length} pending uploads still unsent (${sent} sent${
        setAside > 0 ? `, ${setAside} set aside` : ''
      }); they stay in ${join(shownDir, 'pending-uploads')}: run rgate upload --pending again once the server answers`,
    );
    if (code === EXIT.ok) code = EXIT.internal;
  }
  if (args.json) io.out(JSON.stringify(results satisfies UploadPendingOutput));
  return code;
}
