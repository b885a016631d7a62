/**
 * rgate never starts a shell: each argv element reaches the program as one argument. A command that
 * starts a shell itself (`["sh", "-c", "mytool --q {query} | jq ."]`, the ordinary way to add a pipe)
 * hands that shell a script, though, and a placeholder inside the script is pasted into code: a query
 * `$(touch pwned)` from an imported set, which nobody on the team wrote, would run. So a placeholder
 * in a shell's script is refused before any request, wherever a command spec is accepted. The safe
 * form passes the value after the script, as a positional argument the shell never parses as code.
 *
 * What is refused, and why only that:
 * - any placeholder (query-derived or not: `{corpus_dir}` is a path with any bytes, `{env.NAME}` a
 *   secret with any bytes) inside the script of a shell started with `-c` (also combined, `-ec`,
 *   `-lc`; fish's `-c` / `-C` / `--command` / `--init-command`), wherever the shell stands in argv:
 *   first, by path (`/bin/sh`), or after a wrapper (`env sh -c`, `timeout 5 sh -c`, `docker exec c sh -c`);
 * - a placeholder in an `env` value the shell reads as code or settings when it starts (`BASH_ENV`:
 *   bash expands it, command substitution included, on every non-interactive start; `ENV`, `PS4`,
 *   `PROMPT_COMMAND`, `SHELLOPTS`, `BASHOPTS`, `ZDOTDIR`, exported functions `BASH_FUNC_*`), for every
 *   command, since any program may be or start a shell script.
 * Not refused: a placeholder in an ordinary env value (`"Q": "{query}"`, read as `"$Q"`). A shell
 * never re-parses the result of an expansion as code, so that value is data exactly like `"$1"`; an
 * unquoted `$Q` or `$1` is split and globbed, and `eval "$Q"` runs it, but that is the script's own
 * text, which rgate shows the user and does not parse.
 */
import { basename } from 'node:path';
import { RgateError } from '../core/errors.js';
import { placeholdersIn } from './template-tokens.js';

// Unix shells that take a script with -c; a version suffix (bash5, ksh93) is the same shell
const SHELL =
  /^(sh|bash|rbash|dash|zsh|ksh|mksh|oksh|pdksh|lksh|ash|hush|yash|posh|csh|tcsh|fish)(?:-?\d[\d.]*)?$/;

/** Environment variables a shell reads as code or as its own settings when it starts. */
const STARTUP = new Set([
  'BASH_ENV',
  'ENV',
  'PS1',
  'PS2',
  'PS3',
  'PS4',
  'PROMPT_COMMAND',
  'SHELLOPTS',
  'BASHOPTS',
  'ZDOTDIR',
]);

function shellAt(argv: readonly string[], i: number): string | undefined {
  return SHELL.exec(basename(argv[i]!))?.[1];
}

/**
 * The indexes of the arguments a shell started at argv[at] parses as code. sh-like shells: the first
 * operand after the options, when an option cluster holds `c`; csh/tcsh: the argument right after that
 * cluster; fish: `-c` / `-C` (getopt: attached or the next argument), `--command`, `--init-command`.
 */
export function shellScriptIndexes(argv: readonly string[], at: number): number[] {
  const shell = shellAt(argv, at);
  if (shell === undefined) return [];
  const fish = shell === 'fish';
  const csh = shell === 'csh' || shell === 'tcsh';
  const code: number[] = [];
  let c = false;
  for (let i = at + 1; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--' || a === '-') {
      if (c && !fish && !csh) code.push(i + 1);
      break;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const opt = eq < 0 ? a : a.slice(0, eq);
      if (fish && (opt === '--command' || opt === '--init-command')) code.push(eq < 0 ? ++i : i);
      // bash's --rcfile / --init-file name a file in the next argument
      else if (eq < 0 && (opt === '--rcfile' || opt === '--init-file')) i++;
      continue;
    }
    if (a.length > 1 && (a[0] === '-' || a[0] === '+')) {
      const letters = a.slice(1);
      if (fish) {
        // getopt: the first letter taking a value takes the rest of the cluster, else the next argument
        const k = letters.search(/[cCdfop]/);
        if (k < 0) continue;
        const attached = k < letters.length - 1;
        if ('cC'.includes(letters[k]!)) code.push(attached ? i : i + 1);
        if (!attached) i++;
        continue;
      }
      if (a[0] === '-' && letters.includes('c')) {
        if (csh) {
          code.push(i + 1);
          break;
        }
        c = true;
      }
      // -o / -O take an option name in the next argument (bash -o pipefail, zsh -o, ksh -o)
      i += [...letters].filter((l) => l === 'o' || l === 'O').length;
      continue;
    }
    // the first operand ends the options: the script with -c, else a script file whose arguments follow
    if (c) code.push(i);
    break;
  }
  return code.filter((i) => i < argv.length);
}

/**
 * Refuse a placeholder that a shell would parse as code (see the top of this file). `where` is the
 * spec's JSON path (`system`); the error's `at` names the argument or env value.
 */
export function checkShellScripts(
  argv: readonly string[],
  env: Readonly<Record<string, string>> | undefined,
  where: string,
): void {
  for (let s = 0; s < argv.length; s++) {
    for (const i of shellScriptIndexes(argv, s)) {
      const found = placeholdersIn(argv[i]!)[0];
      if (found === undefined) continue;
      const shell = argv[s]!;
      const name = basename(shell);
      const arg = /^(fish|t?csh)/.test(name) ? '$argv[1]' : '"$1"';
      const at = `${where}/argv/${i}`;
      throw new RgateError(
        'config_invalid',
        `${at}: ${found} is inside the script ${name} runs: ${name} parses the filled-in text as code, so a query such as $(touch pwned) from an imported set would run as a command`,
        `pass the value after the script, where ${name} does not parse it, and quote it in the script: ${JSON.stringify([shell, '-c', `mytool --q ${arg}`, name, found])}; or give it as an env value ("env": {"Q": "${found}"}) and read "$Q"`,
        { at },
      );
    }
  }
  for (const key of Object.keys(env ?? {}).sort()) {
    if (!STARTUP.has(key) && !key.startsWith('BASH_FUNC_')) continue;
    const found = placeholdersIn(env![key]!)[0];
    if (found === undefined) continue;
    const at = `${where}/env/${key}`;
    throw new RgateError(
      'config_invalid',
      `${at}: ${found} in ${key}: a shell started with this environment (the command, or a script it runs) reads ${key} as code or settings, so a query such as $(touch pwned) would run as a command`,
      `give the value another name ("env": {"Q": "${found}"}) and read it quoted ("$Q")`,
      { at },
    );
  }
}
