/**
 * `rgate score` speed: a generated 7,000-query x 1,000-document run with ~10 graded judgments per
 * query and many score ties, its 7M lines in a seeded random order (SCORE_BENCH_ORDER=query writes
 * them query by query), scored end to end in a child process (what a user waits for), and a 50-query
 * run of the same shape (goal <= 0.15 s; best of SCORE_BENCH_REPEATS runs, default 3). When TREC_EVAL
 * names a trec_eval binary it scores the same files in the same run: the values must agree, the
 * wall-time ratio is printed (goal <= 0.3x) and rgate's peak RSS must stay below trec_eval's.
 *
 * Run: npm run build && node dist/benchmarks/score-speed.js   (SCORE_BENCH_QUERIES=700 for a small run)
 */
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createPrng } from '../src/core/prng.js';
import { isMain, ROOT, writeBenchResult, type BenchResult } from './_common.js';

const root = ROOT;
const MEASURES = ['map', 'recip_rank', 'ndcg_cut.10', 'P.10', 'recall.100'];

/** Write the qrels and run; every qrels query is in the run (trec_eval 10.0 stops on one that is not). */
export function generate(
  dir: string,
  queries: number,
  depth: number,
  seed: number,
  shuffled: boolean,
): { qrels: string; run: string } {
  const prng = createPrng(seed);
  const qrelsPath = join(dir, 'qrels.txt');
  const runPath = join(dir, 'run.txt');
  const pool = 2_000_000;
  let qrels = '';
  // every line's docno and score are kept (typed arrays), then written in a seeded random order of
  // all lines when `shuffled` (a run as a pipeline may emit it) or query by query otherwise
  const total = queries * depth;
  const docOf = new Int32Array(total);
  const scoreOf = new Float64Array(total);
  for (let q = 0; q < queries; q++) {
    const seen = new Set<number>();
    const docs: number[] = [];
    while (docs.length < depth) {
      const d = prng.int(pool);
      if (!seen.has(d)) {
        seen.add(d);
        docs.push(d);
      }
    }
    // ~10 judgments: 7 among the retrieved (some near the top), 3 never retrieved; grades 0..3
    const judged = new Set<number>();
    for (let k = 0; k < 7; k++) judged.add(docs[Math.floor(prng.next() ** 2 * depth)]!);
    while (judged.size < 10) judged.add(prng.int(pool));
    for (const d of [...judged].sort((a, b) => a - b)) qrels += `q${q + 1} 0 D${d} ${prng.int(4)}\n`;
    // descending scores rounded to 2 decimals: runs of ties, written in random order inside a tie
    let score = 40 + prng.next();
    for (let r = 0; r < depth; r++) {
      if (prng.next() < 0.6) score -= prng.next() * 0.05;
      docOf[q * depth + r] = docs[r]!;
      scoreOf[q * depth + r] = score;
    }
  }
  const order = new Int32Array(total);
  for (let i = 0; i < total; i++) order[i] = i;
  if (shuffled) {
    for (let i = total - 1; i > 0; i--) {
      const j = prng.int(i + 1);
      const t = order[i]!;
      order[i] = order[j]!;
      order[j] = t;
    }
  }
  const fd = openSync(runPath, 'w');
  try {
    let chunk = '';
    for (let k = 0; k < total; k++) {
      const i = order[k]!;
      const q = Math.floor(i / depth);
      chunk += `q${q + 1} Q0 D${docOf[i]} ${(i % depth) + 1} ${scoreOf[i]!.toFixed(2)} bench\n`;
      if (chunk.length > 1 << 22) {
        writeSync(fd, chunk);
        chunk = '';
      }
    }
    writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
  writeFileSync(qrelsPath, qrels);
  return { qrels: qrelsPath, run: runPath };
}

interface Timed {
  wallMs: number;
  peakRssMiB: number | null;
  stdout: string;
  status: number | null;
  stderr: string;
}

/** Run a command, timing wall clock here and reading peak RSS from GNU time -v when available. */
function timed(cmd: string, args: string[]): Timed {
  const gnuTime = existsSync('/usr/bin/time');
  const t0 = process.hrtime.bigint();
  const p = gnuTime
    ? spawnSync('/usr/bin/time', ['-v', cmd, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 })
    : spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  let peak: number | null = null;
  const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(p.stderr ?? '');
  if (m) peak = Number(m[1]) / 1024;
  else if (!gnuTime) peak = process.resourceUsage().maxRSS / 1024; // children are not included: a lower bound
  return { wallMs, peakRssMiB: peak, stdout: p.stdout ?? '', status: p.status, stderr: p.stderr ?? '' };
}

function summaryValues(out: string): Map<string, string> {
  const m = new Map<string, string>();
  for (const line of out.split('\n')) {
    const [name, qid, value] = line.split('\t');
    if (name && qid === 'all' && value !== undefined) m.set(name.trim(), value.trim());
  }
  return m;
}

export async function run(): Promise<BenchResult> {
  const queries = Number(process.env.SCORE_BENCH_QUERIES ?? 7000);
  const depth = 1000;
  const dir = mkdtempSync(join(tmpdir(), 'rgate-score-bench-'));
  try {
    const g0 = process.hrtime.bigint();
    const shuffled = (process.env.SCORE_BENCH_ORDER ?? 'random') === 'random';
    const files = generate(dir, queries, depth, 20260401, shuffled);
    const genMs = Number(process.hrtime.bigint() - g0) / 1e6;
    const bin = join(root, 'dist/src/cli/bin.cjs');
    const args = [
      bin,
      'score',
      ...MEASURES.flatMap((m) => ['-m', m]),
      '--qrels',
      files.qrels,
      '--run',
      files.run,
    ];
    timed(process.execPath, args); // warm the page cache so both tools read the run from memory
    // best of REPEATS: the machine is shared, and the minimum is the least disturbed measurement
    const repeats = Number(process.env.SCORE_BENCH_REPEATS ?? 3);
    const best = (cmd: string, a: string[]): { best: Timed; samples: number[] } => {
      const runs = Array.from({ length: repeats }, () => timed(cmd, a));
      const sorted = runs.slice().sort((x, y) => x.wallMs - y.wallMs);
      return { best: sorted[0]!, samples: runs.map((r) => Number((r.wallMs / 1000).toFixed(3))) };
    };
    const oursBest = best(process.execPath, args);
    const ours = oursBest.best;
    // what every rgate command pays before it starts (loading the CLI and all its commands)
    const startup = timed(process.execPath, [bin, 'score', '--help']);
    // the same scoring through the library (readers + measures only), without the CLI's start-up
    const lib = (f: string): string => pathToFileURL(join(root, 'dist/src', f)).href;
    const script = [
      `import { DocTable, readQrelsFile, readRunFile } from '${lib('trec/index.js')}';`,
      `import { evaluateTrec, parseMeasureArgs, renderTrecEval } from '${lib('metrics/index.js')}';`,
      `const docs = new DocTable();`,
      `const qrels = readQrelsFile(${JSON.stringify(files.qrels)}, docs);`,
      `const run = readRunFile(${JSON.stringify(files.run)});`,
      `const r = evaluateTrec(qrels, run, parseMeasureArgs(${JSON.stringify(MEASURES)}).specs, { relevanceLevel: 1, averageComplete: false });`,
      `process.stdout.write(renderTrecEval(r, { perQuery: false, runid: false }));`,
    ].join('\n');
    const library = best(process.execPath, ['--input-type=module', '-e', script]);
    if (ours.status !== 0) throw new Error(`rgate score failed: ${ours.stderr}`);
    const figures: BenchResult['figures'] = {
      queries,
      depth,
      run_lines: queries * depth,
      line_order: shuffled ? 'random' : 'by query',
      generate_ms: Math.round(genMs),
      repeats,
      rgate_wall_s: Number((ours.wallMs / 1000).toFixed(3)),
      rgate_wall_samples_s: JSON.stringify(oursBest.samples),
      rgate_peak_rss_mib: ours.peakRssMiB === null ? null : Number(ours.peakRssMiB.toFixed(1)),
      cli_startup_s: Number((startup.wallMs / 1000).toFixed(3)),
      library_wall_s: Number((library.best.wallMs / 1000).toFixed(3)),
      library_peak_rss_mib:
        library.best.peakRssMiB === null ? null : Number(library.best.peakRssMiB.toFixed(1)),
      load_average_1m: Number(loadavg()[0]!.toFixed(2)),
      trec_eval_wall_s: null,
      ratio_vs_trec_eval: null,
      values_agree: null,
    };
    // a small run (50 queries): what a nightly gate or a tuning loop pays per call, mostly start-up
    const smallDir = join(dir, 'small');
    mkdirSync(smallDir);
    const small = generate(smallDir, 50, depth, 20260401, shuffled);
    const smallArgs = [
      bin,
      'score',
      ...MEASURES.flatMap((m) => ['-m', m]),
      '--qrels',
      small.qrels,
      '--run',
      small.run,
    ];
    const smallBest = best(process.execPath, smallArgs);
    figures.small_queries = 50;
    figures.small_rgate_wall_s = Number((smallBest.best.wallMs / 1000).toFixed(3));
    figures.small_rgate_wall_samples_s = JSON.stringify(smallBest.samples);
    const nodeBare = best(process.execPath, ['-e', '0']);
    figures.node_startup_s = Number((nodeBare.best.wallMs / 1000).toFixed(3));
    const trecEval = process.env.TREC_EVAL;
    if (trecEval) {
      const smallTe = best(trecEval, [...MEASURES.flatMap((m) => ['-m', m]), small.qrels, small.run]);
      figures.small_trec_eval_wall_s = Number((smallTe.best.wallMs / 1000).toFixed(3));
      const teBest = best(trecEval, [...MEASURES.flatMap((m) => ['-m', m]), files.qrels, files.run]);
      const te = teBest.best;
      figures.trec_eval_wall_samples_s = JSON.stringify(teBest.samples);
      if (te.status !== 0) throw new Error(`trec_eval failed: ${te.stderr}`);
      const a = summaryValues(ours.stdout);
      const b = summaryValues(te.stdout);
      const disagreements = [...b].filter(([k, v]) => a.get(k) !== v);
      figures.trec_eval_wall_s = Number((te.wallMs / 1000).toFixed(3));
      figures.trec_eval_peak_rss_mib = te.peakRssMiB === null ? null : Number(te.peakRssMiB.toFixed(1));
      figures.ratio_vs_trec_eval = Number((ours.wallMs / te.wallMs).toFixed(3));
      figures.values_agree = disagreements.length === 0 && b.size > 0;
      if (disagreements.length) figures.disagreements = JSON.stringify(disagreements);
    }
    // issue 13's goals: <= 0.3x trec_eval's time and below its peak on 7M shuffled lines (when a
    // trec_eval binary is given), <= 0.15 s for 50 queries; and the values must agree
    const goals = {
      ratio_vs_trec_eval: '<= 0.3',
      rgate_peak_rss_mib: '< trec_eval_peak_rss_mib',
      small_rgate_wall_s: '<= 0.15',
    };
    const tePeak = figures.trec_eval_peak_rss_mib as number | null | undefined;
    const ok =
      (figures.small_rgate_wall_s as number) <= 0.15 &&
      (figures.ratio_vs_trec_eval === null || (figures.ratio_vs_trec_eval as number) <= 0.3) &&
      (figures.rgate_peak_rss_mib === null ||
        tePeak === null ||
        tePeak === undefined ||
        (figures.rgate_peak_rss_mib as number) < tePeak) &&
      figures.values_agree !== false;
    const result: BenchResult = { name: 'score-speed', ok, figures, goals };
    process.stdout.write(
      `rgate score: ${figures.rgate_wall_s} s wall, ${figures.rgate_peak_rss_mib} MiB peak ` +
        `(${queries} queries x ${depth} docs; CLI startup alone ${figures.cli_startup_s} s; ` +
        `library path ${figures.library_wall_s} s; load ${figures.load_average_1m})` +
        (trecEval
          ? `; trec_eval ${figures.trec_eval_wall_s} s; ratio ${figures.ratio_vs_trec_eval}x; values agree: ${figures.values_agree}`
          : '; set TREC_EVAL=/path/to/trec_eval to compare') +
        `; 50 queries: ${figures.small_rgate_wall_s} s (node alone ${figures.node_startup_s} s)\n`,
    );
    writeBenchResult('score-speed', result);
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  const r = await run();
  process.exitCode = r.ok ? 0 : 1;
}
