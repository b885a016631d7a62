/**
 * The "gated as it is" blocks of docs/real-retrievers.md (issue #24; in the README until issue 34
 * moved them), run as written: between the `readme-run:<suite>`
 * markers, each `rgate run` line of the sh block goes through the real CLI in a copy of the project
 * (its config, gates, the suite's sets and recordings, the replaying executables), and every line of
 * the output block that follows must appear in what the command printed, in that order. A `...`
 * line stands for output left out; whitespace runs count as one space, since the terminal report
 * wraps at 80 columns. So a figure the docs show cannot drift from the one the tool prints.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../src/documents/index.js';
import { runCli } from '../src/cli/program.js';
import { captureIo } from './helpers/cli-io.js';
import { REPO } from './helpers/dist.js';

interface Shown {
  suite: string;
  commands: string[][];
  output: string[];
}

function shownRuns(): Shown[] {
  const readme = readFileSync(join(REPO, 'docs', 'real-retrievers.md'), 'utf8');
  const blocks = [...readme.matchAll(/<!-- readme-run:(\S+) -->\n([\s\S]*?)<!-- \/readme-run:\1 -->/g)];
  return blocks.map(([, suite, body]) => {
    const m = /```sh\n([\s\S]*?)```\n\s*```\n([\s\S]*?)```\n/.exec(body!);
    if (!m)
      throw new Error(`docs/real-retrievers.md: readme-run:${suite} needs a sh block, then an output block`);
    const commands = m[1]!
      .split('\n')
      .map((l) => l.replace(/\s+#.*$/, '').trim())
      .filter((l) => l.startsWith('rgate run '))
      .map((l) => [...l.matchAll(/"([^"]*)"|(\S+)/g)].map((t) => t[1] ?? t[2]!).slice(1));
    return { suite: suite!, commands, output: m[2]!.split('\n') };
  });
}

const oneSpace = (t: string) => t.replace(/\s+/g, ' ').trim();

/** The shown lines (`...` skipped) not found in order in the printed text, with where the search stood. */
function missing(shown: string[], printed: string): string[] {
  const text = oneSpace(printed);
  const misses: string[] = [];
  let at = 0;
  for (const line of shown.map(oneSpace).filter((l) => l && l !== '...')) {
    const i = text.indexOf(line, at);
    if (i < 0) misses.push(`${line}   (not found after: "${text.slice(Math.max(0, at - 60), at)}")`);
    else at = i + line.length;
  }
  return misses;
}

const project = mkdtempSync(join(tmpdir(), 'rgate-readme-runs-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));
for (const path of [
  'rgate.config.json',
  'gates',
  'fixtures/cortex-phase2',
  'fixtures/cortex-coach',
  'fixtures/memory-cli-set',
  'fixtures/memory-cli',
  'test/sut/cortex-coach-replay.mjs',
  'test/sut/memory-cli-replay.mjs',
])
  cpSync(join(REPO, path), join(project, path), { recursive: true });

describe('docs/real-retrievers.md: the real retrievers gated as they are', () => {
  const runs = shownRuns();

  it('shows both systems gated, each with its command', () => {
    expect(runs.map((r) => [r.suite, r.commands])).toEqual([
      ['cortex-coach', [['run', 'cortex-coach']]],
      ['memory-cli', [['run', 'memory-cli']]],
    ]);
  });

  for (const { suite, commands, output } of runs)
    it(`rgate ${commands[0]!.join(' ')} prints what the docs show`, async () => {
      const io = captureIo(project);
      const code = await runCli(commands[0]!, io);
      const printed = io.stdout.join('\n');
      expect(code, io.stderr.join('\n')).toBe(0); // both WATCH: exit 0
      expect(missing(output, printed), `${suite}:\n${printed}`).toEqual([]);
    }, 60_000);

  // The paragraph after the memory-cli block explains its figures in prose: each claim it makes is
  // read back from the same run's report.json, so an explanation cannot outlive its figures.
  it('the prose after the memory-cli block states the figures of its own run', async () => {
    const docs = readFileSync(join(REPO, 'docs', 'real-retrievers.md'), 'utf8');
    const after = docs.split('<!-- /readme-run:memory-cli -->\n')[1]!.trim().split('\n\n')[0]!;
    const prose = oneSpace(after);
    const io = captureIo(project);
    expect(await runCli(['run', 'memory-cli', '--json'], io), io.stderr.join('\n')).toBe(0);
    const report = JSON.parse(io.stdout.join('\n')) as Report;
    const rate = (id: string) => {
      const v = report.metrics.find((m) => m.id === id)?.value;
      return v?.kind === 'rate' ? `${v.numerator}/${v.denominator}` : `${id}: not a rate`;
    };
    const peer = report.peer_figures?.find((f) => f.id === 'memory_cli_evaluate.top1_useful_rate');
    const claims: [RegExp, string][] = [
      [/semantic top-1 rate is (\d+\/\d+)/, rate('top1_useful_rate')],
      [/`top1_useful_any_mode` (\d+\/\d+)/, rate('top1_useful_any_mode')],
      [/the CLI's own `evaluate` says (\d+\/\d+)/, `${peer?.numerator}/${peer?.denominator}`],
    ];
    expect(claims.map(([claim]) => claim.exec(prose)?.[1] ?? `no claim ${claim}`)).toEqual(
      claims.map(([, figure]) => figure),
    );
    // the top-1 named, its grade and how it came are the benchmark query's, as the run and its set say
    const named = /top-1 \(`([^`]+)`, graded (\d)\) is useful but came by the path-priority fallback/.exec(
      prose,
    );
    expect(named, 'the paragraph names the top-1, its grade and the fallback').not.toBeNull();
    const bench = report.queries.filter((q) => q.kind === 'benchmark');
    expect(bench.map((q) => [q.actual.top_ids[0], q.top1, q.actual.fallback_stage])).toEqual([
      [named![1], 'useful', 'path_priority'],
    ]);
    const set = readFileSync(join(project, 'fixtures', 'memory-cli-set', 'queries.jsonl'), 'utf8');
    const query = set
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { query_id: string; qrels?: Record<string, number> })
      .find((q) => q.query_id === bench[0]!.query_id);
    expect(query?.qrels?.[named![1]!]).toBe(Number(named![2]));
  }, 60_000);
});
