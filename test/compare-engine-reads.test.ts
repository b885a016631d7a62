import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CompareSession, Report } from '../src/documents/index.js';
import { runCli } from '../src/cli/program.js';
import { captureIo } from './helpers/cli-io.js';

/**
 * The builtin engine's settings as comparison variants, on the shipped project: its modes through
 * `system.mode` (the suites fix their own `mode`), and a key the variant's mode never reads refused
 * before anything runs, in compare and run alike, instead of variants that tie on every query.
 */
const REPO = resolve(import.meta.dirname, '..');
const FAST = ['--replays', '1', '--resamples', '200', '--permutations', '200'];

// what a run writes goes here, not into the repository's .rgate/
const OUT = mkdtempSync(join(tmpdir(), 'rgate-engine-reads-'));
afterAll(() => rmSync(OUT, { recursive: true, force: true }));

async function cli(args: string[]) {
  const io = captureIo(REPO);
  const code = await runCli([...args, '--out-dir', OUT], io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

/** Compare `a` with `b`, then run `b`: both refused (exit 2) before anything runs; their stderr. */
async function refusedInBoth(suite: string, a: string, b: string): Promise<{ compare: string; run: string }> {
  const c = await cli(['compare', suite, '--set', a, '--set', b, '--no-save']);
  const r = await cli(['run', suite, '--set', b, '--no-store']);
  expect([c.code, r.code]).toEqual([2, 2]);
  return { compare: c.err, run: r.err };
}

/** Compare `a` with `b` (one replay), which must run (exit 0): the session. */
async function compared(suite: string, a: string, b: string): Promise<CompareSession> {
  const r = await cli(['compare', suite, '--set', a, '--set', b, ...FAST, '--json', '--no-save']);
  expect(r.err).not.toMatch(/error/i);
  expect(r.code).toBe(0);
  return JSON.parse(r.out) as CompareSession;
}

describe("the builtin engine's modes", () => {
  it('--set system.mode=<mode> runs each variant in its mode, named and hashed as such', async () => {
    const s = await compared('context-load', 'system.mode=context-load', 'system.mode=bm25');
    expect(s.variants.map((v) => v.overrides)).toEqual([
      { system: { mode: 'context-load' } },
      { system: { mode: 'bm25' } },
    ]);
    expect(s.variants[0]!.config_id).not.toBe(s.variants[1]!.config_id);
    // context-load and plain BM25 rank differently: the rankings moved, not only the config id
    expect(s.tests.some((x) => x.metric === 'ndcg_cut.5' && x.wins + x.losses > 0)).toBe(true);
  }, 60_000);

  it('a run with --set system.mode=bm25 is builtin:bm25 under the rgate contract', async () => {
    const r = await cli([
      'run',
      'context-load',
      '--set',
      'system.mode=bm25',
      '--replays',
      '1',
      '--no-store',
      '--json',
    ]);
    expect([0, 1]).toContain(r.code);
    const report = JSON.parse(r.out) as Report;
    expect(report.system.name).toBe('builtin:bm25');
    expect(report.system.contract).toBe('rgate');
    expect(report.artifacts.config_id).toMatch(/\+overrides-[0-9a-f]{12}$/);
  }, 60_000);

  it('--set mode= on a suite whose builtin system fixes its mode is refused, pointing at system.mode', async () => {
    const { compare, run } = await refusedInBoth('context-load', 'mode=context-load', 'mode=bm25');
    expect(compare).toContain('variant "mode=bm25": builtin:context-load never reads mode');
    expect(compare).toContain('did you mean system.mode?');
    expect(compare).toContain('--set system.mode=bm25');
    expect(run).toContain('never reads mode');
  });

  it('system.mode on a command system is refused', async () => {
    const r = await cli(['run', 'cortex-coach', '--set', 'system.mode=bm25', '--no-store']);
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      "system.mode: chooses the builtin engine's mode; this suite's system is a command system",
    );
  });
});

describe('a key the engine mode never reads', () => {
  it("a sweep of the cosine gate under hybrid_rrf is refused, naming the method's own gate", async () => {
    const r = await cli([
      'compare',
      'semantic',
      '--sweep',
      'semantic.confidence_min=0.25:0.45:0.05',
      '--no-save',
    ]);
    expect(r.code).toBe(2);
    const line = r.err.split('\n')[0]!;
    expect(line).toBe(
      'rgate: error: variant "semantic.confidence_min=0.25": builtin:semantic (method hybrid_rrf) never reads semantic.confidence_min, so this variant would change nothing; did you mean semantic.hybrid_confidence_min?',
    );
  });

  it('weighting_mode in semantic mode is refused in compare and run, saying which mode reads it', async () => {
    const { compare, run } = await refusedInBoth(
      'semantic',
      'weighting_mode=uniform',
      'weighting_mode=evidence_outcome_bias',
    );
    expect(compare).toContain('builtin:semantic (method hybrid_rrf) never reads weighting_mode');
    expect(compare).toContain('it is read by mode context-load');
    expect(run).toContain('never reads weighting_mode');
  });

  it('the cosine gates are read once the variant chooses method cosine', async () => {
    const s = await compared(
      'semantic',
      'semantic.method=cosine semantic.confidence_min=0.2',
      'semantic.method=cosine semantic.confidence_min=0.6',
    );
    expect(s.tests.some((x) => x.wins + x.losses > 0)).toBe(true);
  }, 60_000);
});
