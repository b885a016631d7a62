import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompareSession } from '../src/documents/index.js';
import { COMPARE_EXAMPLES } from '../src/cli/commands/compare.js';
import { runCli } from '../src/cli/program.js';
import { captureIo } from './helpers/cli-io.js';
import { writeMemoryProject } from './helpers/memory-project.js';
import { tempDir } from './history-helpers.js';

/**
 * Every comparison `rgate compare --help`, docs/tuning.md's "Tuning comparisons" block and docs/server.md
 * show runs, in process on real runs: on the project as shipped, or (the `memory` suite, which exists
 * only as docs/real-retrievers.md's System parameters setup) on that setup with test/sut/memory-modes.mjs. Each must make
 * variants that differ somewhere: an example whose variants tie on every query teaches a setting
 * that does nothing.
 */
const REPO = resolve(import.meta.dirname, '..');
const t = tempDir('rgate-compare-examples-');
afterAll(() => t.cleanup());
beforeAll(async () => {
  writeMemoryProject(t.dir, join(t.dir, 'modes.log'));
  expect(await runCli(['freeze', 'notes', '--date', '2026-11-23'], captureIo(t.dir))).toBe(0);
});

/** `rgate compare a "b c" d` -> ['a', 'b c', 'd'] (double quotes group, as a shell would). */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

/** docs/tuning.md's block (the README's until issue 34): its `rgate compare <suite> ...` comparisons (not --list / --show). */
function readmeComparisons(): string[] {
  const readme = readFileSync(join(REPO, 'docs', 'tuning.md'), 'utf8');
  const block = readme.slice(readme.indexOf('**Tuning comparisons.**'));
  const code = block.slice(block.indexOf('```sh'), block.indexOf('```', block.indexOf('```sh') + 5));
  return code
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => /^rgate compare [a-z]/.test(l))
    .map((l) => l.slice('rgate '.length));
}

/** docs/server.md's `npx rgate compare <suite> ...` lines (its upload example), as the docs write them. */
function serverDocComparisons(): string[] {
  return readFileSync(join(REPO, 'docs', 'server.md'), 'utf8')
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => /^npx rgate compare [a-z]/.test(l))
    .map((l) => l.slice('npx rgate '.length));
}

const comparisons = [
  ...new Set([
    ...COMPARE_EXAMPLES.map(([cmd]) => cmd).filter((c) => /--set|--sweep/.test(c)),
    ...readmeComparisons(),
    ...serverDocComparisons(),
  ]),
];

describe('the comparisons rgate compare --help and README show', () => {
  it('are found (help and README both)', () => {
    expect(comparisons).toContain('compare semantic --sweep semantic.hybrid_confidence_min=0.8:1:0.05');
    expect(comparisons.some((c) => c.startsWith('compare cacm'))).toBe(true);
    expect(comparisons.some((c) => c.startsWith('compare memory'))).toBe(true);
    // docs/server.md's upload example is one of them: a suite the project ships, keys its engine reads
    expect(serverDocComparisons()).toHaveLength(1);
    for (const c of serverDocComparisons()) expect(comparisons).toContain(c);
  });

  it.each(comparisons)(
    '%s: runs and its variants differ',
    async (cmd) => {
      const argv = words(cmd);
      // the upload half needs a server (test/server-sessions.test.ts); the comparison is this test's
      const upload = argv.indexOf('--upload');
      if (upload >= 0) argv.splice(upload, 4);
      const io = captureIo(argv[1] === 'memory' ? t.dir : REPO);
      const code = await runCli(
        [...argv, '--replays', '1', '--resamples', '200', '--permutations', '200', '--json', '--no-save'],
        io,
      );
      expect(io.stderr.join('\n')).not.toMatch(/error/i);
      expect(code).toBe(0);
      const s = JSON.parse(io.stdout.join('\n')) as CompareSession;
      expect(s.variants.length).toBeGreaterThanOrEqual(2);
      expect(new Set(s.variants.map((v) => v.config_id)).size).toBe(s.variants.length);
      // some per-query measure moved between some pair of variants
      expect(s.tests.some((x) => x.wins + x.losses > 0)).toBe(true);
    },
    120_000,
  );
});
