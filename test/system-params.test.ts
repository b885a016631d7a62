import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompareSession } from '../src/documents/index.js';
import { runCli } from '../src/cli/program.js';
import { captureIo } from './helpers/cli-io.js';
import { writeMemoryProject } from './helpers/memory-project.js';
import { tempDir } from './history-helpers.js';

/**
 * `system.params`: a system's own setting as a real comparison variant. The SUT is a real process
 * (test/sut/memory-modes.mjs) that takes `--mode` from `{params.mode}` in its argv and checks the
 * same value arrived through `{params.mode}` in its env; it logs every mode it ran in.
 */
const t = tempDir('rgate-params-');
const log = join(t.dir, 'modes.log');
afterAll(() => t.cleanup());
beforeAll(async () => {
  writeMemoryProject(t.dir, log);
  expect(await runCli(['freeze', 'notes', '--date', '2026-11-23'], captureIo(t.dir))).toBe(0);
});

async function cli(args: string[]) {
  const io = captureIo(t.dir);
  const code = await runCli(args, io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

describe('system.params as a comparison variant', () => {
  it('--set system.params.mode=hybrid is a real variant: its own config id, and the process gets the value', async () => {
    rmSync(log, { force: true });
    const r = await cli([
      'compare',
      'memory',
      '--set',
      'system.params.mode=classic',
      '--set',
      'system.params.mode=hybrid',
      '--replays',
      '1',
      '--permutations',
      '200',
      '--resamples',
      '200',
      '--json',
      '--no-save',
    ]);
    expect(r.err).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.out) as CompareSession;
    const [a, b] = s.variants;
    expect(a!.overrides).toEqual({ system: { params: { mode: 'classic' } } });
    expect(b!.config_id).not.toBe(a!.config_id);
    expect(b!.config_sha256).not.toBe(a!.config_sha256);
    expect(a!.config_id).toMatch(/^notes\/config@v1#[0-9a-f]{16}\+overrides-[0-9a-f]{12}$/);
    // 4 queries x 1 replay per variant, each mode exactly as asked
    const modes = readFileSync(log, 'utf8').trim().split('\n').sort();
    expect(modes).toEqual([...Array(4).fill('classic'), ...Array(4).fill('hybrid')]);
    // hybrid breaks the alpha/bravo and charlie/delta ties the other way: top-1 flips on q1 and q2
    expect(s.flips[0]!.queries.map((f) => f.query_id).sort()).toEqual(['q1', 'q2']);
  });

  it('a run uses the suite params; --set on the run overrides them', async () => {
    rmSync(log, { force: true });
    const r = await cli([
      'run',
      'memory',
      '--replays',
      '1',
      '--no-store',
      '--set',
      'system.params.mode=hybrid',
      '--json',
    ]);
    expect([0, 1]).toContain(r.code);
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual(Array(4).fill('hybrid'));
  });

  it('a parameter the system never receives is refused before anything runs', async () => {
    rmSync(log, { force: true });
    const r = await cli([
      'compare',
      'memory',
      '--set',
      'system.params.mod=classic',
      '--set',
      'system.params.mod=hybrid',
      '--no-save',
    ]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('never receives system.params.mod');
    expect(r.err).toContain('{params.mode}');
    expect(existsSync(log)).toBe(false);
    // and in a run
    const run = await cli(['run', 'memory', '--set', 'system.params.mod=hybrid', '--no-store']);
    expect(run.code).toBe(2);
    expect(run.err).toContain('never receives system.params.mod');
    expect(existsSync(log)).toBe(false);
  });

  it('unknown keys and wrong types in --set and --sweep are exit 2 with the closest key or the type', async () => {
    const typo = await cli([
      'compare',
      'memory',
      '--set',
      'semantic.confidence_mn=0.1',
      '--set',
      'k=3',
      '--no-save',
    ]);
    expect(typo.code).toBe(2);
    expect(typo.err).toContain('did you mean semantic.confidence_min?');
    const sweep = await cli([
      'compare',
      'memory',
      '--sweep',
      'semantic.confidence_mn=0.1:0.3:0.1',
      '--no-save',
    ]);
    expect(sweep.code).toBe(2);
    expect(sweep.err).toContain('did you mean semantic.confidence_min?');
    const type = await cli(['run', 'memory', '--set', 'k=many', '--no-store']);
    expect(type.code).toBe(2);
    expect(type.err).toContain('k expects an integer >= 1, got the string "many"');
    const frac = await cli(['compare', 'memory', '--sweep', 'k=1:2:0.5', '--no-save']);
    expect(frac.code).toBe(2);
    expect(frac.err).toContain('k expects an integer >= 1, got the number 1.5');
  });

  it('the builtin engine takes no system params', async () => {
    const io = captureIo(resolve(import.meta.dirname, '..'));
    const code = await runCli(['run', 'cacm', '--set', 'system.params.mode=hybrid', '--no-store'], io);
    expect(code).toBe(2);
    expect(io.stderr.join('\n')).toContain(
      'system.params.mode: the builtin engine takes no system parameters',
    );
    const ranked = captureIo(resolve(import.meta.dirname, '..'));
    expect(await runCli(['run', 'cacm', '--set', 'system.ranked_entries=all', '--no-store'], ranked)).toBe(2);
    expect(ranked.stderr.join('\n')).toContain(
      'system.ranked_entries: the builtin engine ranks its own results',
    );
  });

  it('a sweep whose grid points all resolve to one config is refused', async () => {
    // 12 significant digits: these three points are one value
    const r = await cli([
      'compare',
      'memory',
      '--sweep',
      'semantic.confidence_min=0.1000000000001:0.1000000000003:0.0000000000001',
      '--no-save',
    ]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('resolves to the same config');
  });
});
