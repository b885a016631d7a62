/**
 * How a plain ranking's answers are measured, through real runs of a real command system
 * (test/sut/retrieval-result.mjs, contract retrieval-result-v1, which names no selection mode):
 * - an empty answer (read as no_match) is "nothing retrieved", not evidence of a selection step: the
 *   report's useful top-1s and whether top1_useful_rate applies are the same with and without one,
 *   and an answer without a selection mode is never "useful by fallback";
 * - a ranking that names an id twice is a recorded contract violation (measured, not fatal), scored at
 *   the id's first position, and the TREC run `--trec-run` writes is that ranking, which `rgate score`
 *   reads back to the report's per-query figures.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notApplicableIn } from '../gates/index.js';
import { renderTerminal } from '../reports/run/terminal.js';
import { runCli } from '../src/cli/program.js';
import type { Report } from '../src/documents/index.js';
import { score } from '../src/metrics/index.js';
import { writeFreeze } from '../src/snapshot/index.js';
import { captureIo } from './helpers/cli-io.js';
import { tempDir } from './history-helpers.js';

const SYSTEM = resolve(import.meta.dirname, 'sut', 'retrieval-result.mjs');
const MEASURES = ['ndcg_cut.10', 'recall.10', 'recip_rank'];

let root: string;
let cleanup: () => void;
const reports = new Map<string, Report>();

function fixture(name: string, queries: { query_id: string; text: string; qrels: Record<string, number> }[]) {
  const dir = join(root, 'fixtures', name);
  mkdirSync(dir, { recursive: true });
  const corpus = Array.from({ length: 10 }, (_, i) => ({ id: `d${i + 1}`, text: `text of d${i + 1}` }));
  writeFileSync(join(dir, 'corpus.jsonl'), corpus.map((c) => JSON.stringify(c)).join('\n') + '\n');
  writeFileSync(join(dir, 'queries.jsonl'), queries.map((q) => JSON.stringify(q)).join('\n') + '\n');
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ mode: 'bm25', k: 10 }));
  writeFreeze(dir, { frozenOn: '2026-11-26' });
}

async function run(suite: string, extra: string[] = []): Promise<Report> {
  const io = captureIo(root);
  const code = await runCli(
    ['run', suite, '--replays', '1', '--no-store', '--out-dir', join(root, 'out', suite), '--json', ...extra],
    io,
  );
  expect(io.stderr.join('\n')).not.toMatch(/\n\s+at /);
  expect(code, io.stderr.join('\n')).toBeLessThan(2);
  return JSON.parse(io.stdout.join('\n')) as Report;
}

beforeAll(async () => {
  ({ dir: root, cleanup } = tempDir('rgate-plain-ranking-'));
  const answered = ['d1', 'd2', 'd3', 'd4'].map((d, i) => ({
    query_id: `q${i + 1}`,
    text: `about ${d}`,
    qrels: { [d]: 1 },
  }));
  const dup = { query_id: 'q6', text: 'dup zeta', qrels: { d6: 1 } };
  fixture('answered', [...answered, dup]);
  fixture('with-empty', [...answered, dup, { query_id: 'q7', text: 'empty eta', qrels: { d7: 1 } }]);
  mkdirSync(join(root, 'gates'), { recursive: true });
  writeFileSync(
    join(root, 'gates', 'top1.gate.json'),
    JSON.stringify({
      gate_id: 'top1',
      version: '1.0.0',
      description: 'a gate that reads a selection measure',
      min_queries: 1,
      rules: [{ metric: 'top1_useful_rate', min: 0.5, description: 'semantic wins' }],
    }),
  );
  const system = {
    type: 'command',
    argv: [process.execPath, SYSTEM, '{query}'],
    contract: 'retrieval-result-v1',
    timeout_ms: 20_000,
  };
  const suite = (fixtureName: string, gate?: string) => ({
    fixture: fixtureName,
    system,
    replays: 1,
    ranking_measures: MEASURES,
    ...(gate ? { gate } : {}),
  });
  writeFileSync(
    join(root, 'rgate.config.json'),
    JSON.stringify({
      suites: {
        answered: suite('answered'),
        'with-empty': suite('with-empty'),
        'answered-gated': suite('answered', 'top1'),
        'with-empty-gated': suite('with-empty', 'top1'),
      },
    }),
  );
  reports.set('answered', await run('answered', ['--trec-run', join(root, 'answered.run')]));
  for (const s of ['with-empty', 'answered-gated', 'with-empty-gated']) reports.set(s, await run(s));
}, 120_000);
afterAll(() => cleanup());

const rate = (r: Report, id: string): string => {
  const v = r.metrics.find((m) => m.id === id)!.value;
  return v.kind === 'rate' ? `${v.numerator}/${v.denominator}` : v.kind;
};

describe('a plain ranking with an empty answer', () => {
  it('has no selection step either way: the same useful top-1s, none by fallback, top1_useful_rate not shown', () => {
    for (const s of ['answered', 'with-empty']) {
      const r = reports.get(s)!;
      expect(r.judging?.selection_step, s).toBe(false);
      expect(r.judging?.top1_split, s).toMatchObject({ useful: 4, useful_by_fallback: 0 });
      expect(r.judging?.top1_split?.useful_without_mode, s).toBeUndefined();
      expect(notApplicableIn(r), s).toContainEqual({ id: 'top1_useful_rate', why: 'no selection step' });
      const text = renderTerminal(r);
      expect(text, s).not.toContain('Selection modes');
      expect(text.replace(/\s+/g, ' '), s).toContain('4 useful · 0 useful by fallback');
    }
    // the empty answer is a query without an answer, nothing else
    expect(reports.get('with-empty')!.judging?.top1_split?.no_answer).toBe(1);
    expect(reports.get('answered')!.judging?.top1_split?.no_answer).toBe(0);
  });

  it('under a gate that reads top1_useful_rate: applies either way, its useful top-1s without a mode, never by fallback', () => {
    for (const s of ['answered-gated', 'with-empty-gated']) {
      const r = reports.get(s)!;
      expect(r.judging?.selection_step, s).toBe(true);
      expect(r.judging?.top1_split, s).toMatchObject({
        useful: 0,
        useful_by_fallback: 0,
        useful_without_mode: 4,
      });
      expect(
        notApplicableIn(r).map((h) => h.id),
        s,
      ).not.toContain('top1_useful_rate');
      expect(renderTerminal(r).replace(/\s+/g, ' '), s).toContain(
        '0 useful · 0 useful by fallback · 4 useful without a selection mode',
      );
    }
    expect(rate(reports.get('answered-gated')!, 'top1_useful_rate')).toBe('0/5');
    expect(rate(reports.get('with-empty-gated')!, 'top1_useful_rate')).toBe('0/6');
  });
});

describe('a ranking that names an id twice', () => {
  it('is a contract violation at the repeat’s JSON path, measured and shown, not fatal', () => {
    const r = reports.get('answered')!;
    const q6 = r.queries.find((q) => q.query_id === 'q6')!;
    expect(q6.actual.ok).toBe(true);
    expect(q6.actual.top_ids).toEqual(['d1', 'd6', 'd6', 'd6']);
    expect(r.contract_violations).toMatchObject({
      contract: 'retrieval-result-v1',
      measured: 5,
      violating: 1,
      rules: [
        {
          rule: '/results/*/chunk_id: must not repeat an id ranked earlier (only its first position is scored)',
          requests: 1,
          queries: 1,
          first: {
            query_id: 'q6',
            replay: 1,
            line: '/results/2/chunk_id: must not repeat an id ranked earlier (only its first position is scored)',
          },
        },
      ],
    });
    expect(rate(r, 'contract_validity')).toBe('4/5');
    // scored at d6's first position (rank 2): nDCG@10 1/log2(3), reciprocal rank 1/2
    expect(q6.measures?.['ndcg_cut.10']).toBeCloseTo(1 / Math.log2(3), 12);
    expect(q6.measures?.['recip_rank']).toBe(0.5);
    const text = renderTerminal(r);
    expect(text).toContain('/results/*/chunk_id');
    expect(text).toContain('must not repeat an id ranked earlier');
  });

  it('--trec-run writes the ranking that was scored, and rgate score reads it back to the report’s figures', async () => {
    const runFile = join(root, 'answered.run');
    const lines = readFileSync(runFile, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('q6 '));
    // d6 once, at its first position's score; ranks renumbered 1..n
    expect(lines.map((l) => l.split(' ').slice(0, 4).join(' '))).toEqual(['q6 Q0 d1 1', 'q6 Q0 d6 2']);
    expect(lines.map((l) => Number(l.split(' ')[4]))).toEqual([0.9, 0.8]);
    const qrels = join(root, 'answered.qrels');
    writeFileSync(qrels, ['q1 0 d1 1', 'q2 0 d2 1', 'q3 0 d3 1', 'q4 0 d4 1', 'q6 0 d6 1'].join('\n') + '\n');
    const io = captureIo(root);
    expect(await runCli(['score', qrels, runFile, '-q', ...MEASURES.flatMap((m) => ['-m', m])], io)).toBe(0);
    expect(io.stdout.join('\n')).toMatch(/^ndcg_cut_10\s+q6\s+0\.6309$/m);
    const scored = score({ qrels, run: runFile, measures: MEASURES, perQuery: true });
    const r = reports.get('answered')!;
    for (const q of r.queries) {
      const back = scored.queries!.find((s) => s.query_id === q.query_id)!.measures;
      expect(back['ndcg_cut_10'], q.query_id).toBeCloseTo(q.measures!['ndcg_cut.10']!, 12);
      expect(back['recall_10'], q.query_id).toBeCloseTo(q.measures!['recall.10']!, 12);
      expect(back['recip_rank'], q.query_id).toBeCloseTo(q.measures!['recip_rank']!, 12);
    }
  });
});
