/**
 * Which probe inputs a system under test can receive. An exact-key probe asks the system to look a
 * record up by its key: a system whose request carries no `{exact_key}` gets the key only as query
 * text, so whatever it answers says nothing about its exact-key fallback. Such probes are "not
 * applicable to this system" (with the reason and the fix), not unmet expectations, unless the system
 * declares that the query text is how it takes a key (`"exact_key": "as_query"`: memory-cli); then the
 * probe's key is what it is sent as its query.
 */
import type { QueryRecord, SystemSpec } from '../documents/index.js';

/** An exact-key probe: it hands the system a key and expects the exact-key fallback to answer. */
export function isExactKeyProbe(q: QueryRecord): boolean {
  return q.exact_key !== undefined && q.expect?.selection_mode === 'fallback_exact_key';
}

/**
 * The query as a system is sent it: an exact-key probe to a system that takes the key as its query
 * text carries the key as its text (a probe's text may be a question about the record, not its key).
 */
export function querySent(system: SystemSpec, q: QueryRecord): QueryRecord {
  if (system.type === 'builtin' || system.exact_key !== 'as_query' || !isExactKeyProbe(q)) return q;
  return { ...q, text: q.exact_key! };
}

const EXACT_KEY = '{exact_key}';

export interface ProbeChannel {
  /** the system receives the probe's input as such */
  receives: boolean;
  /** how it receives it, or why it cannot */
  reason: string;
  /** what to change so it can (empty when it can) */
  fix: string;
}

const AS_QUERY: ProbeChannel = {
  receives: true,
  reason: 'it takes the exact key as its query text (system.exact_key "as_query")',
  fix: '',
};

const has = (values: readonly string[]): boolean => values.some((v) => v.includes(EXACT_KEY));

/** Can this system receive an exact-key probe's key (`{exact_key}` in its argv, env, headers or filters; a worker's request; the builtin semantic engine)? */
export function exactKeyChannel(system: SystemSpec, builtinMode?: string): ProbeChannel {
  switch (system.type) {
    case 'builtin': {
      const mode = system.mode ?? builtinMode ?? '';
      return mode === 'semantic'
        ? { receives: true, reason: 'the builtin semantic engine takes the exact key', fix: '' }
        : {
            receives: false,
            reason: `the builtin ${mode} engine takes no exact key (only semantic selection has an exact-key fallback)`,
            fix: 'run exact-key probes against a system with an exact-key fallback (builtin mode "semantic")',
          };
    }
    case 'command':
      if (system.exact_key === 'as_query') return AS_QUERY;
      if (system.worker === true)
        return { receives: true, reason: "a worker's request carries exact_key", fix: '' };
      if (has(system.argv) || has(Object.values(system.env ?? {})))
        return { receives: true, reason: `${EXACT_KEY} is in its argv or env`, fix: '' };
      return {
        receives: false,
        reason: `its argv and env have no ${EXACT_KEY}: the key would reach it only as query text`,
        fix: `pass the key, e.g. add "--exact-key", "${EXACT_KEY}" (the system's own flag) to system.argv, or an env value "${EXACT_KEY}"; a system that looks a key up from its query text (memory-cli) takes it with "exact_key": "as_query"`,
      };
    case 'module':
    case 'function':
      if (system.exact_key === 'as_query') return AS_QUERY;
      return { receives: true, reason: "a module's or function's request carries exact_key", fix: '' };
    case 'http':
      if (system.exact_key === 'as_query') return AS_QUERY;
      if (has(Object.values(system.headers ?? {})) || has(Object.values(system.filters ?? {})))
        return { receives: true, reason: `${EXACT_KEY} is in its headers or filters`, fix: '' };
      return {
        receives: false,
        reason: `its request (seed 004 RetrievalQuery) has no exact-key field and no header or filter holds ${EXACT_KEY}: the key would reach it only as query text`,
        fix: `add a header or filter whose value is "${EXACT_KEY}" (e.g. system.headers {"x-exact-key": "${EXACT_KEY}"}); a system that looks a key up from its query text takes it with "exact_key": "as_query"`,
      };
  }
}
