import { envNames } from './placeholders.js';
import type { RawObservation } from './types.js';

/** One `{env.NAME}` a system's templates read, with the value it has in this process. */
export interface Secret {
  name: string;
  value: string;
}

/**
 * Values shorter than this are not masked: `{env.K}` = `10` or a one-letter value is no secret, and
 * masking it in every string of an observation would rewrite ids, paths and messages beyond reading
 * (a token `t` turned every letter t into `{env.NAME}`).
 */
export const MIN_SECRET_LENGTH = 4;

/**
 * The secrets a system's templates read (`{env.NAME}` in argv, env or headers), longest value first so a
 * value that contains another is masked whole. Only set values of at least MIN_SECRET_LENGTH
 * characters: the preflight refused unset and empty ones.
 */
export function secretsOf(
  templates: readonly string[],
  environment: Readonly<Record<string, string | undefined>> = process.env,
): Secret[] {
  return envNames(templates)
    .map((name) => ({ name, value: environment[name] ?? '' }))
    .filter((s) => s.value.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.value.length - a.value.length || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The text with every secret value replaced by its template `{env.NAME}`. */
export function redactText(text: string, secrets: readonly Secret[]): string {
  let out = text;
  for (const s of secrets) if (out.includes(s.value)) out = out.split(s.value).join(`{env.${s.name}}`);
  return out;
}

/**
 * Mask secrets in every string of an observation: error message and stderr, contract errors, warnings,
 * and the answer itself (ids, text, a score given as a string). Walking the whole value rather than
 * naming fields means a field added later cannot be forgotten; a secret the system echoes as an id is
 * recorded as `{env.NAME}`, never as its value (the id is then wrong, which is the system's doing).
 */
export function redactObservation(o: RawObservation, secrets: readonly Secret[]): RawObservation {
  if (secrets.length === 0) return o;
  return redactDeep(o, secrets) as RawObservation;
}

function redactDeep(value: unknown, secrets: readonly Secret[]): unknown {
  if (typeof value === 'string') return redactText(value, secrets);
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, secrets));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactDeep(v, secrets);
    return out;
  }
  return value;
}
