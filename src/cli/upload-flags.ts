import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Argv } from 'yargs';
import { vsBaseGateLines } from '../../gates/index.js';
import { RgateError } from '../core/errors.js';
import type { CompareSession } from '../documents/index.js';
import type { RunStore } from '../store/types.js';
import type { CliIo } from './command.js';
import {
  savePending,
  savePendingSession,
  sendSession,
  sendUpload,
  uploadOf,
  type UploadOutcome,
  type UploadTarget,
} from './upload-client.js';

export const DEFAULT_TOKEN_ENV = 'RGATE_SERVER_TOKEN';

export interface UploadFlags {
  project?: string;
  'token-env'?: string;
  retries?: number;
}

/** --project, --token-env and --retries: what every command that uploads takes beside the server URL. */
export function withUploadFlags(y: Argv): Argv {
  return y
    .option('project', { type: 'string', describe: 'the server project to upload to (its slug)' })
    .option('token-env', {
      type: 'string',
      describe: `environment variable holding the project's upload token (default ${DEFAULT_TOKEN_ENV}); never pass a token as an argument`,
    })
    .option('retries', {
      type: 'number',
      describe:
        'further upload attempts on connection errors, 5xx and 429 (backoff 0.5 s, doubling; default 4)',
    });
}

/** The server, project and token of an upload, checked before anything runs. */
export function uploadTargetOf(server: string, args: UploadFlags, io: CliIo, flag: string): UploadTarget {
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new RgateError(
      'usage',
      `${flag} ${JSON.stringify(server)}: not a URL`,
      'e.g. https://rgate.example.org',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new RgateError('usage', `${flag} ${server}: must be an http:// or https:// URL`);
  }
  if (!args.project)
    throw new RgateError(
      'usage',
      `${flag} needs --project <slug>`,
      'the project was created with POST /api/projects (docs/server.md)',
    );
  const name = args['token-env'] ?? DEFAULT_TOKEN_ENV;
  const token = io.env[name];
  if (!token) {
    throw new RgateError(
      'usage',
      `no upload token: environment variable ${name} is not set`,
      `export ${name}=<the project's upload token>, or name another variable with --token-env`,
    );
  }
  if (args.retries !== undefined && (!Number.isInteger(args.retries) || args.retries < 0)) {
    throw new RgateError('usage', `--retries ${args.retries}: must be a whole number >= 0`);
  }
  return { server, project: args.project, token };
}

/** Did the server judge the run's vs_base gate rules FAIL? Then the command that uploaded it exits 1. */
export function vsBaseFailed(outcome: UploadOutcome): boolean {
  return (outcome.kind === 'stored' || outcome.kind === 'exists') && outcome.vsBaseGate?.verdict === 'FAIL';
}

/**
 * Upload one finished run of the local history and say what happened on stderr (the URL on stdout
 * unless `json`). Nothing is lost when the server cannot take it: the upload is kept as pending.
 */
export async function uploadStoredRun(
  io: CliIo,
  store: RunStore,
  runId: string,
  target: UploadTarget,
  outDir: string,
  opts: { retries?: number | undefined; json?: boolean | undefined },
): Promise<UploadOutcome> {
  const upload = uploadOf(store, runId);
  const outcome = await sendUpload(
    target,
    upload,
    opts.retries === undefined ? {} : { retries: opts.retries },
  );
  const say = opts.json ? io.err : io.out;
  if (outcome.kind === 'stored' || outcome.kind === 'exists') {
    say(
      outcome.kind === 'stored'
        ? `uploaded run ${runId}: ${outcome.url}`
        : `run ${runId} is already on the server (nothing new stored): ${outcome.url}`,
    );
    if (outcome.vsBase) say(`run ${runId} against its base branch: ${outcome.vsBase}`);
    // the server's judgment of the gate's vs_base rules: a FAIL fails the command (vsBaseFailed)
    const gate = outcome.vsBaseGate ? vsBaseGateLines(outcome.vsBaseGate) : [];
    for (const line of gate) say(line);
    stepSummary(io, runId, outcome.url, outcome.vsBase, gate);
  } else if (outcome.kind === 'refused' && outcome.status === 409) {
    // another run under this id is on the server: sending this one later cannot succeed either
    io.err(
      `rgate: warning: ${target.server} refused run ${runId} (${outcome.reason}); not kept pending: the server keeps its copy`,
    );
  } else {
    const file = savePending(outDir, target, upload);
    const where = relative(io.cwd, file) || file;
    io.err(
      outcome.kind === 'unreachable'
        ? `rgate: warning: ${target.server} could not take run ${runId} (${outcome.reason}); kept in ${where}: send it later with rgate upload --pending`
        : `rgate: warning: ${target.server} refused run ${runId} (${outcome.reason}); kept in ${where}: fix the cause, then rgate upload --pending`,
    );
  }
  return outcome;
}

/**
 * Upload a comparison session: its variants' runs first (from `runs`, where `rgate compare` ran
 * them), then the session, whose page links each variant to its run. Progress goes to stderr, the
 * session's URL to stdout unless `json`. Nothing is lost: once the server cannot be reached, every
 * run not yet sent and the session are kept as pending (without waiting out the retries of each), and
 * `rgate upload --pending` sends the runs, then the session.
 */
export async function uploadCompareSession(
  io: CliIo,
  runs: RunStore,
  session: CompareSession,
  target: UploadTarget,
  outDir: string,
  opts: { retries?: number | undefined; json?: boolean | undefined },
): Promise<'uploaded' | 'pending'> {
  const id = session.environment.session_id;
  let down: string | undefined;
  for (const v of session.variants) {
    if (down !== undefined) {
      savePending(outDir, target, uploadOf(runs, v.run_id));
      continue;
    }
    const outcome = await uploadStoredRun(io, runs, v.run_id, target, outDir, {
      retries: opts.retries,
      json: true,
    });
    if (outcome.kind === 'unreachable' || outcome.kind === 'refused') down = outcome.reason;
  }
  const keep = (why: string): 'pending' => {
    const file = savePendingSession(outDir, target, session);
    io.err(
      `rgate: warning: ${why}; session ${id} kept in ${relative(io.cwd, file) || file}: ${
        why.includes('refused') ? 'fix the cause, then' : 'send it later with'
      } rgate upload --pending`,
    );
    return 'pending';
  };
  if (down !== undefined) return keep(`not every run of the session reached ${target.server} (${down})`);
  const outcome = await sendSession(
    target,
    session,
    opts.retries === undefined ? {} : { retries: opts.retries },
  );
  if (outcome.kind === 'stored' || outcome.kind === 'exists') {
    (opts.json ? io.err : io.out)(
      outcome.kind === 'stored'
        ? `uploaded session ${id}: ${outcome.url}`
        : `session ${id} is already on the server (nothing new stored): ${outcome.url}`,
    );
    return 'uploaded';
  }
  return keep(
    outcome.kind === 'unreachable'
      ? `${target.server} could not take session ${id} (${outcome.reason})`
      : `${target.server} refused session ${id} (${outcome.reason})`,
  );
}

/**
 * In a GitHub Actions job (`GITHUB_STEP_SUMMARY` names a file), the uploaded run's links are added to
 * the step summary beside the report the workflow appends there: the run's dashboard page and, for a
 * branch's run, its comparison with the base branch. A summary that cannot be written costs a warning.
 */
function stepSummary(
  io: CliIo,
  runId: string,
  url: string,
  vsBase: string | undefined,
  gate: readonly string[],
): void {
  const file = io.env.GITHUB_STEP_SUMMARY;
  if (!file) return;
  const lines = [`- rgate run \`${runId}\` on the dashboard: ${url}`];
  if (vsBase) lines.push(`- against its base branch: ${vsBase}`);
  // the verdict line, then its rules under it
  if (gate.length) lines.push(`- ${gate[0]}`, ...gate.slice(1).map((l) => `  - ${l}`));
  try {
    appendFileSync(file, `${lines.join('\n')}\n`);
  } catch (e) {
    io.err(`rgate: warning: the step summary ${file} could not be written: ${(e as Error).message}`);
  }
}
