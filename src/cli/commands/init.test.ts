import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CliIo } from '../command.js';
import { runCli } from '../program.js';

const beirMini = resolve(import.meta.dirname, '../../../test/data/beir-mini');
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rgate-init-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIo = {
    out: (t) => (out += t + '\n'),
    err: (t) => (err += t + '\n'),
    color: false,
    isTty: false,
    cwd: dir,
    env: {},
  };
  const code = await runCli(argv, io);
  return { code, out, err };
}

describe('rgate init: flags only, one-line mistakes', () => {
  it('needs data, a contract for a command, an URL for http; trec/smart go through rgate import', async () => {
    const cases: [string[], RegExp][] = [
      [['init'], /rgate init needs your data: --from beir\|dir\|memory-cli <path>, or --fixture <set>/],
      [
        ['init', '--fixture', 'context-load', '--system', 'command', '--', 'node', 'x.mjs'],
        /--system command needs --contract/,
      ],
      [
        ['init', '--fixture', 'context-load', '--system', 'command', '--contract', 'rgate'],
        /needs the command after --/,
      ],
      [['init', '--fixture', 'context-load', '--system', 'http'], /--system http needs the endpoint URL/],
      [['init', '--from', 'trec', 'x'], /--from trec: TREC and SMART collections are several files/],
      [['init', '--fixture', 'context-load', '--suite', 'a b'], /--suite "a b": letters, digits/],
    ];
    for (const [argv, message] of cases) {
      const r = await cli(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toMatch(message);
      expect(r.err).not.toMatch(/\n\s+at /); // never a stack
    }
    expect(existsSync(join(dir, 'rgate.config.json'))).toBe(false);
  });

  it('writes a config for an http system on a bundled set with a bundled gate, and refuses to overwrite it', async () => {
    const argv = [
      'init',
      '--fixture',
      'context-load',
      '--gate',
      'context-load-contract-v0',
      '--system',
      'http',
      'http://127.0.0.1:9/retrieve',
      '--contract',
      'context-load-v0',
    ];
    const r = await cli(argv);
    expect(r.code, r.err).toBe(0);
    const config = JSON.parse(readFileSync(join(dir, 'rgate.config.json'), 'utf8')) as {
      suites: Record<string, { system: unknown; gate: string; fixture: string }>;
    };
    expect(config.suites['retrieval']).toMatchObject({
      fixture: 'context-load',
      gate: 'context-load-contract-v0',
      system: { type: 'http', url: 'http://127.0.0.1:9/retrieve', contract: 'context-load-v0' },
    });
    // a bundled gate is used as it is: no copy in the project
    expect(existsSync(join(dir, 'gates'))).toBe(false);
    writeFileSync(join(dir, 'rgate.config.json'), '{"suites": {}}');
    const again = await cli(argv);
    expect(again.code).toBe(2);
    expect(again.err).toContain('rgate init would overwrite rgate.config.json');
    expect(readFileSync(join(dir, 'rgate.config.json'), 'utf8')).toBe('{"suites": {}}');
    expect((await cli([...argv, '--force'])).code).toBe(0);
  });

  it('imports a BEIR folder frozen, and writes a starter gate sized to it', async () => {
    const r = await cli(['init', '--from', 'beir', beirMini, '--ci', 'gitlab', '--min-ndcg', '0.5']);
    expect(r.code, r.err).toBe(0);
    expect(existsSync(join(dir, 'fixtures', 'retrieval', 'freeze.json'))).toBe(true);
    const gate = JSON.parse(readFileSync(join(dir, 'gates', 'retrieval.gate.json'), 'utf8')) as {
      min_queries: number;
      rules: { metric: string; min?: number }[];
    };
    expect(gate.min_queries).toBe(6);
    expect(gate.rules.find((x) => x.metric === 'ndcg_cut.10')!.min).toBe(0.5);
    expect(existsSync(join(dir, '.gitlab-ci.yml'))).toBe(true);
    expect(r.out).toContain('next:');
  });
});
