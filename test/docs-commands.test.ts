/**
 * The command blocks of docs/ marked `docs-run:<name>`, run as written (issue 34, item 5): each
 * `rgate ...` line (a trailing `\` continues it) goes through the real CLI, in order, in a copy of
 * the project (its config, gates, fixture sets, the slices under test/data and docs/ itself, which
 * one import reads). Each must exit 0, or the code its comment opens with (`# exit 1: ...`), and
 * print what its comment quotes in backticks (stdout or stderr, whitespace runs as one). So a
 * command the docs show cannot stop running as written, as `import smart ... --out
 * fixtures/cranfield` (a frozen set) and a `merge` of one shard of three once did.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/program.js';
import { captureIo } from './helpers/cli-io.js';
import { REPO } from './helpers/dist.js';

interface Shown {
  argv: string[];
  exit: number;
  line: string;
  /** what the comment quotes in backticks: the command must print each */
  prints: string[];
}

/** The `docs-run:<name>` block of a doc: its rgate commands, each with the exit code it states. */
function shownCommands(doc: string, name: string): Shown[] {
  const text = readFileSync(join(REPO, doc), 'utf8');
  const m = new RegExp(
    `<!-- docs-run:${name} -->\\n\`\`\`sh\\n([\\s\\S]*?)\`\`\`\\n<!-- /docs-run:${name} -->`,
  ).exec(text);
  if (!m) throw new Error(`${doc} has no docs-run:${name} block`);
  const joined = m[1]!.replace(/\\\n\s*/g, '');
  return joined
    .split('\n')
    .filter((l) => l.startsWith('rgate '))
    .map((line) => {
      const comment = /\s+#\s*(.*)$/.exec(line)?.[1] ?? '';
      const command = line.replace(/\s+#.*$/, '');
      const argv = [...command.matchAll(/"([^"]*)"|(\S+)/g)].map((t) => t[1] ?? t[2]!).slice(1);
      const prints = [...comment.matchAll(/`([^`]+)`/g)].map((q) => q[1]!);
      return { argv, exit: Number(/^exit (\d+)/.exec(comment)?.[1] ?? 0), line: command, prints };
    });
}

const project = mkdtempSync(join(tmpdir(), 'rgate-docs-commands-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));
for (const path of ['rgate.config.json', 'gates', 'fixtures', 'test/data', 'docs'])
  cpSync(join(REPO, path), join(project, path), { recursive: true });

/** A shell's expansion of `dir/prefix*suffix` (the only glob the docs use), sorted as sh sorts it. */
function expand(arg: string): string[] {
  if (!arg.includes('*')) return [arg];
  const [head, tail] = basename(arg).split('*') as [string, string];
  const dir = dirname(arg);
  const hits = readdirSync(join(project, dir))
    .filter((f) => f.startsWith(head) && f.endsWith(tail))
    .sort();
  return hits.length > 0 ? hits.map((f) => join(dir, f)) : [arg];
}

describe.each([
  ['docs/snapshots.md', 'snapshots'],
  ['docs/nightly-ci.md', 'shards'],
])('%s, block %s', (doc, name) => {
  const commands = shownCommands(doc, name);

  it('has commands', () => expect(commands.length).toBeGreaterThan(1));

  // in order: each command reads what the ones before it wrote
  it.each(commands.map((c) => [c.line, c] as const))('%s', async (_line, { argv, exit, prints }) => {
    const io = captureIo(project);
    const code = await runCli(argv.flatMap(expand), io);
    const printed = `${io.stderr.join('\n')}\n${io.stdout.join('\n')}`;
    expect(code, printed).toBe(exit);
    const oneSpace = (t: string) => t.replace(/\s+/g, ' ');
    expect(
      prints.filter((p) => !oneSpace(printed).includes(oneSpace(p))),
      printed,
    ).toEqual([]);
  });
});
