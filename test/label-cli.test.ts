/**
 * `rgate label` end to end through the compiled CLI on real runs: the builtin BM25 engine over a
 * small Cranfield cut (test/label-helpers.ts), a run and a comparison stored in a real SQLite history
 * in a temp project, the queue pooled from both, and grades merged into the frozen set.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompareSession, LabelQueueItem, Observation, QueryRecord } from '../src/documents/index.js';
import { SqliteRunStore } from '../src/store/index.js';
import { runCli } from '../src/cli/program.js';
import { captureIo } from './helpers/cli-io.js';
import { compiledCli } from './helpers/dist.js';
import { tempDir } from './history-helpers.js';
import { makeMiniProject, miniSession, rgate } from './label-helpers.js';

const t = tempDir('rgate-label-cli-');
let session = '';
let runId = '';
beforeAll(async () => {
  makeMiniProject(t.dir);
  session = await miniSession(t.dir);
  const r = await rgate(['run', 'mini', '--json'], t.dir);
  expect(r.code, r.stderr).toBe(0);
  runId = (JSON.parse(r.stdout) as { environment: { run_id: string } }).environment.run_id;
});
afterAll(() => t.cleanup());

const readJsonl = <T>(path: string): T[] =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);
const queriesOf = () => readJsonl<QueryRecord>(join(t.dir, 'fixtures', 'mini', 'queries.jsonl'));
const files = (dir: string) =>
  Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));

describe('rgate label queue', () => {
  it('pools a run: every unjudged doc of each replay top k, once, in review order', async () => {
    const r = await rgate(['label', 'queue', runId, '--k', '3', '--json'], t.dir);
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout) as { items: number; sources: string[]; files: { jsonl: string } };
    expect(summary.sources).toEqual(['r1', 'r2']);
    const items = readJsonl<LabelQueueItem>(summary.files.jsonl);
    expect(items.length).toBe(summary.items);

    // recompute the pool from the stored observations
    const store = new SqliteRunStore(join(t.dir, '.rgate', 'history.sqlite'));
    const obs: Observation[] = store.getObservations(runId);
    store.close();
    const queries = new Map(queriesOf().map((q) => [q.query_id, q]));
    const want = new Set<string>();
    for (const o of obs)
      for (const d of o.ranked.slice(0, 3).map((x) => x.id))
        if (!(d in (queries.get(o.query_id)!.qrels ?? {}))) want.add(`${o.query_id} ${d}`);
    expect(new Set(items.map((i) => `${i.query_id} ${i.doc_id}`))).toEqual(want);
    expect(want.size).toBe(items.length); // deduplicated
    // BM25 replays are identical: both replays surfaced everything, so best rank then ids decide
    for (const i of items) expect(i.surfaced_by).toEqual(['r1', 'r2']);
    const key = (i: LabelQueueItem) => [i.best_rank ?? 0, i.query_id, i.doc_id] as const;
    for (let j = 1; j < items.length; j++) {
      const [a, b] = [key(items[j - 1]!), key(items[j]!)];
      expect(a[0] < b[0] || (a[0] === b[0] && (a[1] < b[1] || (a[1] === b[1] && a[2] < b[2])))).toBe(true);
    }
    // title and text are the pinned corpus's
    const corpus = new Map(
      readJsonl<{ id: string; text: string }>(join(t.dir, 'fixtures', 'mini', 'corpus.jsonl')).map((d) => [
        d.id,
        d,
      ]),
    );
    for (const i of items) expect(i.text).toBe(corpus.get(i.doc_id)!.text);
  });

  it('pools a comparison session over its variants; the compare report counts the holes', async () => {
    const r = await rgate(['label', 'queue', session], t.dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^\d+ unjudged \(query, document\) pair\(s\) in \d+ of the \d+ judged queries, from the top 5 of 2 ranking\(s\) of compare cmp-/,
    );
    const dir = join(t.dir, '.rgate', 'label', session);
    expect(Object.keys(files(dir)).sort()).toEqual(['queue.html', 'queue.jsonl']);
    const items = readJsonl<LabelQueueItem>(join(dir, 'queue.jsonl'));

    const shown = await rgate(['compare', '--show', session, '--json'], t.dir);
    const s = JSON.parse(shown.stdout) as CompareSession;
    const holes = s.variants.map((v) => v.judgment_holes!.find((h) => h.k === 5)!);
    // every hole of either variant is one queue item surfaced by that variant
    for (const [i, v] of s.variants.entries())
      expect(items.filter((x) => (x.surfaced_by ?? []).includes(v.id)).length).toBe(holes[i]!.unjudged);
    expect(items.length).toBeGreaterThan(0);
    const counts = items.map((i) => (i.surfaced_by ?? []).length);
    expect([...counts].sort((a, b) => b - a)).toEqual(counts);

    const md = await rgate(['compare', '--show', session, '--format', 'md'], t.dir);
    expect(md.stdout).toContain('### Judgment holes');
    expect(md.stdout).toContain(`| v1 | bm25.k1=0.9 | ${holes[0]!.unjudged}/${holes[0]!.ranked}`);
    const term = await rgate(['compare', '--show', session], t.dir);
    expect(term.stdout).toContain(`rgate label queue ${session}`);
    const html = readFileSync(join(t.dir, '.rgate', 'compare', session, 'session.html'), 'utf8');
    expect(html).toContain('<h2>Judgment holes</h2>');
    const page = readFileSync(join(dir, 'queue.html'), 'utf8');
    expect(page).not.toMatch(/https?:\/\/(?!rgate\.dev)/);
  });

  it('user mistakes exit 2 with a message and a hint, never a stack', async () => {
    // in process (the same runCli the binary calls): eight child processes would cost 20 s here
    for (const args of [
      ['label', 'queue', 'no-such-run'],
      ['label', 'queue', session, '--k', '20'],
      ['label', 'queue', session, '--judge', 'x'],
      ['label', 'merge', 'mini'],
      ['label', 'merge', 'mini', 'x.jsonl'],
      ['label', 'merge', 'nope', 'x.jsonl', '--judge', 'a'],
      ['label', 'sort', 'x'],
    ]) {
      const io = captureIo(t.dir);
      expect(await runCli(args, io), args.join(' ')).toBe(2);
      expect(io.stderr.join('\n')).toMatch(/error|Invalid|Not enough/);
      expect(io.stderr.join('\n')).not.toMatch(/\n\s+at /);
    }
    // help is the binary's to print (yargs writes it to the process's stdout): a real process
    const help = spawnSync(process.execPath, [compiledCli(), 'label', '--help'], {
      cwd: t.dir,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Examples:');
    expect(help.stdout).toContain('rgate label merge');
  });
});

describe('rgate label pool', () => {
  const pairs = (items: LabelQueueItem[]) => new Set(items.map((i) => `${i.query_id} ${i.doc_id}`));
  const pool = async (args: string[]) => {
    const r = await rgate(['label', 'pool', 'mini', ...args, '--json'], t.dir);
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout) as {
      items: number;
      sources: string[];
      files: { jsonl: string; html: string };
    };
    return { summary, items: readJsonl<LabelQueueItem>(summary.files.jsonl) };
  };

  it('pools the union of systems and modes, minus the judged, blind: no system, rank or vote count on any item', async () => {
    // the suite itself as a system: the same pairs as the queue of its stored run (another code path)
    const bySuite = await pool(['--systems', 'mini', '--depth', '3']);
    const q = await rgate(['label', 'queue', runId, '--k', '3', '--json'], t.dir);
    const fromRun = readJsonl<LabelQueueItem>(
      (JSON.parse(q.stdout) as { files: { jsonl: string } }).files.jsonl,
    );
    expect(pairs(bySuite.items)).toEqual(pairs(fromRun));
    // the builtin bm25 mode on the suite's config is the suite's own system
    const byMode = await pool(['--modes', 'bm25', '--depth', '3']);
    expect(pairs(byMode.items)).toEqual(pairs(bySuite.items));
    // two modes pool a superset, each pair once, in query then doc id order, and none judged
    const two = await pool(['--modes', 'bm25,cosine', '--depth', '3']);
    expect(two.summary.sources).toEqual(['s1', 's2']);
    for (const p of pairs(byMode.items)) expect(pairs(two.items).has(p)).toBe(true);
    expect(pairs(two.items).size).toBe(two.items.length);
    expect(two.items.length).toBeGreaterThan(byMode.items.length);
    const judged = new Map(queriesOf().map((x) => [x.query_id, x.qrels ?? {}]));
    for (const i of two.items) {
      expect(i.doc_id in judged.get(i.query_id)!).toBe(false);
      expect(i.surfaced_by).toBeUndefined();
      expect(i.best_rank).toBeUndefined();
    }
    const ids = two.items.map((i) => [i.query_id, i.doc_id].join('\u0000'));
    expect(ids).toEqual([...ids].sort());
    const html = readFileSync(two.summary.files.html, 'utf8');
    expect(html).toContain('pooled blind');
    expect(html).not.toContain('surfaced by');
    expect(html).not.toContain('best rank');
  }, 120_000);

  it('user mistakes exit 2 with a message and a hint', async () => {
    const none = await rgate(['label', 'pool', 'mini'], t.dir);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('label pool needs the systems to pool');
    const bad = await rgate(['label', 'pool', 'mini', '--modes', 'bm26'], t.dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown mode "bm26"');
    expect(bad.stderr).not.toContain('    at ');
    const flag = await rgate(['label', 'queue', runId, '--modes', 'bm25'], t.dir);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--modes belongs to rgate label pool');

    // a suite on another fixture is refused before any request: its system (which would leave a
    // marker file) never runs
    const configPath = join(t.dir, 'rgate.config.json');
    const config = readFileSync(configPath, 'utf8');
    cpSync(join(t.dir, 'fixtures', 'mini'), join(t.dir, 'fixtures', 'other'), { recursive: true });
    const marker = join(t.dir, 'other-system-ran');
    const parsed = JSON.parse(config) as { suites: Record<string, unknown> };
    parsed.suites.other = {
      fixture: 'other',
      system: {
        type: 'command',
        argv: [process.execPath, '-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, '')`],
        contract: 'memory-cli-v1',
      },
    };
    writeFileSync(configPath, JSON.stringify(parsed, null, 2));
    try {
      const foreign = await rgate(['label', 'pool', 'mini', '--systems', 'other'], t.dir);
      expect(foreign.code).toBe(2);
      expect(foreign.stderr).toContain(
        'label pool mini: suite other runs on fixture other, suite mini on fixture mini; a pool needs systems on the same fixture',
      );
      expect(foreign.stderr).toContain('--systems takes suites whose "fixture" is mini');
      expect(foreign.stderr).not.toContain('    at ');
      expect(existsSync(marker)).toBe(false);
    } finally {
      writeFileSync(configPath, config);
      rmSync(join(t.dir, 'fixtures', 'other'), { recursive: true, force: true });
    }
  }, 60_000);
});

describe('rgate label merge', () => {
  it('refuses bad files and a frozen set without a bump (nothing written), then merges; merged pairs leave the queue', async () => {
    const set = join(t.dir, 'fixtures', 'mini');
    const before = files(set);
    const queue = readJsonl<LabelQueueItem>(join(t.dir, '.rgate', 'label', session, 'queue.jsonl'));
    const [a, b, c] = queue;
    const path = join(t.dir, 'grades.jsonl');
    const line = (i: LabelQueueItem, grade: unknown, extra: object = {}) =>
      JSON.stringify({ query_id: i.query_id, doc_id: i.doc_id, grade, date: '2026-11-23', ...extra });

    writeFileSync(path, [line(a!, 2), line(b!, 'high')].join('\n') + '\n');
    // refusals in process (the same runCli the binary calls), the merge itself as a child process
    const refuse = async (): Promise<string> => {
      const io = captureIo(t.dir);
      expect(await runCli(['label', 'merge', 'mini', path, '--judge', 'ana'], io)).toBe(2);
      return io.stderr.join('\n');
    };
    let stderr = await refuse();
    expect(stderr).toContain('grades.jsonl:2 /grade: must be integer');
    expect(stderr).toContain('hint:');

    writeFileSync(path, [line(a!, 2), line(b!, 1), line(a!, 3)].join('\n') + '\n');
    stderr = await refuse();
    expect(stderr).toContain(
      `grades.jsonl:3 /grade: 3 for (${a!.query_id}, ${a!.doc_id}) conflicts with grade 2 on line 1`,
    );

    writeFileSync(path, [line(a!, 2), line(b!, 0), line(c!, 3, { queue: session })].join('\n') + '\n');
    stderr = await refuse();
    expect(stderr).toContain('is frozen (mini-fixture v1)');
    expect(stderr).toContain('--version v2 --reset-note');
    expect(files(set)).toEqual(before);

    const r = await rgate(
      [
        'label',
        'merge',
        'mini',
        path,
        '--judge',
        'ana',
        '--version',
        'v2',
        '--reset-note',
        'pooled grades',
        '--json',
      ],
      t.dir,
    );
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { added: number; written: boolean; freeze: { version: string } };
    expect(out).toMatchObject({ added: 3, written: true, freeze: { version: 'v2' } });
    const qs = new Map(queriesOf().map((q) => [q.query_id, q]));
    for (const [i, g] of [
      [a!, 2],
      [b!, 0],
      [c!, 3],
    ] as const) {
      expect(qs.get(i.query_id)!.qrels![i.doc_id]).toBe(g);
      expect(qs.get(i.query_id)!.judged_by![i.doc_id]).toEqual({ judge: 'ana', date: '2026-11-23' });
    }
    const freeze = JSON.parse(readFileSync(join(set, 'freeze.json'), 'utf8')) as {
      frozen_on: string;
      history: { version: string; reset_note?: string }[];
    };
    expect(freeze.frozen_on).toBe('2026-11-23');
    expect(freeze.history.map((h) => h.version)).toEqual(['v1', 'v2']);
    expect((await rgate(['verify', 'mini'], t.dir)).code).toBe(0);

    // the queue of the same session now leaves the merged pairs out, and says the query set moved
    const q2 = await rgate(['label', 'queue', session, '--json', '--out', 'again'], t.dir);
    expect(q2.code, q2.stderr).toBe(0);
    expect(JSON.parse(q2.stdout)).toMatchObject({ items: queue.length - 3, query_set_changed: true });
    const left = readJsonl<LabelQueueItem>(join(t.dir, 'again', 'queue.jsonl'));
    expect(left).toEqual(queue.slice(3));
  });
});
