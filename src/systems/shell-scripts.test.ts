import { describe, expect, it } from 'vitest';
import { isRgateError, type RgateError } from '../core/errors.js';
import { resolveConfig } from '../core/resolve-config.js';
import { createSystem } from './index.js';
import { checkShellScripts, shellScriptIndexes } from './shell-scripts.js';

function refusal(argv: string[], env?: Record<string, string>): RgateError | undefined {
  try {
    checkShellScripts(argv, env, 'system');
    return undefined;
  } catch (e) {
    if (!isRgateError(e)) throw e;
    return e;
  }
}

describe('the script a shell in argv parses as code', () => {
  it.each([
    [['sh', '-c', 'x'], 0, [2]],
    [['/bin/sh', '-c', 'x', 'sh', 'y'], 0, [2]],
    [['bash', '-ec', 'x'], 0, [2]],
    [['bash', '-lc', 'x'], 0, [2]],
    [['bash', '-e', '-c', 'x'], 0, [3]],
    [['bash', '-o', 'pipefail', '-c', 'x'], 0, [4]],
    [['bash', '-eo', 'pipefail', '-c', 'x'], 0, [4]],
    [['bash', '--norc', '--rcfile', 'f', '-c', 'x'], 0, [5]],
    [['dash', '-c', '--', 'x'], 0, [3]],
    [['zsh', '-c', 'x'], 0, [2]],
    [['/usr/bin/ksh93', '-c', 'x'], 0, [2]],
    [['bash5', '-c', 'x'], 0, [2]],
    [['tcsh', '-fc', 'x'], 0, [2]],
    [['fish', '-c', 'x'], 0, [2]],
    [['fish', '-cx'], 0, [1]],
    [['fish', '--command=x'], 0, [1]],
    [['fish', '-C', 'init', '-c', 'x'], 0, [2, 4]],
    // a script file, or -s: the arguments after it are positional, not parsed
    [['sh', 'run.sh', '-c', 'x'], 0, []],
    [['bash', '-s', 'x'], 0, []],
    [['sh', '+c', 'x'], 0, []],
    // not a shell
    [['shx', '-c', 'x'], 0, []],
    [['ssh', '-c', 'aes128-ctr', 'host'], 0, []],
  ])('%j', (argv, at, indexes) => {
    expect(shellScriptIndexes(argv, at)).toEqual(indexes);
  });
});

describe('checkShellScripts', () => {
  it.each([
    [['sh', '-c', 'mytool --q {query} | jq .']],
    [['/bin/sh', '-c', "mytool --q '{query}'"]],
    [['bash', '-ec', 'mytool {query_id}']],
    [['bash', '-lc', 'cd {corpus_dir} && mytool']],
    [['env', 'sh', '-c', 'mytool {exact_key}']],
    [['/usr/bin/env', '-i', 'A=1', 'bash', '-c', 'mytool {params.mode}']],
    [['timeout', '5', 'dash', '-c', 'mytool {config.k}']],
    [['docker', 'exec', 'ctr', 'zsh', '-c', 'mytool --token {env.TOKEN}']],
    [['ksh', '-c', 'mytool {profile} {replay} {k}']],
  ])('refuses a placeholder in the script: %j', (argv) => {
    const e = refusal(argv);
    const i = argv.findIndex((a) => a.startsWith('mytool') || a.startsWith('cd '));
    expect(e?.code).toBe('config_invalid');
    expect(e?.at).toBe(`system/argv/${i}`);
    expect(e?.message).toMatch(/is inside the script \S+ runs: .* would run as a command/);
    expect(e?.hint).toContain('pass the value after the script');
  });

  it('gives the safe form with the shell as written and the placeholder found', () => {
    const e = refusal(['/bin/sh', '-c', 'mytool --q {query} | jq .']);
    expect(e?.message).toBe(
      'system/argv/2: {query} is inside the script sh runs: sh parses the filled-in text as code, so a query such as $(touch pwned) from an imported set would run as a command',
    );
    expect(e?.hint).toContain('["/bin/sh","-c","mytool --q \\"$1\\"","sh","{query}"]');
  });

  it.each([
    [['sh', '-c', 'mytool --q "$1" | jq .', 'sh', '{query}']],
    [['sh', '-c', 'mytool --q "$Q"']],
    [['sh', '-c', 'mytool {{query}}']],
    [['sh', 'search.sh', '{query}']],
    [['node', 'search.mjs', '--shell', 'sh', '{query}']],
    [['mytool', '-c', '{query}']],
  ])('lets through what no shell parses as code: %j', (argv) => {
    expect(refusal(argv, { Q: '{query}' })).toBeUndefined();
  });

  it.each([['BASH_ENV'], ['ENV'], ['PS4'], ['SHELLOPTS'], ['BASH_FUNC_mytool%%']])(
    'refuses a placeholder in %s, which a shell reads at startup, for any command',
    (name) => {
      const e = refusal(['node', 'search.mjs'], { Q: '{query}', [name]: 'x{query}' });
      expect(e?.at).toBe(`system/env/${name}`);
      expect(e?.hint).toBe('give the value another name ("env": {"Q": "{query}"}) and read it quoted ("$Q")');
    },
  );

  it('is the check every command system passes when it is built (library entry, run, compare)', () => {
    const suite = { corpus: [], config: resolveConfig({}), dir: '/nowhere' };
    expect(() =>
      createSystem({ type: 'command', argv: ['sh', '-c', 'mytool {query}'], contract: 'rgate' }, suite),
    ).toThrow(/system\/argv\/2: \{query\} is inside the script sh runs/);
  });
});
