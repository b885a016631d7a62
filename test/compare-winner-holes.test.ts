import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/program.js';
import type {
  CompareSession,
  CorpusRecord,
  LabelAgreeOutput,
  LabelQueueOutput,
  PairedTest,
  QueryRecord,
} from '../src/documents/index.js';
import {
  computeRunMeasures,
  perQueryValues,
  rankingHoleFills,
  semanticWinModesOf,
} from '../src/metrics/index.js';
import { SqliteRunStore } from '../src/store/index.js';
import { applyHolm, nameWinners, pairUp, pairedTest } from '../history/compare-stats.js';
import { asReport } from '../history/trends.js';
import { captureIo } from './helpers/cli-io.js';
import { MemoryRunStore } from '../src/store/memory-store.js';
import { loadSuiteSpec } from '../src/cli/commands/history.js';
import { variantsFromFlags } from '../src/cli/commands/compare.js';
import { runCompare, saveSession } from '../history/compare.js';
import { winnerHoles } from '../history/compare-winner-holes.js';
import { valuesUnder } from '../history/compare-rescore.js';
import { loadFixtureSet } from '../src/snapshot/index.js';

/**
 * Compare winners under judgment holes (issue 37), against a brute force: every variant's stored run
 * scored again from its observations (its whole answer, not the session's kept ranking) with the
 * holes filled, the tests and Holm redone here, the winner named; and `label agree --session`.
 */
const REPO = resolve(import.meta.dirname, '..');

/** A comparison of two variants of a suite on the Lumen set. */
interface Case {
  /** context-load: two plain rankers; semantic: a selection step (selected ids, modes) against a ranker */
  suite: 'context-load' | 'semantic';
  variants: [string, string];
  /** every second judged document of each query (by id) unjudged, and every one carrying a tag its query excludes */
  holed: boolean;
  /** not of the queries that exclude tags (their qrels left whole) */
  keepTagQueries?: boolean;
}

/** The Lumen set as shipped or holed (Case), compared as the case says. */
function suite({ suite: name, variants: flags, holed, keepTagQueries = false }: Case): void {
  const project = mkdtempSync(join(tmpdir(), 'rgate-winner-holes-'));
  afterAll(() => rmSync(project, { recursive: true, force: true }));
  for (const path of ['rgate.config.json', 'gates', join('fixtures', 'context-load')])
    cpSync(join(REPO, path), join(project, path), { recursive: true });
  const setFile = join(project, 'fixtures', 'context-load', 'queries.jsonl');
  const tagsOf = new Map(
    readFileSync(join(project, 'fixtures', 'context-load', 'corpus.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as CorpusRecord)
      .map((r) => [r.id, r.tags ?? []]),
  );
  if (holed)
    writeFileSync(
      setFile,
      readFileSync(setFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => {
          const { judged_by: _j, ...q } = JSON.parse(l) as QueryRecord & { judged_by?: unknown };
          if (!q.qrels || (keepTagQueries && q.must_exclude_tags_all?.length)) return JSON.stringify(q);
          // and every document carrying a tag the query excludes: a top-1 that leaks is then no qrels line
          const leaks = (d: string) =>
            (tagsOf.get(d) ?? []).some((t) => q.must_exclude_tags_all?.includes(t));
          const keep = Object.keys(q.qrels)
            .sort()
            .filter((d, i) => i % 2 === 0 && !leaks(d));
          return JSON.stringify({ ...q, qrels: Object.fromEntries(keep.map((k) => [k, q.qrels![k]!])) });
        })
        .join('\n') + '\n',
    );

  async function rgate(argv: string[]) {
    const io = captureIo(project);
    const code = await runCli(argv, io);
    return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
  }

  const queries = readFileSync(setFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as QueryRecord);

  let session: CompareSession;
  /** the set's corpus: an include rule or an excluded tag reads it to judge a top-1 */
  let corpus: CorpusRecord[];
  /** the variants' runs (a comparison stores only its session): what the brute force scores again */
  const runs = new MemoryRunStore();
  beforeAll(async () => {
    const io = captureIo(project);
    if (holed)
      expect(
        await runCli(
          ['freeze', 'context-load', '--date', '2026-11-28', '--version', 'v9', '--reset-note', 'holed'],
          io,
        ),
      ).toBe(0);
    const { spec, root } = loadSuiteSpec(io, name);
    corpus = [...loadFixtureSet(spec.fixture, { root, verify: false }).corpus];
    const { variants, kind } = variantsFromFlags(flags, undefined);
    session = await runCompare({
      suite: name,
      spec,
      root,
      variants,
      kind,
      sessionId: 'cmp-holes',
      createdAt: '2026-11-28T00:00:00.000Z',
      store: runs,
      replays: 1,
      resamples: 200,
    });
    storeSession(session);
  }, 120_000);

  /** `s` stored in the project's history as rgate compare stores a session (an edited copy under its own id). */
  function storeSession(s: CompareSession): void {
    const store = new SqliteRunStore(join(project, '.rgate', 'history.sqlite'));
    try {
      saveSession(store, s);
    } finally {
      store.close();
    }
  }

  const isRanking = (m: string) => /^(ndcg|P\.|recall|map|recip)/.test(m);
  /** The measures the session scores again: its ranking measures and the top-1 rates it can re-count. */
  const rescoredOf = (notRescored = session.winner_holes_not_rescored) =>
    session.metrics
      .map((m) => m.id)
      .filter((m) => isRanking(m) || (m.startsWith('top1_') && !notRescored?.some((n) => n.metric === m)));

  /** Every variant's run measured again from its observations with `qrelsOf`'s grades. */
  function bruteRuns(qrelsOf: (q: QueryRecord) => Record<string, number> | undefined) {
    const ranking = session.metrics.map((m) => m.id).filter(isRanking);
    const filled = queries.map((q) => {
      const { qrels: _q, ...rest } = q;
      const g = qrelsOf(q);
      return g && Object.keys(g).length ? { ...rest, qrels: g } : rest;
    });
    return session.variants.map((v) => {
      const report = asReport(runs.getReport(v.run_id))!;
      const modes = semanticWinModesOf(report);
      const m = computeRunMeasures({
        queries: filled,
        corpus,
        observations: runs.getObservations(v.run_id),
        replays: report.settings.replays,
        relevanceLevel: report.settings.relevance_level,
        seed: report.settings.seed,
        semanticWinModes: modes,
        rankingMeasures: ranking,
      });
      return { outcomes: m.queries, values: perQueryValues(m.queries, modes) };
    });
  }

  /** The winner of `metric` with `qrelsOf`'s grades, every variant's run scored from its observations. */
  function bruteWinner(
    metric: string,
    qrelsOf: (q: QueryRecord) => Record<string, number> | undefined,
    notRescored = session.winner_holes_not_rescored,
  ) {
    const rescored = rescoredOf(notRescored);
    const values = bruteRuns(qrelsOf).map((r) => r.values);
    const ids = session.variants.map((v) => v.id);
    let tests: PairedTest[] = session.tests.filter((t) => !rescored.includes(t.metric));
    for (const r of rescored) {
      const { x, y } = pairUp(values[0]![r] ?? {}, values[1]![r] ?? {});
      tests.push(pairedTest(r, ids[0]!, ids[1]!, x, y, session.settings));
    }
    tests = applyHolm(tests, session.settings.alpha);
    const better = new Map(session.metrics.map((m) => [m.id, m.better]));
    return nameWinners(
      [metric],
      ids,
      tests,
      (m) => (better.get(m) === 'lower' ? 'lower' : 'higher'),
      session.settings,
    )[0]!.winner;
  }

  const title = `${name} ${flags.join(' vs ')}: ${
    !holed
      ? 'the set as shipped'
      : keepTagQueries
        ? 'every second judgment taken out, but of queries excluding tags'
        : 'every second judgment taken out'
  }`;
  describe(title, () => {
    it('states each ranking measure with its holes and its winner graded either way, as a brute force finds them', () => {
      const holes = session.winner_holes!;
      expect(holes.map((h) => h.metric)).toEqual(rescoredOf().sort());
      // the session keeps each variant's top-1 (selected id, mode, leak): every top-1 rate counts again
      expect(session.winner_holes_not_rescored).toBeUndefined();
      const top1Rates = session.metrics.map((m) => m.id).filter((m) => m.startsWith('top1_'));
      expect(top1Rates).toEqual(
        name === 'semantic' ? ['top1_useful_rate', 'top1_useful_any_mode'] : ['top1_useful_any_mode'],
      );
      for (const m of top1Rates) expect(holes.some((h) => h.metric === m)).toBe(true);
      // top-1 holes graded either way, checked against the brute force below; a holed set has some,
      // among them top-1s of queries that exclude tags unless those kept their qrels
      const excludes = (qid: string) =>
        (queries.find((q) => q.query_id === qid)?.must_exclude_tags_all?.length ?? 0) > 0;
      if (holed) {
        const pairs = holes.find((h) => h.metric === 'top1_useful_any_mode')!.pairs;
        expect(pairs.length).toBeGreaterThan(0);
        expect(pairs.some((p) => excludes(p.query_id))).toBe(!keepTagQueries);
      }
      expect(holes.some((h) => h.pairs.length > 0)).toBe(true);
      // the case only tests a flip where the holes are many (recip_rank: v2 graded 0, none graded 3)
      if (holed && !keepTagQueries && name === 'context-load')
        expect(holes.some((h) => h.can_flip)).toBe(true);
      const store = runs;
      const truePairs = new Map<string, Set<string>>();
      {
        for (const v of session.variants) {
          const report = asReport(store.getReport(v.run_id))!;
          const fills = rankingHoleFills(
            {
              queries,
              corpus: [],
              observations: store.getObservations(v.run_id),
              replays: report.settings.replays,
              relevanceLevel: report.settings.relevance_level,
              seed: report.settings.seed,
              rankingMeasures: holes.map((h) => h.metric),
            },
            holes.map((h) => h.metric),
          );
          for (const f of fills)
            for (const p of f.pairs)
              (truePairs.get(f.metric) ?? truePairs.set(f.metric, new Set()).get(f.metric)!).add(
                `${p.query_id}/${p.doc_id}`,
              );
        }
        // a top-1 rate's holes: the benchmark top-1s of judged queries that no judgment covers
        for (const [i, r] of bruteRuns((q) => q.qrels).entries())
          for (const o of r.outcomes) {
            if (o.kind !== 'benchmark' || o.top1 !== 'unjudged' || o.judged === false) continue;
            if (session.variants[i]!.per_query.top1_useful_any_mode?.[o.query_id] === undefined) continue;
            for (const m of holes.filter((h) => h.metric.startsWith('top1_')))
              (truePairs.get(m.metric) ?? truePairs.set(m.metric, new Set()).get(m.metric)!).add(
                `${o.query_id}/${o.actual.selected_id ?? o.actual.top_ids[0]}`,
              );
          }
      }
      const top = Math.max(1, ...queries.flatMap((q) => Object.values(q.qrels ?? {})));
      for (const h of holes) {
        expect(new Set(h.pairs.map((p) => `${p.query_id}/${p.doc_id}`)), h.metric).toEqual(
          truePairs.get(h.metric) ?? new Set(),
        );
        expect(h.top_grade).toBe(top);
        const fill = (grade: number) => (q: QueryRecord) => {
          const mine = h.pairs.filter((p) => p.query_id === q.query_id);
          if (!mine.length) return q.qrels;
          return { ...q.qrels, ...Object.fromEntries(mine.map((p) => [p.doc_id, grade])) };
        };
        expect(h.with_zero, `${h.metric} graded 0`).toBe(bruteWinner(h.metric, fill(0)));
        expect(h.with_top, `${h.metric} graded ${top}`).toBe(bruteWinner(h.metric, fill(top)));
        expect(h.winner).toBe(session.winners.find((w) => w.metric === h.metric)!.winner);
        expect(h.can_flip).toBe(h.with_zero !== h.winner || h.with_top !== h.winner);
      }
    });

    it('prints them in every format and queues them first for --priority verdict --session', async () => {
      const id = session.environment.session_id;
      const text = await rgate(['compare', '--show', id]);
      expect(text.out).toMatch(/Winners under judgment holes/);
      for (const h of session.winner_holes!) expect(text.out.replace(/\s+/g, ' ')).toContain(`${h.metric} (`);
      const md = (await rgate(['compare', '--show', id, '--format', 'md'])).out;
      expect(md).toMatch(/### Winners under judgment holes/);
      const html = (await rgate(['compare', '--show', id, '--format', 'html'])).out;
      expect(html).toMatch(/<h2>Winners under judgment holes<\/h2>/);
      const pool = await rgate([
        'label',
        'pool',
        name,
        '--modes',
        'bm25',
        '--priority',
        'verdict',
        '--session',
        id,
        '--json',
      ]);
      expect(pool.code, pool.err).toBe(0);
      const flips = new Set(
        session
          .winner_holes!.filter((h) => h.can_flip)
          .flatMap((h) => h.pairs.map((p) => `${p.query_id}/${p.doc_id}`)),
      );
      const doc = JSON.parse(pool.out) as LabelQueueOutput;
      expect(doc.verdict).toEqual({ session_id: id, pairs: flips.size });
    });

    it('label agree --session names every ranking winner again under each grader', async () => {
      const id = session.environment.session_id;
      const same = await rgate([
        'label',
        'agree',
        'fixtures/context-load',
        'fixtures/context-load',
        '--session',
        id,
        '--json',
      ]);
      expect(same.code, same.err).toBe(0);
      const s = (JSON.parse(same.out) as LabelAgreeOutput).compare!;
      expect(s.changes).toBe(false);
      expect(s.winners.map((w) => w.metric)).toEqual(rescoredOf(s.not_rescored ?? []).sort());
      for (const w of s.winners)
        expect(w.with_a).toBe(session.winners.find((x) => x.metric === w.metric)!.winner);
      // every frozen grade 0: nothing is relevant, every ranking measure 0 everywhere, no winner
      const lines = queries.flatMap((q) =>
        Object.keys(q.qrels ?? {}).map((doc) =>
          JSON.stringify({ query_id: q.query_id, doc_id: doc, grade: 0 }),
        ),
      );
      writeFileSync(join(project, 'zero.jsonl'), lines.join('\n') + '\n');
      const r = await rgate([
        'label',
        'agree',
        'fixtures/context-load',
        'zero.jsonl',
        '--session',
        id,
        '--json',
      ]);
      expect(r.code, r.err).toBe(0);
      const doc = (JSON.parse(r.out) as LabelAgreeOutput).compare!;
      // every grade 0 decides every top-1 a grade decides: the top-1 rates count again
      expect(doc.not_rescored).toBeUndefined();
      expect(doc.winners.map((w) => w.metric)).toEqual(rescoredOf([]).sort());
      expect(doc.winners.some((w) => w.metric === 'top1_useful_any_mode')).toBe(true);
      for (const w of doc.winners) {
        expect(w.with_b, w.metric).toBe(
          bruteWinner(
            w.metric,
            (q) => (q.qrels ? Object.fromEntries(Object.keys(q.qrels).map((d) => [d, 0])) : undefined),
            [],
          ),
        );
        expect(w.changes).toBe(w.with_a !== w.with_b);
      }
      expect(doc.changes).toBe(doc.winners.some((w) => w.with_a !== null));
    });

    it('counts every measure again per query as the run itself does, under gradings that reach every top-1', () => {
      const tops = new Map<string, Set<string>>();
      for (const v of session.variants)
        for (const [qid, t] of Object.entries(v.top1 ?? {}))
          (tops.get(qid) ?? tops.set(qid, new Set()).get(qid)!).add(t.id);
      const top = Math.max(1, ...queries.flatMap((q) => Object.values(q.qrels ?? {})));
      // a grade lands only on queries with qrels: a judgment never adds a query to a rate's denominator here
      const gradings: [string, (q: QueryRecord) => Record<string, number> | undefined][] = [
        [
          `every kept top-1 graded ${top}`,
          (q) =>
            q.qrels && Object.keys(q.qrels).length
              ? { ...q.qrels, ...Object.fromEntries([...(tops.get(q.query_id) ?? [])].map((d) => [d, top])) }
              : q.qrels,
        ],
        [
          'every kept top-1 graded 0',
          (q) =>
            q.qrels && Object.keys(q.qrels).length
              ? { ...q.qrels, ...Object.fromEntries([...(tops.get(q.query_id) ?? [])].map((d) => [d, 0])) }
              : q.qrels,
        ],
      ];
      const { values, rescored, not_rescored } = valuesUnder(
        session,
        queries,
        gradings.map(([, g]) => g),
      );
      expect(not_rescored).toEqual([]);
      expect(rescored.filter((m) => m.startsWith('top1_')).length).toBeGreaterThan(0);
      gradings.forEach(([title, g], f) => {
        const brute = bruteRuns(g);
        for (const m of rescored)
          session.variants.forEach((v, i) =>
            expect(values[f]![i]![m] ?? {}, `${title}: ${v.id} ${m}`).toEqual(brute[i]!.values[m] ?? {}),
          );
      });
    });

    it.runIf(!holed && name === 'context-load')(
      'an older session (no kept top-1s) with a selection step: its top-1 rates say they need the selected ids',
      async () => {
        const sel = structuredClone(session);
        for (const v of sel.variants) {
          delete v.top1;
          delete v.semantic_win_modes;
        }
        // ranked ids only: a selected_id could name another document than the first
        sel.variants[1]!.selection_modes = { semantic: 1, ...sel.variants[1]!.selection_modes };
        const { holes, not_rescored } = winnerHoles(sel, queries);
        expect(holes.map((h) => h.metric)).toEqual(
          rescoredOf([{ metric: 'top1_useful_any_mode', needs: '' }]).sort(),
        );
        expect(not_rescored).toEqual([
          { metric: 'top1_useful_any_mode', needs: expect.stringMatching(/selected_id/) as string },
        ]);
        sel.winner_holes = holes;
        sel.winner_holes_not_rescored = not_rescored;
        sel.environment = { ...sel.environment, session_id: 'cmp-select' };
        storeSession(sel);
        const show = await rgate(['compare', '--show', 'cmp-select']);
        expect(show.out.replace(/\s+/g, ' ')).toMatch(
          /top1_useful_any_mode \(top-1\): not re-scored: needs each query's replay-1 selected_id/,
        );
        const agree = await rgate([
          'label',
          'agree',
          'fixtures/context-load',
          'fixtures/context-load',
          '--session',
          'cmp-select',
        ]);
        expect(agree.code, agree.err).toBe(0);
        expect(agree.out).toMatch(
          /top1_useful_any_mode not re-scored: needs each query's replay-1 selected_id/,
        );
      },
    );

    it('an older session without kept rankings: says so, never a figure', async () => {
      const old = structuredClone(session);
      delete old.winner_holes;
      for (const v of old.variants) delete v.rankings;
      old.environment = { ...old.environment, session_id: 'cmp-old' };
      storeSession(old);
      const show = await rgate(['compare', '--show', 'cmp-old']);
      expect(show.out.replace(/\s+/g, ' ')).toMatch(
        /not available: this comparison keeps no scored ranking of its variants \(a session made before rgate compare kept them, or stored runs compared by their reports\); rgate compare /,
      );
      const agree = await rgate([
        'label',
        'agree',
        'fixtures/context-load',
        'fixtures/context-load',
        '--session',
        'cmp-old',
      ]);
      expect(agree.code).toBe(2);
      expect(agree.err).toMatch(/predates compare sessions keeping each variant's scored ranking/);
      const pool = await rgate([
        'label',
        'pool',
        name,
        '--modes',
        'bm25',
        '--priority',
        'verdict',
        '--session',
        'cmp-old',
      ]);
      expect(pool.code).toBe(2);
      expect(pool.err).toMatch(/predates/);
    });
  });
}

describe('compare: the pairs whose grade could flip a winner', () => {
  const rankers: Case['variants'] = ['system.mode=context-load', 'system.mode=bm25'];
  suite({ suite: 'context-load', variants: rankers, holed: false });
  suite({ suite: 'context-load', variants: rankers, holed: true });
  suite({ suite: 'context-load', variants: rankers, holed: true, keepTagQueries: true });
  // a selection step: top-1s are selected ids, top1_useful_rate reads the selection mode
  suite({ suite: 'semantic', variants: ['system.mode=semantic', 'system.mode=bm25'], holed: true });
});
