import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPrng } from '../core/prng.js';
import type { CliIo } from '../cli/command.js';
import { runScoreCli } from '../cli/score-main.js';
import { findTrecEval, TREC_EVAL_HINT } from '../../test/helpers/trec-eval.js';

/**
 * Seeded random collections scored with every trec_eval measure rgate has, compared with trec_eval
 * 10.0's whole output: graded qrels (0-4 and 12) with grade -1 (pooled, unjudged), queries with no
 * relevant doc, retrieved docs outside the qrels, many tied scores in shuffled order, run queries
 * without qrels and (for -c) qrels queries without results. Every qrels query holds one grade >= 0:
 * for a query whose grades are all negative trec_eval reuses the previous query's grade counts (see
 * docs/DECISIONS.md), which rgate does not copy.
 */
function randomCollection(seed: number, missing: boolean): { qrels: string; run: string } {
  const rng = createPrng(seed);
  const grades = [-1, 0, 0, 0, 1, 1, 2, 3, 4, 12];
  let qrels = '';
  let run = '';
  const nq = 4 + rng.int(8);
  const qids = new Set<string>();
  while (qids.size < nq) qids.add(`${rng.int(3) ? '' : 'x'}${100 + rng.int(50)}`);
  for (const qid of qids) {
    const noRel = rng.int(5) === 0;
    const judged = new Set<number>();
    const nj = 1 + rng.int(40);
    while (judged.size < nj) judged.add(rng.int(60));
    let first = true;
    for (const d of judged) {
      const g = noRel ? (first ? 0 : rng.int(2) - 1) : first ? rng.int(3) : grades[rng.int(grades.length)];
      qrels += `${qid} 0 D${d} ${g}\n`;
      first = false;
    }
    if (missing && rng.int(5) === 0) continue;
    const retrieved = new Set<number>();
    const nr = rng.int(70);
    for (let k = 0; k < nr; k++) retrieved.add(rng.int(80));
    let rank = 1;
    for (const d of retrieved) {
      const score = rng.int(3) ? String(rng.int(8)) : (rng.int(1000) / 7).toFixed(3);
      run += `${qid} Q0 D${d} ${rank++} ${score} rand${seed}\n`;
    }
  }
  run += `999 Q0 D1 1 1 rand${seed}\n`; // a run query without qrels: ignored
  return { qrels, run };
}

/** sha256 of no output */
const EMPTY = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

interface Case {
  seed: number;
  args: string[];
  /** sha256 of what trec_eval 10.0 (NIST's sources, built with make) printed for `trec_eval <args> qrels run` */
  sha256: string;
}

const EXTRA = ['-m', 'relstring.15', '-m', 'dcg', '-m', 'ideal_dcg', '-m', 'rbp.p=0.7,0=0.5,2=5'];
const CASES: Case[] = [
  {
    seed: 11,
    args: ['-q', '-m', 'all_trec'],
    sha256: 'e2ffadc0db093503ce62f2aead0b3f88f919f09184aaebc1667d34714be677a6',
  },
  {
    seed: 12,
    args: ['-q', '-m', 'all_trec', '-l2'],
    sha256: '2315cc5b23e33c9bda1792deb1853c902c00861945ed7a106ba9a9c3ab61b398',
  },
  {
    seed: 13,
    args: ['-q', '-c', '-m', 'all_trec'],
    sha256: '6daf4f6f0b0508201547ebe8dc6b5c67b34e9261b212949e9627def1b2a307c8',
  },
  {
    seed: 14,
    args: ['-q', '-M10', '-m', 'all_trec', ...EXTRA],
    sha256: '46f1391c1c8617f16baf875fa16f46389f06e6a5a7f4abf3a12ffe6a2342ff53',
  },
  {
    seed: 15,
    args: ['-q', '-c', '-m', 'rbp', '-m', 'rbp.1=-1,3=0.5', '-m', 'relstring.15'],
    sha256: '2bca50cc6b20f8e70631c92b1bd841ee2fac7e05753a007232a9060ea550b1ee',
  },
  {
    seed: 16,
    args: ['-q', '-c', '-M5', '-m', 'relstring', '-m', 'rbp_resid'],
    sha256: '56ed28f0e6c871e22a755c41cae48d4de2728f0f0837f4fa378bac9fb774506f',
  },
  // -n: per-query lines only
  {
    seed: 17,
    args: ['-q', '-n', '-m', 'all_trec'],
    sha256: 'c4b59134f84d1a0dc7b175d3b25c4cb92ea7fe44b9635019fb15bcd9c4a171fa',
  },
  // -N: utility's non-relevant-not-retrieved count; plain `utility` zeroes a missing query under -c
  {
    seed: 18,
    args: ['-qc', '-N', '500', '-m', 'utility.1,-1,0,1', '-m', 'utility', '-m', 'utility.0,0,0,1'],
    sha256: '32cd8cd3389a1a5730c9c53af2709cdbd5a101e10f420a7913dc9b015db3fc0e',
  },
  // trec_eval's long option names, with = and without; grouped -qcJ
  {
    seed: 19,
    args: [
      '--query_eval_wanted',
      '--complete_rel_info_wanted',
      '--Number_docs_in_coll=80',
      '--measure=utility.2,-1,-1,0.5',
      '--measure',
      'all_trec',
      '--level_for_rel=2',
      '--Max_retrieved_per_topic',
      '20',
      '--Rel_info_format=qrels',
      '-T',
      'trec_results',
    ],
    sha256: '2b7a33c831c6fbcf6ee9053dac4c642e2527a1b3522173fe0cb6985fd64eb949',
  },
  // -J drops -c's placeholder ranking too: a really empty ranking, 0/0 printed as -nan
  {
    seed: 20,
    args: ['-qcJ', '-mall_trec', '-M30'],
    sha256: 'b552b8ce5db56ac74a0a9641c808eab58430443aec0f00ff79e04dc835ddd003',
  },
  {
    seed: 22,
    args: ['-qc', '-M0', '-mall_trec'],
    sha256: 'c692fb0bf40892c796f074755eea7a675f6a964b937dc259818300a8e4eb49b7',
  },
  {
    seed: 23,
    args: [
      '-qcJ',
      '-mrelstring.5',
      '-mrbp_resid.p=0.8',
      '-mutility.1,-1,2,0.5',
      '-mrelstring',
      '-mrbp_resid',
      '-mutility',
      '-N',
      '70',
    ],
    sha256: '37893a2d48870420670c9763b436a3a1deb936314ccbb430536396f07c6abf04',
  },
  // -n without -q: nothing at all
  { seed: 21, args: ['-n', '-m', 'map'], sha256: EMPTY },
  // the set nickname (runid num_q num_ret num_rel num_rel_ret utility set_P set_recall ...)
  {
    seed: 24,
    args: ['-q', '-m', 'set', '-l2'],
    sha256: '9f1571498193b7c48c0cf1e7dba42191a9fe8dd557c612f6087ed66b7c65e0f7',
  },
  {
    seed: 25,
    args: ['-q', '-c', '-M15', '-mset', '-mofficial'],
    sha256: 'dd8c36063b8d7e1c012142dba9c893fd8501330e7cc6f657eafde42213d130ea',
  },
];

// $TREC_EVAL, else trec_eval on PATH: where there is one, every case is also run through it
const TREC_EVAL = findTrecEval();
if (!TREC_EVAL)
  console.info(`src/metrics/trec-random.test.ts: binary cross-check skipped: ${TREC_EVAL_HINT}`);
const dir = mkdtempSync(join(tmpdir(), 'rgate-trec-random-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What `rgate score <args> qrels run` prints: the real command line, trec_eval's arguments as they are. */
async function rgate(qrels: string, run: string, args: string[]): Promise<string> {
  writeFileSync(join(dir, 'q'), qrels);
  writeFileSync(join(dir, 'r'), run);
  let out = '';
  let err = '';
  const io: CliIo = {
    out: (t) => (out += t.endsWith('\n') ? t : t + '\n'),
    err: (t) => (err += t),
    color: false,
    isTty: false,
    cwd: dir,
    env: {},
  };
  const code = await runScoreCli([...args, 'q', 'r'], io);
  expect(err).toBe('');
  expect(code).toBe(0);
  return out;
}

describe('random collections vs trec_eval 10.0, whole output byte for byte', () => {
  for (const c of CASES) {
    const { qrels, run } = randomCollection(c.seed, c.args.includes('-c'));
    it(`seed ${c.seed}: trec_eval ${c.args.join(' ')}`, async () => {
      const ours = await rgate(qrels, run, c.args);
      if (c.sha256 !== EMPTY) expect(ours.split('\n').length).toBeGreaterThan(4);
      expect(createHash('sha256').update(ours).digest('hex')).toBe(c.sha256);
    });
  }
});

// a failure here shows the lines that differ, where the hashes above only say that something does
describe.skipIf(!TREC_EVAL)(
  `random collections vs the trec_eval binary (${TREC_EVAL ?? TREC_EVAL_HINT})`,
  () => {
    for (const c of CASES) {
      const { qrels, run } = randomCollection(c.seed, c.args.includes('-c'));
      it(`seed ${c.seed}: same lines as trec_eval ${c.args.join(' ')}`, async () => {
        const ours = await rgate(qrels, run, c.args);
        const theirs = execFileSync(TREC_EVAL!, [...c.args, join(dir, 'q'), join(dir, 'r')], {
          encoding: 'utf8',
        });
        expect(ours.split('\n')).toEqual(theirs.split('\n'));
      });
    }
  },
);

describe('finding the trec_eval binary', () => {
  it('takes $TREC_EVAL, else trec_eval on PATH; a TREC_EVAL that names no executable is an error', () => {
    const bin = join(dir, 'bin');
    mkdirSync(bin, { recursive: true });
    const te = join(bin, 'trec_eval');
    writeFileSync(te, '#!/bin/sh\n');
    const PATH = ['/nonexistent', bin].join(':');
    chmodSync(te, 0o644);
    expect(findTrecEval({ PATH })).toBeUndefined(); // not executable: not a binary to run
    chmodSync(te, 0o755);
    expect(findTrecEval({ PATH })).toBe(te);
    expect(findTrecEval({ PATH: '/nonexistent' })).toBeUndefined();
    expect(findTrecEval({ TREC_EVAL: te, PATH: '' })).toBe(te);
    expect(() => findTrecEval({ TREC_EVAL: join(dir, 'nope'), PATH })).toThrow(
      /TREC_EVAL=.*nope: not an executable file/,
    );
  });
});
