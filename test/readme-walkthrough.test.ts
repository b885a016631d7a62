/**
 * The Gate C walkthrough of docs/gate-c-closeout.md (issue #14; in the README until issue 34 moved
 * it), run as written: the commands between the
 * `walkthrough:gate-c` markers, in a copy of the project, through the real CLI and a real SQLite
 * history. The closeout must compare two different runs (a real uplift, not +0.0%) and must not warn;
 * closing out the baseline run itself must warn.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/program.js';
import type { CloseoutDoc } from '../src/documents/index.js';
import { captureIo } from './helpers/cli-io.js';
import { REPO } from './helpers/dist.js';

/**
 * The figures the doc quotes from step 3, each a `code` span of the sentence after the block
 * ("On the bundled set, step 3 shows ... so the closeout FAILs"): each must be printed as it stands.
 */
function quotedFigures(): string[] {
  const readme = readFileSync(join(REPO, 'docs', 'gate-c-closeout.md'), 'utf8');
  const m =
    /<!-- \/walkthrough:gate-c -->\n\nOn the bundled set, step 3 shows([\s\S]*?)so the closeout\s+FAILs/.exec(
      readme,
    );
  if (!m)
    throw new Error(
      'docs/gate-c-closeout.md: no "On the bundled set, step 3 shows" sentence after the walkthrough',
    );
  return [...m[1]!.matchAll(/`([^`]+)`/g)].map((f) => f[1]!.replace(/\s+/g, ' '));
}

/** The walkthrough's command lines: `rgate ...` without comments, split like a shell would (double quotes). */
function walkthrough(): string[][] {
  const readme = readFileSync(join(REPO, 'docs', 'gate-c-closeout.md'), 'utf8');
  const m = /<!-- walkthrough:gate-c -->\n```sh\n([\s\S]*?)```\n<!-- \/walkthrough:gate-c -->/.exec(readme);
  if (!m) throw new Error('docs/gate-c-closeout.md has no walkthrough:gate-c block');
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

describe('docs/gate-c-closeout.md: the Gate C walkthrough', () => {
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
    // what the doc says step 3 shows is what it prints, figure for figure
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

    // ...and lists the queries behind the nDCG rule: its counts over the queries both runs measured,
    // then the 10 largest drops, delta ascending and query id on ties, each with its text
    const section6 = md.slice(md.indexOf('## 6.'), md.indexOf('## 7.'));
    const counts = new RegExp(
      `^\`ndcg_cut\\.5 vs baseline\` against baseline run \`${baselineId}\`: dropped (\\d+)/(\\d+), tied (\\d+)/\\2, improved (\\d+)/\\2 \\(of the queries both runs measured\\); paired sign-flip p=(\\S+)\\.$`,
      'm',
    ).exec(section6);
    expect(counts, section6).not.toBeNull();
    const [dropped, n, tied, improved] = counts!.slice(1, 5).map(Number) as [number, number, number, number];
    const p = counts![5]!;
    expect(dropped + tied + improved).toBe(n);
    expect(dropped).toBeGreaterThanOrEqual(10);
    expect(closeout.out).toContain(
      `ndcg_cut.5 vs baseline, per query: dropped ${dropped}/${n}, tied ${tied}/${n}, improved ${improved}/${n}; paired sign-flip p=${p}; largest drop `,
    );
    // the order is held on the JSON's exact deltas (the Markdown's are rounded to 4 places)
    const json = JSON.parse(
      readFileSync(join(project, '.rgate', 'closeout', `context-load-${runId}`, 'closeout.json'), 'utf8'),
    ) as CloseoutDoc;
    const ndcg = json.ranking_evidence!.find((e) => e.rule === 'ndcg_cut.5 vs baseline')!;
    expect(ndcg).toMatchObject({ kind: 'vs_baseline', n, dropped, tied, improved });
    // 54 of 60 moved queries dropped: no chance (the p as the Markdown writes it, from the JSON's)
    expect(ndcg.p_value!).toBeLessThan(0.0001);
    expect(p).toBe(ndcg.p_exact === false ? `~${ndcg.p_value!.toFixed(4).slice(1)}` : '<.0001');
    // ...and the closeout itself says what that ~ is: the floor of an estimate, not a figure
    if (ndcg.p_exact === false)
      expect(section6).toContain('~ marks an estimate from 10000 seeded permutations, never below 1/10001');
    expect(ndcg.queries).toHaveLength(10);
    for (let i = 1; i < ndcg.queries.length; i++) {
      const [a, b] = [ndcg.queries[i - 1]!, ndcg.queries[i]!];
      expect(a.delta! < b.delta! || (a.delta === b.delta && a.query_id < b.query_id)).toBe(true);
    }
    const table = section6.slice(section6.indexOf('Largest drops:', counts!.index));
    const rows = [...table.matchAll(/^\| `(\S+)` \| (.+) \| [\d.]+ \| [\d.]+ \| -[\d.]+ \|$/gm)].slice(0, 10);
    expect(rows.map((r) => r[1])).toEqual(ndcg.queries.map((q) => q.query_id));
    for (const r of rows) expect(r[2]!.trim()).not.toBe('');
    // a second closeout of the same run writes the same bytes
    const again = await rgate([...steps[3]!, '--out', 'closeout-again']);
    expect(again.code).toBe(1);
    for (const f of ['closeout.md', 'closeout.html', 'closeout.json'])
      expect(readFileSync(join(project, 'closeout-again', f), 'utf8'), f).toBe(
        readFileSync(join(project, '.rgate', 'closeout', `context-load-${runId}`, f), 'utf8'),
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
