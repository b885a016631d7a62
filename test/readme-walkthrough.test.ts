/**
 * The README's Gate C walkthrough, run as written (issue #14): the commands between the
 * `walkthrough:gate-c` markers, in a copy of the project, through the real CLI and a real SQLite
 * history. The closeout must compare two different runs (a real uplift, not +0.0%) and must not warn;
 * closing out the baseline run itself must warn.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/program.js';
import { captureIo } from './helpers/cli-io.js';
import { REPO } from './helpers/dist.js';

/**
 * The figures the README quotes from step 3, each a `code` span of the sentence after the block
 * ("On the bundled set, step 3 shows ... so the closeout FAILs"): each must be printed as it stands.
 */
function quotedFigures(): string[] {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const m =
    /<!-- \/walkthrough:gate-c -->\n\nOn the bundled set, step 3 shows([\s\S]*?)so the closeout\s+FAILs/.exec(
      readme,
    );
  if (!m) throw new Error('README.md: no "On the bundled set, step 3 shows" sentence after the walkthrough');
  return [...m[1]!.matchAll(/`([^`]+)`/g)].map((f) => f[1]!.replace(/\s+/g, ' '));
}

/** The walkthrough's command lines: `rgate ...` without comments, split like a shell would (double quotes). */
function walkthrough(): string[][] {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const m = /<!-- walkthrough:gate-c -->\n```sh\n([\s\S]*?)```\n<!-- \/walkthrough:gate-c -->/.exec(readme);
  if (!m) throw new Error('README.md has no walkthrough:gate-c block');
  return m[1]!
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l.startsWith('rgate '))
    .map((l) => [...l.matchAll(/"([^"]*)"|(\S+)/g)].map((t) => t[1] ?? t[2]!).slice(1));
}

const project = mkdtempSync(join(tmpdir(), 'rgate-walkthrough-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));
cpSync(join(REPO, 'rgate.config.json'), join(project, 'rgate.config.json'));
cpSync(join(REPO, 'gates'), join(project, 'gates'), { recursive: true });
cpSync(join(REPO, 'fixtures', 'context-load'), join(project, 'fixtures', 'context-load'), {
  recursive: true,
});

async function rgate(argv: string[]) {
  const io = captureIo(project);
  const code = await runCli(argv, io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

describe('README Gate C walkthrough', () => {
  it('runs as written and closes out a change against its baseline', async () => {
    const steps = walkthrough();
    expect(steps.map((s) => s[0])).toEqual(['run', 'baseline', 'run', 'closeout']);
    const results = [];
    for (const argv of steps) results.push(await rgate(argv));
    for (const r of results.slice(0, 3)) expect(r.code, r.err).toBe(0);
    const closeout = results[3]!;
    expect(closeout.err).not.toContain('warning');
    // the evaluated run is the second one, the baseline the first: a real difference is measured
    const baselineId = /run (\S+) \(/.exec(results[1]!.out)![1]!;
    expect(closeout.out).toMatch(/on run (\S+)/);
    expect(/on run (\S+)/.exec(closeout.out)![1]).not.toBe(baselineId);
    expect(closeout.out).toContain(`baseline ${baselineId}`);
    expect(closeout.out).toMatch(
      /ndcg_cut\.5 vs baseline: ndcg_cut\.5 [\d.]+ vs baseline [\d.]+: uplift -?\d/,
    );
    expect(closeout.out).not.toContain('uplift +0.0%');
    // what the README says step 3 shows is what it prints, figure for figure
    expect(closeout.code).toBe(1);
    expect(closeout.out).toMatch(/^Gate C closeout of context-load: FAIL \(context-load-gate-c-v0\)/);
    const figures = quotedFigures();
    expect(figures.length).toBeGreaterThanOrEqual(2);
    for (const f of figures) expect(closeout.out, f).toContain(f);
    // the latency rule's reason prints each profile's p95 with its digits: an in-process p95 is a
    // fraction of a millisecond, never "0 ms"
    const runId = /on run (\S+)/.exec(closeout.out)![1]!;
    const md = readFileSync(
      join(project, '.rgate', 'closeout', `context-load-${runId}`, 'closeout.md'),
      'utf8',
    );
    expect(md).toMatch(/large p95 [\d.]+ ms \(n=\d+\)/);
    expect(md).not.toMatch(/p95 0 ms/);
    // Gate C fails on measures over all queries: no query fails by itself, and the section says why
    expect(md).toContain(
      '## 6. Failing queries (0)\n\nNone counted per query: the failing rules (`ndcg_cut.5 vs baseline`, `recall.10`, `recall.10 vs baseline`) are judged on a measure over all queries',
    );

    // closing out the baseline run itself (the old README order) says why it proves nothing
    const self = await rgate([
      'closeout',
      'context-load',
      '--gate',
      'context-load-gate-c-v0',
      '--run',
      baselineId,
    ]);
    expect(self.err).toContain(`rgate: warning: run ${baselineId} is its own baseline`);
    const dir = join(project, '.rgate', 'closeout', `context-load-${baselineId}`);
    expect(readFileSync(join(dir, 'closeout.md'), 'utf8')).toContain('**Warning:** run');
    expect(JSON.parse(readFileSync(join(dir, 'closeout.json'), 'utf8')).warnings).toHaveLength(1);
    expect(readFileSync(join(dir, 'closeout.html'), 'utf8')).toContain('is its own baseline');
  });
});
