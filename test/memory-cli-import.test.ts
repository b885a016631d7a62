import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { QueryRecord } from '../src/documents/index.js';
import { runCli } from '../src/cli/program.js';
import { captureIo } from './helpers/cli-io.js';
import { tempDir } from './history-helpers.js';

/** From a memory-cli root to a frozen set with fallback probes, through the CLI. */
const ROOT = resolve(import.meta.dirname, '..', 'fixtures', 'memory-cli-import', 'root');
const t = tempDir('rgate-memimport-');
afterAll(() => t.cleanup());

async function cli(args: string[]) {
  const io = captureIo(t.dir);
  const code = await runCli(args, io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

describe('rgate import memory-cli', () => {
  it('imports a root, freezes it, takes probes with a version bump and verifies', async () => {
    const imported = await cli([
      'import',
      'memory-cli',
      ROOT,
      '--out',
      'fixtures/mem',
      '--freeze',
      '--date',
      '2026-11-23',
    ]);
    expect(imported.err).toBe('');
    expect(imported.code).toBe(0);
    expect(imported.out).toContain('5 corpus records, 0 queries');
    expect(imported.out).toContain('frozen: mem-fixture v1 (created)');
    const provenance = readFileSync(join(t.dir, 'fixtures', 'mem', 'PROVENANCE.md'), 'utf8');
    expect(provenance).toContain('## Import (memory-cli)');
    expect(provenance).toContain('| `index.yaml` |');

    const probes = await cli([
      'probes',
      'add',
      'mem',
      '--count',
      '2',
      '--version',
      'v2',
      '--reset-note',
      'probes',
      '--date',
      '2026-11-23',
    ]);
    expect(probes.code).toBe(0);
    const queries = readFileSync(join(t.dir, 'fixtures', 'mem', 'queries.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as QueryRecord);
    // ids as exact keys (the root has no keys), two no-match probes, one folder
    expect(queries.map((q) => q.query_id)).toEqual([
      'probe-exact-key-001',
      'probe-exact-key-002',
      'probe-no-match-001',
      'probe-no-match-002',
      'probe-path-priority-001',
    ]);
    expect(queries.at(-1)!.text).toBe('instructions/kbx');
    expect((await cli(['verify', 'mem'])).code).toBe(0);
  });

  it('a memory root that is not one is exit 2 naming the file', async () => {
    const r = await cli(['import', 'memory-cli', t.dir, '--out', 'fixtures/none']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('index.yaml: no such file');
  });
});
