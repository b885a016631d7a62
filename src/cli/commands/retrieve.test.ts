import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../program.js';
import { captureIo } from '../../../test/helpers/cli-io.js';
import { compiledCli } from '../../../test/helpers/dist.js';

const root = resolve(import.meta.dirname, '../../..');

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = captureIo(root);
  const code = await runCli(argv, io);
  const text = (lines: string[]) => lines.map((t) => t + '\n').join('');
  return { code, out: text(io.stdout), err: text(io.stderr) };
}

describe('rgate retrieve (bundled fixture sets)', () => {
  it('prints context-load v0 JSON for one task', async () => {
    const r = await cli([
      'retrieve',
      '--fixture',
      'context-load',
      '--task',
      'holiday deploy freeze',
      '--mode',
      'context-load',
      '--profile',
      'small',
      '--json',
    ]);
    expect(r.code).toBe(0);
    const body = JSON.parse(r.out) as {
      ranking_contract_version: string;
      retrieval_profile: string;
      entries: unknown[];
    };
    expect(body.ranking_contract_version).toBe('v0');
    expect(body.retrieval_profile).toBe('small');
    expect(body.entries.length).toBeGreaterThan(0);
  });

  it('prints a semantic selection and the retrieval-result-v1 view', async () => {
    const sel = await cli([
      'retrieve',
      '--fixture',
      'context-load',
      '--task',
      'holiday deploy freeze',
      '--mode',
      'semantic',
      '--json',
    ]);
    expect(sel.code).toBe(0);
    expect(JSON.parse(sel.out)).toMatchObject({
      contract: 'memory-cli-v1',
      selection_mode: expect.any(String),
    });
    const view = await cli([
      'retrieve',
      '--fixture',
      'context-load',
      '--task',
      'holiday deploy freeze',
      '--mode',
      'semantic',
      '--view',
      'retrieval-result-v1',
      '--json',
    ]);
    expect(JSON.parse(view.out)).toMatchObject({ query_embedding_dimensions: 768, k_requested: 10 });
  });

  it('ranks CACM with BM25 in plain text and rejects bad budgets with exit 2', async () => {
    const r = await cli(['retrieve', '--fixture', 'cacm', '--task', 'time sharing system', '--k', '3']);
    expect(r.code).toBe(0);
    expect(r.out.trim().split('\n')).toHaveLength(3);
    const bad = await cli(['retrieve', '--fixture', 'cacm', '--task', 'x', '--k', '-1']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--k must be a non-negative integer/);
    const missing = await cli(['retrieve', '--fixture', 'no-such-set', '--task', 'x']);
    expect(missing.code).toBe(2);
  });

  it('--help says what it prints: a readable ranking by default, the contract JSON with --json', async () => {
    // yargs ends the process after help, so this runs the compiled CLI
    const help = execFileSync(process.execPath, [compiledCli(), 'retrieve', '--help'], {
      encoding: 'utf8',
    }).replace(/\s+/g, ' ');
    expect(help).not.toContain('and print the contract JSON');
    expect(help).toContain('a readable ranking, or the contract JSON with --json');
    const argv = ['retrieve', '--fixture', 'cacm', '--task', 'time sharing systems', '--k', '3'];
    const plain = await cli(argv);
    expect(plain.code).toBe(0);
    expect(() => JSON.parse(plain.out) as unknown).toThrow();
    expect((JSON.parse((await cli([...argv, '--json'])).out) as { mode: string }).mode).toBe('bm25');
  });
});
