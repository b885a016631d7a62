/**
 * The query a system receives is the query the team wrote: import -> freeze -> run of a BEIR set
 * whose query text holds CRLF, a tab and leading/trailing spaces, with a command system that records
 * its argv (test/sut/argv-echo.mjs). The fixture stores the text as written (storedJson); its ids
 * are the canonical content's, as before (the hash normalises CRLF and trailing spaces, the file
 * does not), so a set imported before keeps its snapshot ids.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/program.js';
import { canonicalJson } from '../src/core/canonical-json.js';
import { sha256 } from '../src/core/hash.js';
import { readFreeze } from '../src/snapshot/index.js';
import { captureIo } from './helpers/cli-io.js';
import { tempDir } from './history-helpers.js';

const ECHO = resolve(import.meta.dirname, 'sut', 'argv-echo.mjs');
const TEXTS: Record<string, string> = {
  m1: 'line one\nline two\r\nthree\ttab',
  m2: '  leading and trailing spaces  ',
  m3: 'trailing tab before a break\t\r\nand a CR alone\rend ',
  m4: 'plain words',
};

let root: string;
let cleanup: () => void;
const cli = async (args: string[]): Promise<void> => {
  const io = captureIo(root);
  const code = await runCli(args, io);
  expect(code, `${args.join(' ')}\n${io.stderr.join('\n')}`).toBe(0);
};

beforeAll(async () => {
  ({ dir: root, cleanup } = tempDir('rgate-query-text-'));
  const data = join(root, 'data');
  mkdirSync(join(data, 'qrels'), { recursive: true });
  writeFileSync(
    join(data, 'corpus.jsonl'),
    '{"_id": "d1", "text": "doc 1"}\n{"_id": "d2", "text": "doc 2"}\n',
  );
  writeFileSync(
    join(data, 'queries.jsonl'),
    Object.entries(TEXTS)
      .map(([id, text]) => JSON.stringify({ _id: id, text }))
      .join('\n') + '\n',
  );
  writeFileSync(
    join(data, 'qrels', 'test.tsv'),
    'query-id\tcorpus-id\tscore\n' +
      Object.keys(TEXTS)
        .map((id) => `${id}\td1\t1\n`)
        .join(''),
  );
  writeFileSync(
    join(root, 'rgate.config.json'),
    JSON.stringify({
      suites: {
        echo: {
          fixture: 'echo',
          system: {
            type: 'command',
            argv: [process.execPath, ECHO, join(root, 'argv.log'), '{query_id}', '{query}'],
            contract: 'rgate',
            timeout_ms: 20_000,
          },
          replays: 1,
        },
      },
    }),
  );
  await cli(['import', 'beir', data, '--out', join(root, 'fixtures', 'echo')]);
  await cli(['freeze', join(root, 'fixtures', 'echo')]);
  await cli(['run', 'echo', '--no-store', '--out-dir', join(root, 'out')]);
}, 120_000);
afterAll(() => cleanup());

describe('query text through import, freeze and run', () => {
  it('the system receives each query exactly as queries.jsonl has it', () => {
    const got = readFileSync(join(root, 'argv.log'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as [string, string]);
    expect(Object.fromEntries(got)).toEqual(TEXTS);
  });

  it('the fixture stores the text as written, and its id is the canonical content’s', () => {
    const lines = readFileSync(join(root, 'fixtures', 'echo', 'queries.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean);
    const stored = lines.map((l) => JSON.parse(l) as { query_id: string; text: string });
    expect(Object.fromEntries(stored.map((q) => [q.query_id, q.text]))).toEqual(TEXTS);
    // the query set's sha256 is that of its lines in canonical form (CRLF and trailing spaces normalised)
    const canonical = lines.map((l) => canonicalJson(JSON.parse(l)) + '\n').join('');
    expect(readFreeze(join(root, 'fixtures', 'echo')).query_set_sha256).toBe(sha256(canonical));
  });
});
