/**
 * What rgate costs before and around the work (issue 25, "fixed costs out"), each goal beside its
 * reference in the same run, rounds interleaved so drift in the machine's load spreads over both
 * sides, medians compared:
 *   - `rgate --help` against `node -e 0`: CPU (user + sys), goal <= 1.3x;
 *   - `rgate score` on a 50-query run (1,000 documents each, score-speed.ts's generator) against
 *     trec_eval on the same files: CPU, goal <= 2x (needs TREC_EVAL, a trec_eval binary);
 *   - the same `rgate score` against `node -e 0`: CPU, goal <= 1.3x (issue 36, item 2), measured in
 *     rounds of its own beside two floors that attribute the gap: node running a file that only reads
 *     the two files whole and prints five lines (what any node CLI pays for this input), and
 *     `rgate score` on a one-query, ten-result input (loading the CLI and its bundle; no data work);
 *   - `rgate run` of a 200-query suite whose system is a bash script run once per query (the whole
 *     command: start, fixture checks, 200 processes, measures, reports, the history file) against a
 *     bash loop calling the same script with the same arguments 200 times and capturing each answer:
 *     wall clock and CPU, recorded without a goal (issue 36: the goal is now rgate's overhead per
 *     request, system-overhead.ts).
 * CPU comes from bash's `times` over a loop of runs (_common.ts costOf). FIXED_BENCH_BEFORE=<another
 * build's dist/src/cli/bin.cjs> (e.g. the main branch's) measures that build too, in the same
 * rounds, as `before_*` figures.
 *
 * Run: npm run build && TREC_EVAL=/path/to/trec_eval node dist/benchmarks/fixed-costs.js
 * (FIXED_BENCH_ROUNDS, default 5)
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  commandLine,
  costOf,
  isMain,
  machineLoad,
  median,
  ROOT,
  writeBenchResult,
  type BenchResult,
  type Cost,
} from './_common.js';
import { generate } from './score-speed.js';

const BIN = join(ROOT, 'dist/src/cli/bin.cjs');
const MEASURES = ['map', 'recip_rank', 'ndcg_cut.10', 'P.10', 'recall.100'];
const QUERIES = 200;

/** A toy retriever as a team might script one: grep the corpus for the query, answer one record. */
const SUT = `#!/bin/bash
# usage: sut.sh <query_id> <query> <corpus>: the first record mentioning the query's last word
word=\${2##* }
line=$(grep -n -m1 -F -- "$word" "$3")
n=\${line%%:*}
printf '{"selection_mode":"semantic","ranked":[{"id":"doc-%s","source_path":"docs/%s.md","score":1.5}]}' "\${n:-0}" "\${n:-0}"
`;

/** A 200-query suite with a per-query bash system, frozen, in a folder of its own. */
function commandProject(dir: string): { loop: string } {
  const set = join(dir, 'fixtures', 'c200');
  mkdirSync(set, { recursive: true });
  const corpus = join(set, 'corpus.jsonl');
  writeFileSync(
    corpus,
    Array.from({ length: 200 }, (_, i) =>
      JSON.stringify({
        id: `doc-${i + 1}`,
        source_path: `docs/${i + 1}.md`,
        text: `document ${i + 1} about topic${i + 1}`,
        kind: 'canonical',
        captured_at: '2026-01-01T00:00:00Z',
      }),
    ).join('\n') + '\n',
  );
  writeFileSync(
    join(set, 'queries.jsonl'),
    Array.from({ length: QUERIES }, (_, i) =>
      JSON.stringify({
        query_id: `q${String(i + 1).padStart(3, '0')}`,
        text: `where is topic${i + 1}`,
        qrels: { [`doc-${i + 1}`]: 1 },
      }),
    ).join('\n') + '\n',
  );
  writeFileSync(join(set, 'config.json'), JSON.stringify({ mode: 'bm25' }));
  const sut = join(dir, 'sut.sh');
  writeFileSync(sut, SUT);
  chmodSync(sut, 0o755);
  writeFileSync(
    join(dir, 'rgate.config.json'),
    JSON.stringify({
      suites: {
        c200: {
          fixture: 'c200',
          system: { type: 'command', argv: [sut, '{query_id}', '{query}', corpus], contract: 'rgate' },
          gate: null,
          replays: 1,
        },
      },
      default_suites: ['c200'],
    }),
  );
  const frozen = spawnSync(process.execPath, [BIN, 'freeze', 'c200', '--date', '2026-11-26'], {
    cwd: dir,
    encoding: 'utf8',
  });
  if (frozen.status !== 0) throw new Error(`rgate freeze failed: ${frozen.stderr}`);
  // the reference: the same script, the same arguments, each answer captured, one after another
  const loop =
    `for ((i=1;i<=${QUERIES};i++)); do printf -v id 'q%03d' "$i"; ` +
    `x=$(${JSON.stringify(sut)} "$id" "where is topic$i" ${JSON.stringify(corpus)}); done`;
  return { loop };
}

interface Pair {
  ours: Cost[];
  ref: Cost[];
  before: Cost[];
}

const BEFORE = process.env.FIXED_BENCH_BEFORE;

/**
 * `rounds` rounds of (reference, ours[, before]), the order rotated each round. `ours` is given the
 * CLI to run: this build's, or FIXED_BENCH_BEFORE's.
 */
function paired(rounds: number, ours: (bin: string) => Cost, ref: () => Cost): Pair {
  const p: Pair = { ours: [], ref: [], before: [] };
  const steps: (() => void)[] = [() => p.ref.push(ref()), () => p.ours.push(ours(BIN))];
  if (BEFORE) steps.push(() => p.before.push(ours(BEFORE)));
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < steps.length; i++) steps[(i + r) % steps.length]!();
  }
  return p;
}

/**
 * `rounds` rounds of every step, the order rotated each round (as paired() does for two or three):
 * each step's costs, by name.
 */
function rotated(rounds: number, steps: Record<string, () => Cost>): Record<string, Cost[]> {
  const names = Object.keys(steps);
  const out: Record<string, Cost[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < names.length; i++) {
      const n = names[(i + r) % names.length]!;
      out[n]!.push(steps[n]!());
    }
  }
  return out;
}

/** The floor under any node CLI scoring these files: read both whole, print five lines, no parsing. */
const FLOOR_JS = `const fs = require('node:fs');
const q = fs.readFileSync(process.argv[2]);
const r = fs.readFileSync(process.argv[3]);
fs.writeSync(1, ['map', 'recip_rank', 'P_10', 'recall_100', 'ndcg_cut_10'].map((m, i) => m.padEnd(22) + '\\tall\\t' + (i ? r.length : q.length) + '\\n').join(''));
`;

const r3 = (x: number): number => Math.round(x * 1000) / 1000;
const r1 = (x: number): number => Math.round(x * 10) / 10;

function summarize(figures: BenchResult['figures'], key: string, p: Pair, by: 'cpuMs' | 'wallMs'): number {
  const ours = median(p.ours.map((c) => c[by]));
  const ref = median(p.ref.map((c) => c[by]));
  const other = by === 'cpuMs' ? 'wallMs' : 'cpuMs';
  figures[`${key}_cpu_ms`] = r1(median(p.ours.map((c) => c.cpuMs)));
  figures[`${key}_ref_cpu_ms`] = r1(median(p.ref.map((c) => c.cpuMs)));
  figures[`${key}_wall_ms`] = r1(median(p.ours.map((c) => c.wallMs)));
  figures[`${key}_ref_wall_ms`] = r1(median(p.ref.map((c) => c.wallMs)));
  figures[`ratio_${key}_${by === 'cpuMs' ? 'cpu' : 'wall'}`] = r3(ours / ref);
  figures[`ratio_${key}_${other === 'cpuMs' ? 'cpu' : 'wall'}`] = r3(
    median(p.ours.map((c) => c[other])) / median(p.ref.map((c) => c[other])),
  );
  figures[`samples_${key}_${by}`] = p.ours.map((c) => Math.round(c[by])).join(' ');
  figures[`samples_${key}_ref_${by}`] = p.ref.map((c) => Math.round(c[by])).join(' ');
  if (p.before.length) {
    const unit = by === 'cpuMs' ? 'cpu' : 'wall';
    figures[`before_${key}_${unit}_ms`] = r1(median(p.before.map((c) => c[by])));
    figures[`before_ratio_${key}_${unit}`] = r3(median(p.before.map((c) => c[by])) / ref);
  }
  return ours / ref;
}

export async function run(): Promise<BenchResult> {
  const rounds = Number(process.env.FIXED_BENCH_ROUNDS ?? 5);
  const dir = mkdtempSync(join(tmpdir(), 'rgate-fixed-costs-'));
  const load0 = machineLoad();
  const figures: BenchResult['figures'] = {
    rounds,
    cpus: load0.cpus,
    load_average_1m_start: load0.load_average_1m,
    node: process.version,
    before: BEFORE ?? null,
    command: commandLine('fixed-costs'),
  };
  const goals: Record<string, string> = {};
  let ok = true;
  const lines: string[] = [];
  const was = (key: string): string =>
    figures[key] === undefined ? '' : `; before: ${String(figures[key])}x`;
  try {
    // 1. rgate --help against a bare node start
    const help = paired(
      rounds,
      (bin) => costOf([process.execPath, bin, '--help'], 20),
      () => costOf([process.execPath, '-e', '0'], 20),
    );
    const helpRatio = summarize(figures, 'help', help, 'cpuMs');
    goals.ratio_help_cpu = '<= 1.3';
    ok &&= helpRatio <= 1.3;
    lines.push(
      `rgate --help: ${r3(helpRatio)}x the CPU of node -e 0 (goal <= 1.3)${was('before_ratio_help_cpu')}`,
    );

    // 2. rgate score, 50 queries, against trec_eval on the same files
    const trecEval = process.env.TREC_EVAL;
    if (trecEval) {
      const small = join(dir, 'score50');
      mkdirSync(small);
      const files = generate(small, 50, 1000, 20260401, true);
      const m = MEASURES.flatMap((x) => ['-m', x]);
      const same = [
        spawnSync(process.execPath, [BIN, 'score', ...m, files.qrels, files.run], { encoding: 'utf8' }),
        spawnSync(trecEval, [...m, files.qrels, files.run], { encoding: 'utf8' }),
      ];
      figures.score_output_identical = same[0]!.status === 0 && same[0]!.stdout === same[1]!.stdout;
      const score = paired(
        rounds,
        (bin) => costOf([process.execPath, bin, 'score', ...m, files.qrels, files.run], 10),
        () => costOf([trecEval, ...m, files.qrels, files.run], 10),
      );
      const scoreRatio = summarize(figures, 'score50', score, 'cpuMs');
      // the floor under any node CLI: node's own start (step 1's reference) against trec_eval's
      // whole run
      figures.ratio_score50_floor_node_start_cpu = r3(
        median(help.ref.map((c) => c.cpuMs)) / median(score.ref.map((c) => c.cpuMs)),
      );
      goals.ratio_score50_cpu = '<= 2';
      goals.score_output_identical = 'true';
      ok &&= scoreRatio <= 2 && figures.score_output_identical === true;
      lines.push(
        `rgate score, 50 queries: ${r3(scoreRatio)}x trec_eval's CPU (goal <= 2; node -e 0 alone: ${figures.ratio_score50_floor_node_start_cpu}x); same output: ${figures.score_output_identical}${was('before_ratio_score50_cpu')}`,
      );

      // 2b. the same call against node's own start (issue 36, item 2), and the floors between them
      const floorJs = join(small, 'floor.cjs');
      writeFileSync(floorJs, FLOOR_JS);
      const one = join(small, 'one');
      mkdirSync(one);
      // the first query's first 10 judgments and 10 results: the CLI and its bundle load, nothing to read
      const pick = (file: string): string => {
        const all = readFileSync(file, 'utf8').split('\n');
        return (
          all
            .filter((l) => l.startsWith('q1 '))
            .slice(0, 10)
            .join('\n') + '\n'
        );
      };
      writeFileSync(join(one, 'qrels.txt'), pick(files.qrels));
      writeFileSync(join(one, 'run.txt'), pick(files.run));
      const c = rotated(rounds, {
        node: () => costOf([process.execPath, '-e', '0'], 10),
        floor: () => costOf([process.execPath, floorJs, files.qrels, files.run], 10),
        oneQuery: () =>
          costOf([process.execPath, BIN, 'score', ...m, join(one, 'qrels.txt'), join(one, 'run.txt')], 10),
        score50: () => costOf([process.execPath, BIN, 'score', ...m, files.qrels, files.run], 10),
      });
      const cpu = (n: string): number => median(c[n]!.map((x) => x.cpuMs));
      const node = cpu('node');
      for (const n of ['node', 'floor', 'oneQuery', 'score50']) {
        figures[`start_${n}_cpu_ms`] = r1(cpu(n));
        figures[`samples_start_${n}_cpuMs`] = c[n]!.map((x) => Math.round(x.cpuMs)).join(' ');
      }
      figures.ratio_score50_node_cpu = r3(cpu('score50') / node);
      figures.ratio_floor_node_cpu = r3(cpu('floor') / node);
      figures.ratio_score_one_query_node_cpu = r3(cpu('oneQuery') / node);
      goals.ratio_score50_node_cpu = '<= 1.3';
      ok &&= figures.ratio_score50_node_cpu <= 1.3;
      lines.push(
        `rgate score, 50 queries: ${figures.ratio_score50_node_cpu}x the CPU of node -e 0 (goal <= 1.3); floors: node reading both files and printing ${figures.ratio_floor_node_cpu}x, rgate score on one query of 10 results ${figures.ratio_score_one_query_node_cpu}x`,
      );
    } else {
      lines.push('rgate score, 50 queries: skipped (set TREC_EVAL=/path/to/trec_eval)');
      figures.ratio_score50_cpu = null;
    }

    // 3. a per-query command system, 200 queries, against a bash loop calling it
    const project = join(dir, 'command');
    mkdirSync(project);
    const { loop } = commandProject(project);
    const out = join(project, 'out');
    const cmd = paired(
      Math.max(3, Math.ceil(rounds / 2)),
      (bin) => costOf([process.execPath, bin, 'run', 'c200', '--out-dir', out], 1, { cwd: project }),
      () => costOf(['bash', '--norc', '--noprofile', '-c', loop], 1, { cwd: project }),
    );
    // no goal: what a user pays per request is system-overhead.ts's (issue 36 retired the 1.5x goal,
    // which measured node's fork against bash's rather than rgate)
    const cmdRatio = summarize(figures, 'command200', cmd, 'wallMs');
    figures.command200_queries = QUERIES;
    lines.push(
      `rgate run, a bash-script system, ${QUERIES} queries: ${r3(cmdRatio)}x the wall of a bash loop calling it (CPU ${figures.ratio_command200_cpu}x; per request: system-overhead)${was('before_ratio_command200_wall')}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  figures.load_average_1m_end = machineLoad().load_average_1m;
  const result: BenchResult = { name: 'fixed-costs', ok, figures, goals };
  process.stdout.write(
    `fixed costs (median of ${rounds} rounds, ${figures.cpus} cpus, load ${figures.load_average_1m_start} -> ${figures.load_average_1m_end})\n` +
      lines.map((l) => `  ${l}\n`).join(''),
  );
  writeBenchResult('fixed-costs', result);
  return result;
}

if (isMain(import.meta.url)) {
  const r = await run();
  process.exitCode = r.ok ? 0 : 1;
}
