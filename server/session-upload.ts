import { canonicalJson } from '../src/core/canonical-json.js';
import type { CompareSession } from '../src/documents/index.js';
import type { AsyncRunStore } from '../src/store/async-store.js';
import { sessionRow } from '../history/compare.js';

/** What storing an uploaded comparison session came to. */
export type SessionStoreOutcome =
  | { kind: 'stored' | 'exists' }
  /** refused: `path` is where in the uploaded document the cause is */
  | { kind: 'conflict'; path: string; message: string };

/**
 * Store an uploaded comparison session in its project, idempotent by session id: the same document
 * again is `exists` (compared as canonical JSON: a store may hand it back with its keys reordered),
 * another one under a stored id is a conflict. Every run the session names must be stored in the
 * project already, of the session's suite: the page links each variant to its run, and a session
 * whose runs are elsewhere would be a page of dead links. The client uploads the runs first.
 */
export async function storeUploadedSession(
  store: AsyncRunStore,
  project: string,
  session: CompareSession,
): Promise<SessionStoreOutcome> {
  for (const [i, v] of session.variants.entries()) {
    const row = await store.getRun(v.run_id);
    if (!row) {
      return {
        kind: 'conflict',
        path: `/variants/${i}/run_id`,
        message: `run ${v.run_id} (variant ${v.id}) is not stored in project ${project}: a session's runs exist only where rgate compare ran: upload them with the session (rgate compare --upload; a session kept pending is sent after its runs by rgate upload --pending)`,
      };
    }
    if (row.suite !== session.suite) {
      return {
        kind: 'conflict',
        path: `/variants/${i}/run_id`,
        message: `run ${v.run_id} (variant ${v.id}) is a run of suite ${JSON.stringify(row.suite)}, the session's suite is ${JSON.stringify(session.suite)}`,
      };
    }
  }
  const id = session.environment.session_id;
  // kept only if the id is new, in one statement: two server processes on one database uploading the
  // same id cannot both store it
  const stored = await store.saveCompareSession(sessionRow(session), session);
  if (stored === undefined) return { kind: 'stored' };
  if (canonicalJson(stored) === canonicalJson(session)) return { kind: 'exists' };
  return {
    kind: 'conflict',
    path: '/environment/session_id',
    message: `session ${id} is already stored in project ${project} with other content`,
  };
}
