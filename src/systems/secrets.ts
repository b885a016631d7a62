import { envNames } from './placeholders.js';
import type { RawObservation } from './types.js';

/** One `{env.NAME}` a system's templates read, with the value it has in this process. */
export interface Secret {
  name: string;
  value: string;
}

/**
 * The secrets a system's templates read (`{env.NAME}` in argv, env or headers), longest value first so a
 * value that contains another is masked whole. Only set, non-empty values: the preflight refused the rest.
 */
export function secretsOf(
  templates: readonly string[],
  environment: Readonly<Record<string, string | undefined>> = process.env,
): Secret[] {
  return envNames(templates)
    .map((name) => ({ name, value: environment[name] ?? '' }))
    .filter((s) => s.value !== '')
    .sort((a, b) => b.value.length - a.value.length || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The text with every secret value replaced by its template `{env.NAME}`. */
export function redactText(text: string, secrets: readonly Secret[]): string {
  let out = text;
  for (const s of secrets) if (out.includes(s.value)) out = out.split(s.value).join(`{env.${s.name}}`);
  return out;
}

/**
 * Mask secrets in what rgate records of a failure: the error message and stderr (a system that echoes
 * its argv or environment when it fails, a spawn error naming the command) and contract errors. The
 * answer itself (ranked items) is the system's evidence and is kept as it came.
 */
export function redactObservation(o: RawObservation, secrets: readonly Secret[]): RawObservation {
  if (secrets.length === 0) return o;
  const error = o.error && {
    ...o.error,
    message: redactText(o.error.message, secrets),
    ...(o.error.stderr !== undefined ? { stderr: redactText(o.error.stderr, secrets) } : {}),
  };
  return {
    ...o,
    ...(error ? { error } : {}),
    contract: { ...o.contract, errors: o.contract.errors.map((e) => redactText(e, secrets)) },
  };
}
