/**
 * The figures of docs/bundled-suites.md and of docs/engine.md's "Known gap" and KU paragraphs, held
 * to the runs they come from (issue 34, item 5): `npm run gate` (`rgate run`, every default suite),
 * `rgate run semantic` and `rgate run ku` in a copy of the project, and the v1 column's runs in a
 * copy whose Lumen queries are rebuilt as v1 froze them (the v2 files minus the pooled judgments of
 * fixtures/context-load/src/judgments-pool-v2.jsonl, frozen again: its query_set_id must be the one
 * v2's freeze.json records for v1, so the rebuild is exact). The test reads every figure from the doc
 * (a `figures:` region's code spans, the v1 -> v2 table, the sentences around them) and none is
 * written here, so a figure the docs quote cannot drift from what the tool prints. The v1 run also
 * prints the judgment reasons docs/reports.md quotes, so they are checked here too.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/program.js';
import { captureIo } from './helpers/cli-io.js';
import { oneSpace, readDoc, regionMisses, sentence } from './helpers/doc-figures.js';
import { REPO } from './helpers/dist.js';

interface Freeze {
  counts: { corpus_records: number; queries: number; judged_queries: number; judgments: number };
  query_set_id: string;
  history: { version: string; query_set_id: string }[];
}
interface ReportQuery {
  query_id: string;
  kind: string;
  top1: string;
  actual: { selection_mode?: string };
}
interface Report {
  suite: string;
  queries: ReportQuery[];
  breakdowns: {
    by: string;
    rows: { key: string; metrics: Record<string, { numerator?: number; denominator?: number }> }[];
  }[];
}
/** One suite's part of what a run printed, and its report.json. */
interface Section {
  text: string;
  report: Report;
}
interface Run {
  code: number;
  out: string;
  suites: Map<string, Section>;
}

const BS = 'docs/bundled-suites.md';
const ENGINE = 'docs/engine.md';
const tmp = mkdtempSync(join(tmpdir(), 'rgate-docs-figures-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const v2 = join(tmp, 'v2');
const v1 = join(tmp, 'v1');
for (const project of [v1, v2])
  for (const path of ['rgate.config.json', 'gates', 'fixtures/context-load', 'fixtures/ku-runbooks'])
    cpSync(join(REPO, path), join(project, path), { recursive: true });
const freezeOf = (dir: string, set: string): Freeze =>
  JSON.parse(readFileSync(join(dir, 'fixtures', set, 'freeze.json'), 'utf8')) as Freeze;
const jsonl = <T>(file: string): T[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);

async function rgate(cwd: string, argv: string[]): Promise<Run> {
  const io = captureIo(cwd);
  const code = await runCli(argv, io);
  const out = io.stdout.join('\n');
  const suites = new Map<string, Section>();
  // each suite's report ends with the line naming its files
  const parts = out.split(/^reports: (\S+)\/report\.\{.*$/m);
  for (let i = 1; i < parts.length; i += 2) {
    const report = JSON.parse(readFileSync(join(cwd, parts[i]!, 'report.json'), 'utf8')) as Report;
    suites.set(report.suite, { text: parts[i - 1]!, report });
  }
  expect(suites.size, io.stderr.join('\n')).toBeGreaterThan(0);
  return { code, out, suites };
}

/** The Metrics table of a suite's printed report: name -> its count (n/d or n=N), rate, status and line. */
function metricRows(
  text: string,
): Map<string, { count: string; rate: string; status: string; line: string }> {
  const rows = new Map<string, { count: string; rate: string; status: string; line: string }>();
  for (const m of text.matchAll(/^([\w.@]+)\s+(\d+\/\d+|n=\d+)\s+(\S+).*?(\S+)\s*$/gm))
    rows.set(m[1]!, { count: m[2]!, rate: m[3]!, status: m[4]!, line: oneSpace(m[0]) });
  return rows;
}

/** "top-1 of the 86 judged benchmark queries: 39 useful · 22 useful by fallback · ..." as numbers. */
function split(text: string): Record<string, number> {
  const m =
    /top-1 of the (\d+) judged benchmark queries: (\d+) useful · (\d+) useful by fallback · (\d+) judged not useful · (\d+) unjudged/.exec(
      oneSpace(text),
    );
  if (!m) throw new Error(`no top-1 split in:\n${text}`);
  const [total, useful, byFallback, notUseful, unjudged] = m.slice(1).map(Number) as number[];
  return {
    total: total!,
    useful: useful!,
    'by fallback': byFallback!,
    'judged not useful': notUseful!,
    unjudged: unjudged!,
  };
}

const verdictOf = (text: string): string => /^ (PASS|FAIL|WATCH) {2}/m.exec(text)?.[1] ?? '(none)';

let gateV2: Run;
let gateV1: Run;
let semanticV2: Run;
let cosineV1: Run;
let ku: Run;

beforeAll(async () => {
  // the v1 Lumen queries: v2's minus the pooled judgments v2 added, frozen as v1 again
  const pool = jsonl<{ query_id: string; doc_id: string }>(
    join(REPO, 'fixtures/context-load/src/judgments-pool-v2.jsonl'),
  );
  const pooled = new Set(pool.map((j) => `${j.query_id}\t${j.doc_id}`));
  const queries = join(v1, 'fixtures/context-load/queries.jsonl');
  const rows = jsonl<{
    query_id: string;
    qrels?: Record<string, number>;
    judged_by?: Record<string, unknown>;
  }>(queries);
  for (const q of rows)
    for (const field of ['qrels', 'judged_by'] as const) {
      for (const doc of Object.keys(q[field] ?? {}))
        if (pooled.has(`${q.query_id}\t${doc}`)) delete q[field]![doc];
      if (q[field] && Object.keys(q[field]).length === 0) delete q[field];
    }
  writeFileSync(queries, rows.map((q) => JSON.stringify(q)).join('\n') + '\n');
  rmSync(join(v1, 'fixtures/context-load/freeze.json'));
  const io = captureIo(v1);
  expect(await runCli(['freeze', 'context-load', '--date', '2026-11-22'], io), io.stderr.join('\n')).toBe(0);
  const v1Id = freezeOf(v2, 'context-load').history.find((h) => h.version === 'v1')!.query_set_id;
  expect(freezeOf(v1, 'context-load').query_set_id).toBe(v1Id);

  gateV2 = await rgate(v2, ['run']); // npm run gate is `node dist/src/cli/bin.cjs run`
  gateV1 = await rgate(v1, ['run']);
  semanticV2 = await rgate(v2, ['run', 'semantic']);
  cosineV1 = await rgate(v1, ['run', 'semantic', '--set', 'semantic.method=cosine']);
  ku = await rgate(v2, ['run', 'ku']);
});

describe('docs/bundled-suites.md: every figure is what its command prints', () => {
  it('npm run gate: the figures:npm-run-gate region', () => {
    expect(gateV2.code).toBe(1);
    expect(regionMisses(BS, 'npm-run-gate', 'npm run gate', gateV2.out)).toEqual([]);
  });

  it('Lumen v1 -> v2: the table, v1 column from the rebuilt v1 files, v2 from npm run gate', () => {
    const text = readDoc(BS);
    const table =
      /^\| suite \| measure \| v1 \((\d+) judgments\) \| v2 \((\d+) judgments\) \|\n\|[- |]+\|\n((?:\|.*\|\n)+)/m.exec(
        text,
      );
    expect(table, 'the v1 -> v2 table').not.toBeNull();
    expect(Number(table![1])).toBe(freezeOf(v1, 'context-load').counts.judgments);
    expect(Number(table![2])).toBe(freezeOf(v2, 'context-load').counts.judgments);
    const rows = table![3]!.trim().split('\n');
    expect(rows.length).toBeGreaterThanOrEqual(10);
    const misses: string[] = [];
    for (const row of rows) {
      const [suite, measure, ...cells] = row
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()) as string[];
      [gateV1, gateV2].forEach((run, col) => {
        const cell = cells[col]!;
        const where = `${suite} ${measure} ${col === 0 ? 'v1' : 'v2'} "${cell}"`;
        const section = run.suites.get(suite!)!;
        const miss = (what: string) => misses.push(`${where}: ${what}`);
        if (measure === 'verdict') {
          const printed = section.text.slice(0, section.text.indexOf('\nsuite '));
          if (verdictOf(printed) !== cell.split(' ')[0]) miss(`printed ${verdictOf(printed)}`);
          const rules = /(\d+) rules/.exec(cell)?.[1];
          if (rules && !printed.includes(`all ${rules} rules met`)) miss(`not all ${rules} rules met`);
          for (const f of cell.match(/\d+\/\d+/g) ?? [])
            if (!printed.includes(f)) miss(`${f} not in the verdict`);
          return;
        }
        if (measure!.startsWith('top-1 split:')) {
          const labels = measure!
            .slice('top-1 split:'.length)
            .split('·')
            .map((l) => l.trim());
          const values = cell.split('·').map((v) => Number(v.trim()));
          const printed = split(section.text);
          labels.forEach((l, i) => {
            if (printed[l] !== values[i]) miss(`${l} is ${printed[l]}`);
          });
          return;
        }
        const n = /\(n=(\d+)\)/.exec(measure!)?.[1];
        const rule = /\(rule (>=|<=) ([\d.]+)%\)/.exec(measure!);
        const names = measure!
          .replace(/\s*\(.*?\)/g, '')
          .split('·')
          .map((s) => s.trim());
        const values = cell.split('·').map((v) => v.trim());
        const metrics = metricRows(section.text);
        names.forEach((name, i) => {
          const m = metrics.get(name);
          const v = values[i]!;
          if (!m) return miss(`${name} not printed`);
          const rate = /^(\d+\/\d+) = ([\d.]+%)(?: (PASS|FAIL))?$/.exec(v);
          if (rate) {
            if (m.count !== rate[1] || m.rate !== rate[2]) miss(`printed ${m.line}`);
            if (rate[3] && m.status !== rate[3]) miss(`printed ${m.line}`);
          } else if (/^[\d.]+$/.test(v)) {
            if (m.rate !== v || (n && m.count !== `n=${n}`)) miss(`printed ${m.line}`);
          } else miss('a cell the test cannot read');
          if (rule && !m.line.includes(`${rule[1]} ${Number(rule[2]).toFixed(1)}%`))
            miss(`threshold: ${m.line}`);
        });
      });
    }
    expect(misses).toEqual([]);
  });

  it('the sentences around the table', () => {
    const semV1 = gateV1.suites.get('semantic')!;
    const semV2 = gateV2.suites.get('semantic')!;
    const splitV1 = split(semV1.text);
    const [unjudged, counted, judged10] = sentence(
      BS,
      /Under v1 .*? (\d+) of the (\d+) counted top-1s had no judgment .*? judged@10 was (\d+)%/,
    ).map(Number);
    expect([unjudged, counted]).toEqual([splitV1.unjudged, splitV1.total]);
    expect(judged10).toBe(Math.round(parseFloat(metricRows(semV1.text).get('judged@10')!.rate)));

    const pool = jsonl<{ grade: number }>(join(REPO, 'fixtures/context-load/src/judgments-pool-v2.jsonl'));
    const [added] = sentence(BS, /v2 adds (\d+) judgments/).map(Number);
    expect(added).toBe(pool.length);
    const [judgedQueries] = sentence(BS, /over the (\d+) judged queries/).map(Number);
    expect(judgedQueries).toBe(freezeOf(v2, 'context-load').counts.judged_queries);
    const grades = sentence(BS, /\((\d+) × 0, (\d+) × 1, (\d+) × 2\)/).map(Number);
    expect(grades).toEqual([0, 1, 2].map((g) => pool.filter((j) => j.grade === g).length));

    // the semantic top-1s v1 left unjudged, as v2 judges them (same code: the same top-1s)
    const byId = new Map(semV2.report.queries.map((q) => [q.query_id, q]));
    const holes = semV1.report.queries.filter((q) => q.kind === 'benchmark' && q.top1 === 'unjudged');
    const now = holes.map((q) => byId.get(q.query_id)!);
    const wins = now.filter((q) => q.top1 === 'useful' && q.actual.selection_mode === 'semantic').length;
    const byFallback = now.filter((q) => q.top1 === 'useful').length - wins;
    expect(
      sentence(
        BS,
        /Of the (\d+) semantic top-1s v1 left unjudged, (\d+) are semantic wins, (\d+) useful by fallback and (\d+) not useful/,
      ).map(Number),
    ).toEqual([holes.length, wins, byFallback, holes.length - wins - byFallback]);

    const [replays, seed] = sentence(BS, /Both (\d+) replays, seed (\d+)\./);
    for (const run of [gateV1, gateV2])
      for (const [suite, s] of run.suites)
        expect(oneSpace(s.text), suite).toContain(`identical: ${replays} replays (seed ${seed})`);
  });

  it('the suites table: each set as its freeze.json counts it', () => {
    const counts = (set: string) => {
      const c = JSON.parse(readFileSync(join(REPO, 'fixtures', set, 'freeze.json'), 'utf8')) as Freeze;
      return [c.counts.corpus_records, c.counts.queries];
    };
    expect(
      sentence(BS, /`context-load` \(Lumen project, (\d+) records, (\d+) queries\)/).map(Number),
    ).toEqual(counts('context-load'));
    expect(sentence(BS, /`cacm` \((\d+) docs, (\d+) topics\)/).map(Number)).toEqual(counts('cacm'));
    expect(sentence(BS, /`cranfield` \((\d+) docs, (\d+) queries\)/).map(Number)).toEqual(
      counts('cranfield'),
    );
  });
});

describe('docs/reports.md: the judgment reasons it quotes are what the v1 Lumen set prints', () => {
  it("the judgment rule's reason and the top-1 rule that fails on judged evidence", () => {
    const [judgmentRule] = sentence(
      'docs/reports.md',
      /name the fixture \(``(insufficient judgments: [^`]*`[^`]*`) ``\)/,
    );
    const [judgedEvidence] = sentence(
      'docs/reports.md',
      /stands on judged evidence \(`…(, and would be even if [^`]*)`\)/,
    );
    const printed = oneSpace(gateV1.suites.get('semantic')!.text);
    expect(printed).toContain(judgmentRule);
    expect(printed).toContain(judgedEvidence);
  });
});

describe("docs/engine.md: the semantic suite's known gap and the ku suite", () => {
  it('rgate run semantic: the figures:rgate-run-semantic region', () => {
    expect(semanticV2.code).toBe(1);
    expect(regionMisses(ENGINE, 'rgate-run-semantic', 'rgate run semantic', semanticV2.out)).toEqual([]);
  });

  it('the cosine method on the v1 judgments: the figures:rgate-run-semantic-cosine-v1 region', () => {
    expect(
      regionMisses(
        ENGINE,
        'rgate-run-semantic-cosine-v1',
        'rgate run semantic --set semantic.method=cosine',
        cosineV1.out,
      ),
    ).toEqual([]);
  });

  it('rgate run ku: the figures of the ku-runbooks sentence, held-out intents included', () => {
    const [units, intents, verdict, ...rest] = sentence(
      ENGINE,
      /On `fixtures\/ku-runbooks` \((\d+) units, (\d+) intents\) it (PASSES|FAILS): guidance (\S+), top-1 useful (\S+), level-appropriate (\S+), escalation (\S+), over-budget units split (\S+), identical in (\d+) replays; the (\d+) held-out intents score lower \(top-1 (\S+), level (\S+)\)/,
    );
    const freeze = freezeOf(v2, 'ku-runbooks');
    expect([Number(units), Number(intents)]).toEqual([freeze.counts.corpus_records, freeze.counts.queries]);
    const section = ku.suites.get('ku')!;
    expect(ku.code).toBe(0);
    expect(verdictOf(section.text)).toBe(verdict === 'PASSES' ? 'PASS' : 'FAIL');
    const metrics = metricRows(section.text);
    const names = [
      'ku_guidance_retention',
      'top1_useful_any_mode',
      'ku_level_appropriateness',
      'ku_escalation_rate',
      'ku_over_budget_split',
    ];
    expect(rest.slice(0, 5)).toEqual(names.map((n) => metrics.get(n)?.count));
    expect(oneSpace(section.text)).toContain(`identical: ${rest[5]} replays`);
    const holdout = section.report.breakdowns
      .find((b) => b.by === 'tag')!
      .rows.find((r) => r.key === 'split:holdout')!.metrics;
    const nd = (m: string) => `${holdout[m]!.numerator}/${holdout[m]!.denominator}`;
    expect([Number(rest[6]), rest[7], rest[8]]).toEqual([
      holdout['top1_useful_any_mode']!.denominator,
      nd('top1_useful_any_mode'),
      nd('ku_level_appropriateness'),
    ]);
  });
});
