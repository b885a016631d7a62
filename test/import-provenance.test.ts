/**
 * PROVENANCE.md's "Produced by" command reproduces the set: each `rgate import dir` option that
 * changes what is written is imported once, the command it recorded is run again by a real shell
 * (through the compiled CLI) into another folder, and the two sets are compared byte for byte. Each
 * case also shows its option matters (the set without it differs, or is refused). A guard holds every
 * other option of `rgate import` to the same rule: recorded, or named here as not changing the set.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import yargs from 'yargs';
import { afterAll, describe, expect, it } from 'vitest';
import { importCommand, commandLine, type ImportArgs } from '../src/cli/commands/import.js';
import { runCli } from '../src/cli/program.js';
import { captureIo } from './helpers/cli-io.js';
import { compiledCli } from './helpers/dist.js';
import { tempDir } from './history-helpers.js';

const t = tempDir('rgate-import-prov-');
afterAll(() => t.cleanup());
const mtime = new Date('2026-03-04T05:06:07Z');

function put(rel: string, text: string): void {
  const p = join(t.dir, rel);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, text);
  utimesSync(p, mtime, mtime);
}
// a tree with a space in its name (the command must quote it), a dot-directory and two extensions;
// another with a symlink to a file outside it
put('my tree/.cortex/a.md', 'decision a');
put('my tree/specs/b.md', 'spec b');
put('my tree/notes/c.txt', 'note c');
put('outside/d.md', 'outside d');
put('linked/specs/b.md', 'spec b');
symlinkSync(join(t.dir, 'outside', 'd.md'), join(t.dir, 'linked', 'specs', 'd.md'));
put('q.jsonl', JSON.stringify({ query_id: 'q1', text: 'spec', useful_ids: ['specs/b.md'] }) + '\n');
put(
  'q-unknown.jsonl',
  JSON.stringify({ query_id: 'q1', text: 'spec', qrels: { 'specs/gone.md': 1 } }) + '\n',
);
put('config.json', JSON.stringify({ mode: 'bm25', k: 10 }));

const files = (set: string): Record<string, string> => {
  const dir = join(t.dir, 'fixtures', set);
  return Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
};

let n = 0;
/** Import in process into a new set; its files, or null when the import was refused. */
async function importSet(args: string[]): Promise<{ set: string; files: Record<string, string> } | null> {
  const set = `set-${++n}`;
  const io = captureIo(t.dir);
  const code = await runCli(['import', 'dir', ...args, '--out', `fixtures/${set}`], io);
  if (code !== 0) {
    expect(code, io.stderr.join('\n')).toBe(2);
    return null;
  }
  return { set, files: files(set) };
}

const recorded = (provenance: string): string => /```sh\n(.*)\n```/.exec(provenance)![1]!;

/** [flag, tree, arguments with it, arguments without it]: each option of `import dir` that changes the set */
const CASES: [flag: string, tree: string, args: string[], without: string[]][] = [
  ['--dot-dir', 'my tree', ['--dot-dir', '.cortex'], []],
  ['--ext', 'my tree', ['--ext', 'txt'], []],
  ['--follow-symlinks', 'linked', ['--follow-symlinks'], []],
  ['--record-kind', 'my tree', ['--record-kind', 'tactical'], []],
  ['--queries', 'my tree', ['--queries', 'q.jsonl'], []],
  [
    '--keep-unknown-judgments',
    'my tree',
    ['--queries', 'q-unknown.jsonl', '--keep-unknown-judgments'],
    ['--queries', 'q-unknown.jsonl'],
  ],
  ['--config', 'my tree', ['--config', 'config.json'], []],
];
const content = (f: Record<string, string>): string =>
  ['corpus.jsonl', 'queries.jsonl', 'config.json'].map((n) => f[n]).join('\n');

describe('rgate import dir: the recorded command reproduces the set', () => {
  it.each(CASES)('%s', async (flag, tree, args, withoutArgs) => {
    const first = await importSet([tree, ...args]);
    if (!first) throw new Error(`${flag}: the first import was refused`);
    const without = await importSet([tree, ...withoutArgs]);
    // the option matters: without it the set differs, or the import is refused
    if (without) expect(content(without.files)).not.toBe(content(first.files));

    const command = recorded(first.files['PROVENANCE.md']!);
    expect(command).toContain(flag);
    expect(command.startsWith(`rgate import dir ${tree === 'my tree' ? "'my tree'" : tree} `)).toBe(true);
    const again = `${first.set}-again`;
    const rerun = command
      .replace(/^rgate /, `${JSON.stringify(process.execPath)} ${JSON.stringify(compiledCli())} `)
      .replace(/ --out fixtures\/\S+$/, ` --out fixtures/${again}`);
    expect(rerun).toContain(`--out fixtures/${again}`);
    const r = spawnSync('/bin/sh', ['-c', rerun], { cwd: t.dir, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const second = files(again);
    expect(Object.keys(second).sort()).toEqual(Object.keys(first.files).sort());
    for (const [f, text] of Object.entries(first.files))
      expect(second[f]!.replaceAll(again, first.set), f).toBe(text);
  });

  it('a .cortex tree: --dot-dir takes its files, and the command says so', async () => {
    const s = (await importSet(['my tree', '--dot-dir', '.cortex', '--ext', 'md']))!;
    const ids = s.files['corpus.jsonl']!.trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { id: string }).id);
    expect(ids).toEqual(['.cortex/a.md', 'specs/b.md']);
    expect(recorded(s.files['PROVENANCE.md']!)).toBe(
      `rgate import dir 'my tree' --ext md --dot-dir .cortex --out fixtures/${s.set}`,
    );
  });
});

describe('rgate import: every option is recorded or does not change the set', () => {
  // these decide whether and how the set is written, never what it holds
  // --only-judged is BEIR's default now (accepted for the commands that named it): it changes nothing
  const NOT_RECORDED = new Set([
    'out',
    'force',
    'freeze',
    'version',
    'reset-note',
    'date',
    'json',
    'help',
    'only-judged',
  ]);
  it('commandLine names each other option when it is set', () => {
    // yargs keeps what its builder declared; its typings do not show getOptions
    const built = (importCommand.builder as (y: ReturnType<typeof yargs>) => unknown)(yargs([])) as {
      getOptions(): {
        key: Record<string, unknown>;
        boolean: string[];
        array: string[];
        choices: Record<string, string[]>;
      };
    };
    const opts = built.getOptions();
    const choices = opts.choices;
    const keys = Object.keys(opts.key).filter(
      (k) => !NOT_RECORDED.has(k) && !['kind', 'path', '$0'].includes(k),
    );
    expect(keys.length).toBeGreaterThan(15);
    for (const k of keys) {
      const value = opts.boolean.includes(k)
        ? true
        : choices[k]
          ? choices[k].at(-1) // the last choice: none of the import's implied ones (drop, canonical) comes last
          : opts.array.includes(k)
            ? ['v']
            : 'v';
      const line = commandLine({ kind: 'dir', out: 'fixtures/x', [k]: value } as ImportArgs);
      expect(line, k).toContain(`--${k}`);
    }
  });
});
