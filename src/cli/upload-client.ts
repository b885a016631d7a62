import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { validateReportSchema } from '../contracts/report.js';
import { validateVsBaseGate } from '../contracts/server-requests.js';
import { RgateError } from '../core/errors.js';
import { readJsonFile } from '../core/jsonl.js';
import { compareCodeUnits } from '../core/canonical-json.js';
import {
  UPLOAD_SCHEMA_VERSION,
  type BaselineBody,
  type CompareSession,
  type RunUpload,
  type RunUploadAnswer,
  type RunUploadOutcome,
  type VsBaseGate,
  type SessionUploadOutcome,
} from '../documents/index.js';
import type { RunStore } from '../store/types.js';

/** Where `rgate upload` finds the server and its project token. */
export interface UploadTarget {
  server: string;
  project: string;
  token: string;
}

/** What the server did with a run (`rgate upload --json` prints it as it is). */
export type UploadOutcome = RunUploadOutcome;

/**
 * A finished run of the local history as the server takes it (the upload document): its stored row,
 * observations, measures and report. The stored plan keeps `{env.NAME}` templates, never their values,
 * so no secret can travel; the owner (host, pid) stays local.
 */
export function uploadOf(store: RunStore, runId: string): RunUpload {
  const row = store.getRun(runId);
  if (!row)
    throw new RgateError(
      'usage',
      `no run ${runId} in ${store.location}`,
      'rgate history lists the stored runs',
    );
  if (row.status === 'running' || row.status === 'abandoned' || row.finished_at === null) {
    throw new RgateError(
      'usage',
      `run ${runId} is ${row.status}: only a finished run can be uploaded`,
      'finish it first (rgate run --resume)',
    );
  }
  const report = store.getReport(runId);
  if (!validateReportSchema(report)) {
    throw new RgateError(
      'input_invalid',
      `run ${runId} in ${store.location} has no readable report`,
      'rgate report re-renders a stored run; rerun the suite',
    );
  }
  return {
    schema: UPLOAD_SCHEMA_VERSION,
    meta: {
      run_id: row.run_id,
      suite: row.suite,
      started_at: row.started_at,
      artifacts: row.artifacts,
      settings: row.settings,
      ...(row.plan ? { plan: row.plan } : {}),
      ...(row.content_key ? { content_key: row.content_key } : {}),
      // the commit and branch recorded when the run was made (never the checkout's at upload time,
      // which may have moved on: the same run uploaded twice must be the same document)
      ...(row.git ? { git: row.git } : {}),
      ...(row.compare_session !== undefined ? { compare_session: row.compare_session } : {}),
    },
    observations: store.getObservations(runId),
    result: {
      status: row.status,
      finished_at: row.finished_at,
      ...(row.gate_id ? { gate_id: row.gate_id } : {}),
      ...(row.verdict ? { verdict: row.verdict } : {}),
      metrics: store.getMetrics(runId),
      report,
    },
  };
}

export interface SendOptions {
  /** further attempts after the first (connection errors, 5xx, 429); default 4 */
  retries?: number;
  /** the first wait; it doubles each time (a Retry-After from the server wins, up to 30 s) */
  backoffMs?: number;
}

function base(server: string): string {
  return server.replace(/\/+$/, '');
}

/** What a POST to the server came to: its answer's page URL, or why not. */
type PostOutcome =
  | { kind: 'stored'; url: string; vsBase?: string; vsBaseGate?: VsBaseGate }
  | { kind: 'exists'; url: string; vsBase?: string; vsBaseGate?: VsBaseGate }
  | { kind: 'unreachable'; reason: string }
  | { kind: 'refused'; status: number; reason: string };

/**
 * POST a document to a project's collection (PUT a suite's baseline), retrying what a retry can fix.
 * The server stores each idempotently (runs and sessions by id; a baseline is a value), so a retry
 * after a lost answer stores nothing twice. The token goes in the
 * Authorization header, never in a message.
 */
async function postDocument(
  target: UploadTarget,
  collection: 'runs' | 'sessions' | `baselines/${string}`,
  document: unknown,
  opts: SendOptions,
  method: 'POST' | 'PUT' = 'POST',
): Promise<PostOutcome> {
  const retries = opts.retries ?? 4;
  let wait = opts.backoffMs ?? 500;
  const body = JSON.stringify(document);
  const url = `${base(target.server)}/api/projects/${encodeURIComponent(target.project)}/${collection}`;
  let last = '';
  for (let attempt = 0; ; attempt++) {
    let retryAfter: number | undefined;
    try {
      const res = await fetch(url, {
        method,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${target.token}` },
        body,
        signal: AbortSignal.timeout(300_000),
      });
      const text = await res.text();
      let answer: Partial<RunUploadAnswer> & { error?: string } = {};
      try {
        answer = JSON.parse(text) as typeof answer;
      } catch {
        // a proxy's HTML error page: its status says enough
      }
      if (res.status === 200 || res.status === 201) {
        const page = `${base(target.server)}${answer.url ?? ''}`;
        // a branch's run: its comparison with the base branch's run, when the server found one
        const vsBase =
          typeof answer.vs_base === 'string' ? { vsBase: `${base(target.server)}${answer.vs_base}` } : {};
        // its vs-base gate rules as the server judged them (a gate that does not read back is not shown)
        const gate = validateVsBaseGate(answer.vs_base_gate) ? { vsBaseGate: answer.vs_base_gate } : {};
        return { kind: res.status === 201 ? 'stored' : 'exists', url: page, ...vsBase, ...gate };
      }
      last = `HTTP ${res.status}${answer.error ? `: ${answer.error}` : ''}`;
      if (res.status !== 429 && res.status < 500)
        return { kind: 'refused', status: res.status, reason: last };
      const ra = Number(res.headers.get('retry-after'));
      if (Number.isFinite(ra) && ra > 0) retryAfter = Math.min(30_000, ra * 1000);
    } catch (e) {
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      last = cause?.code ?? cause?.message ?? (e as Error).message;
    }
    if (attempt >= retries) return { kind: 'unreachable', reason: last };
    await sleep(retryAfter ?? wait);
    wait *= 2;
  }
}

/** POST a run's upload (see postDocument). */
export async function sendUpload(
  target: UploadTarget,
  upload: RunUpload,
  opts: SendOptions = {},
): Promise<UploadOutcome> {
  const o = await postDocument(target, 'runs', upload, opts);
  return o.kind === 'stored' || o.kind === 'exists' ? { ...o, runId: upload.meta.run_id } : o;
}

/** POST a comparison session (its runs must be on the server already: upload them first). */
export async function sendSession(
  target: UploadTarget,
  session: CompareSession,
  opts: SendOptions = {},
): Promise<SessionUploadOutcome> {
  const o = await postDocument(target, 'sessions', session, opts);
  return o.kind === 'stored' || o.kind === 'exists' ? { ...o, sessionId: session.environment.session_id } : o;
}

export type BaselineOutcome =
  | { kind: 'set'; url: string }
  | { kind: 'unreachable'; reason: string }
  | { kind: 'refused'; status: number; reason: string };

/** PUT a suite's baseline on the server (the run must be there already: upload it first). */
export async function sendBaseline(
  target: UploadTarget,
  suite: string,
  baseline: BaselineBody,
  opts: SendOptions = {},
): Promise<BaselineOutcome> {
  const o = await postDocument(target, `baselines/${encodeURIComponent(suite)}`, baseline, opts, 'PUT');
  return o.kind === 'stored' || o.kind === 'exists' ? { kind: 'set', url: o.url } : o;
}

/**
 * An upload that could not be sent, kept in `<out dir>/pending-uploads/` until `rgate upload
 * --pending`: a run (`upload`) or a comparison session (`session`, sent after every run).
 */
export type PendingUpload =
  | { schema: 'rgate-pending-upload/1'; server: string; project: string; upload: RunUpload }
  | { schema: 'rgate-pending-session/1'; server: string; project: string; session: CompareSession };

export function pendingDir(outDir: string): string {
  return join(outDir, 'pending-uploads');
}

function writePending(outDir: string, name: string, doc: PendingUpload): string {
  const dir = pendingDir(outDir);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(`${file}.tmp`, JSON.stringify(doc));
  renameSync(`${file}.tmp`, file);
  return file;
}

/** Keep an upload for later (written whole, then renamed: a kill never leaves half a file). */
export function savePending(outDir: string, target: Omit<UploadTarget, 'token'>, upload: RunUpload): string {
  return writePending(outDir, `${upload.meta.run_id}--${target.project}.json`, {
    schema: 'rgate-pending-upload/1',
    server: target.server,
    project: target.project,
    upload,
  });
}

/** Keep a comparison session for later, as savePending keeps a run. */
export function savePendingSession(
  outDir: string,
  target: Omit<UploadTarget, 'token'>,
  session: CompareSession,
): string {
  return writePending(outDir, `session--${session.environment.session_id}--${target.project}.json`, {
    schema: 'rgate-pending-session/1',
    server: target.server,
    project: target.project,
    session,
  });
}

/**
 * The pending uploads: runs first, oldest first (their file names start with the run id, a
 * timestamp), then sessions, whose runs must reach the server before them.
 */
export function listPending(outDir: string): { file: string; pending: PendingUpload }[] {
  let names: string[];
  try {
    names = readdirSync(pendingDir(outDir)).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  const isSession = (n: string): number => (n.startsWith('session--') ? 1 : 0);
  return names
    .sort((a, b) => isSession(a) - isSession(b) || compareCodeUnits(a, b))
    .map((n) => {
      const file = join(pendingDir(outDir), n);
      return { file, pending: readJsonFile(file) as PendingUpload };
    });
}

export function dropPending(file: string): void {
  rmSync(file, { force: true });
}

/**
 * Take a pending upload the server can never take (it holds another document under the same id:
 * 409) out of the queue, into `pending-uploads/conflicts/`, so `rgate upload --pending` reports it
 * once instead of failing on it every time. Its new path.
 */
export function setAsidePending(file: string): string {
  const dir = join(dirname(file), CONFLICTS_DIR);
  mkdirSync(dir, { recursive: true });
  const moved = join(dir, basename(file));
  renameSync(file, moved);
  return moved;
}

const CONFLICTS_DIR = 'conflicts';
