import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { parseGatePolicy } from '../gates/policy.js';
import type { CliIo } from '../src/cli/command.js';
import { runCli } from '../src/cli/program.js';
import { isRgateError } from '../src/core/errors.js';

/**
 * Every loader and importer under hostile input: truncated lines, wrong types, NaN and Infinity,
 * duplicate ids, invalid UTF-8, BOMs, huge lines, empty files. Each case must end in a clear input
 * error (exit 2, no stack trace) or be accepted; never an internal error (exit 3), a stack or a hang.
 * Loaders are driven through the real CLI program (in-process) so every layer of checks is in play.
 */
const tmp = mkdtempSync(join(tmpdir(), 'rgate-fuzz-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const SEED = 20261123;
const RUNS = 60;

function io(cwd: string): CliIo & { stderr: string[] } {
  const stderr: string[] = [];
  return { stderr, out: () => {}, err: (t) => stderr.push(t), color: false, isTty: false, cwd, env: {} };
}

/** One hostile edit of a valid file. */
type Mutation =
  | { kind: 'truncate'; at: number }
  | { kind: 'insert'; at: number; bytes: readonly number[] }
  | { kind: 'replace-token'; nth: number; with: string }
  | { kind: 'duplicate-line'; nth: number }
  | { kind: 'drop-line'; nth: number }
  | { kind: 'bom' }
  | { kind: 'huge-line'; size: number }
  | { kind: 'empty' };

const HOSTILE_TOKENS = [
  'NaN',
  'Infinity',
  '-Infinity',
  '1e999',
  '-1',
  '0',
  '""',
  '[]',
  '{}',
  'null',
  'true',
  '"\u0000"',
  '99999999999999999999',
  '1.5',
  '"x"',
];
const INVALID_UTF8: (readonly number[])[] = [
  [0xff],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0x80],
  [0xe2, 0x82],
];

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    bytes: fc.oneof(
      fc.constantFrom(...INVALID_UTF8),
      fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 4 }),
      fc.constantFrom([0x09], [0x0a], [0x0d], [0x22], [0x2c], [0x7b], [0x5d]),
    ),
  }),
  fc.record({
    kind: fc.constant('replace-token' as const),
    nth: fc.nat(),
    with: fc.constantFrom(...HOSTILE_TOKENS),
  }),
  fc.record({ kind: fc.constant('duplicate-line' as const), nth: fc.nat() }),
  fc.record({ kind: fc.constant('drop-line' as const), nth: fc.nat() }),
  fc.record({ kind: fc.constant('bom' as const) }),
  fc.record({ kind: fc.constant('huge-line' as const), size: fc.integer({ min: 100_000, max: 2_000_000 }) }),
  fc.record({ kind: fc.constant('empty' as const) }),
);

function mutate(src: Buffer, m: Mutation): Buffer {
  const text = src.toString('utf8');
  const lines = text.split('\n');
  switch (m.kind) {
    case 'truncate':
      return src.subarray(0, m.at % (src.length + 1));
    case 'insert': {
      const at = m.at % (src.length + 1);
      return Buffer.concat([src.subarray(0, at), Buffer.from(m.bytes), src.subarray(at)]);
    }
    case 'replace-token': {
      // a JSON value or a whitespace-separated field
      const tokens = [
        ...text.matchAll(/"[^"\n]*"|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null|[^\s"]+/g),
      ];
      if (tokens.length === 0) return src;
      const t = tokens[m.nth % tokens.length]!;
      return Buffer.from(text.slice(0, t.index) + m.with + text.slice(t.index! + t[0].length));
    }
    case 'duplicate-line': {
      const i = m.nth % lines.length;
      lines.splice(i, 0, lines[i]!);
      return Buffer.from(lines.join('\n'));
    }
    case 'drop-line':
      lines.splice(m.nth % lines.length, 1);
      return Buffer.from(lines.join('\n'));
    case 'bom':
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), src]);
    case 'huge-line':
      return Buffer.concat([src, Buffer.from(`{"id":"huge","text":"${'x'.repeat(m.size)}"}\n`)]);
    case 'empty':
      return Buffer.alloc(0);
  }
}

interface Tally {
  cases: number;
  accepted: number;
  refused: number;
}

/** Run `argv` in `cwd`: exit 0 (accepted) or 2 (refused with a message, no stack); anything else fails. */
async function expectCleanOutcome(argv: string[], cwd: string, tally: Tally, what: string): Promise<void> {
  const o = io(cwd);
  const code = await runCli(argv, o);
  const err = o.stderr.join('\n');
  tally.cases++;
  if (code === 0 || code === 1) tally.accepted++;
  else tally.refused++;
  expect([0, 1, 2], `${what}: exit ${code}\n${err}`).toContain(code);
  expect(err, what).not.toMatch(/internal error|\n\s+at .+:\d+:\d+/);
  if (code === 2) expect(err, what).toMatch(/^rgate: (error: )?\S/);
}

function report(name: string, t: Tally): void {
  console.log(`fuzz ${name}: ${t.cases} cases, ${t.accepted} accepted, ${t.refused} refused with exit 2`);
}

const corpus = [
  {
    id: 'd1',
    source_path: 'docs/a.md',
    title: 'Alpha',
    text: 'memory allocation in compilers',
    kind: 'canonical',
    captured_at: '2026-01-01T00:00:00Z',
    tags: ['x'],
  },
  {
    id: 'd2',
    source_path: 'docs/b.md',
    text: 'garbage collection and paging',
    kind: 'tactical',
    captured_at: '2026-01-02T00:00:00Z',
    evidence: 0.5,
  },
  {
    id: 'd3',
    source_path: 'docs/c.md',
    text: 'parsing context free grammars',
    kind: 'canonical',
    captured_at: '2026-01-03T00:00:00Z',
  },
];
const queries = [
  { query_id: 'q1', text: 'memory allocation', qrels: { d1: 2, d2: 0 }, useful_ids: ['d1'] },
  { query_id: 'q2', text: 'grammars', qrels: { d3: 1 }, tags: ['t'] },
];
const jsonl = (rows: readonly unknown[]): Buffer =>
  Buffer.from(rows.map((r) => JSON.stringify(r)).join('\n') + '\n');

/** A valid, frozen fixture set in `dir`; returns its files' bytes. */
async function frozenSet(dir: string): Promise<Record<string, Buffer>> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files: Record<string, Buffer> = {
    'corpus.jsonl': jsonl(corpus),
    'queries.jsonl': jsonl(queries),
    'config.json': Buffer.from(
      JSON.stringify({ mode: 'bm25', k: 10, bm25: { k1: 0.9, b: 0.4 } }, null, 2) + '\n',
    ),
  };
  for (const [f, b] of Object.entries(files)) writeFileSync(join(dir, f), b);
  const o = io(tmp);
  expect(await runCli(['freeze', dir, '--date', '2026-11-23'], o), o.stderr.join('\n')).toBe(0);
  files['freeze.json'] = readFileSync(join(dir, 'freeze.json'));
  return files;
}

describe('fuzz: every loader ends in a clear error or an acceptance', () => {
  it('fixture sets (corpus, queries, config, freeze) through rgate verify', async () => {
    const dir = join(tmp, 'set');
    const valid = await frozenSet(dir);
    const tally: Tally = { cases: 0, accepted: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.keys(valid)), mutation, async (file, m) => {
        for (const [f, b] of Object.entries(valid))
          writeFileSync(join(dir, f), f === file ? mutate(b, m) : b);
        await expectCleanOutcome(['verify', dir], tmp, tally, `${file} ${JSON.stringify(m).slice(0, 120)}`);
      }),
      { numRuns: RUNS * 2, seed: SEED },
    );
    report('fixture set', tally);
    expect(tally.refused).toBeGreaterThan(0);
  });

  it('TREC qrels and runs through rgate score', async () => {
    const qrels = Buffer.from('1 0 d1 1\n1 0 d2 0\n2 0 d3 2\n2 0 d1 0\n');
    const run = Buffer.from('1 Q0 d1 1 2.5 r\n1 Q0 d2 2 1.5 r\n2 Q0 d3 1 3 r\n2 Q0 d9 2 0.5 r\n');
    const tally: Tally = { cases: 0, accepted: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(fc.boolean(), mutation, async (mutateQrels, m) => {
        writeFileSync(join(tmp, 'q.txt'), mutateQrels ? mutate(qrels, m) : qrels);
        writeFileSync(join(tmp, 'r.txt'), mutateQrels ? run : mutate(run, m));
        await expectCleanOutcome(
          ['score', '-q', 'q.txt', 'r.txt'],
          tmp,
          tally,
          `${mutateQrels ? 'qrels' : 'run'} ${JSON.stringify(m).slice(0, 120)}`,
        );
      }),
      { numRuns: RUNS * 2, seed: SEED },
    );
    report('TREC qrels/run', tally);
    expect(tally.refused).toBeGreaterThan(0);
  });

  it('importers: BEIR, TREC topics, SMART', async () => {
    const inputs: Record<string, { files: Record<string, Buffer>; argv: string[] }> = {
      beir: {
        files: {
          'bq.jsonl': Buffer.from('{"_id":"1","text":"memory"}\n{"_id":"2","text":"paging"}\n'),
          'bqrels.tsv': Buffer.from('query-id\tcorpus-id\tscore\n1\td1\t1\n2\td2\t2\n'),
          'bc.jsonl': Buffer.from(
            '{"_id":"d1","title":"A","text":"memory allocation"}\n{"_id":"d2","title":"B","text":"paging"}\n',
          ),
        },
        argv: ['import', 'beir', '--queries', 'bq.jsonl', '--qrels', 'bqrels.tsv', '--corpus', 'bc.jsonl'],
      },
      trec: {
        files: {
          'topics.txt': Buffer.from(
            '<top>\n<num> Number: 1\n<title> memory allocation\n<desc> Description:\nhow memory is allocated\n</top>\n',
          ),
          'tqrels.txt': Buffer.from('1 0 CACM-1 1\n1 0 CACM-2 0\n'),
        },
        argv: ['import', 'trec', '--topics', 'topics.txt', '--qrels', 'tqrels.txt'],
      },
      smart: {
        files: {
          'docs.all': Buffer.from(
            '.I 1\n.T\nmemory\n.W\nmemory allocation\n.I 2\n.T\npaging\n.W\nvirtual memory paging\n',
          ),
          'q.qry': Buffer.from('.I 001\n.W\nmemory allocation\n.I 002\n.W\npaging\n'),
          'q.rel': Buffer.from('1 1 1\n2 2 2\n'),
        },
        argv: [
          'import',
          'smart',
          '--docs',
          'docs.all',
          '--queries',
          'q.qry',
          '--qrels',
          'q.rel',
          '--positional-query-ids',
        ],
      },
    };
    const tally: Tally = { cases: 0, accepted: 0, refused: 0 };
    const choice = fc
      .constantFrom(...Object.keys(inputs))
      .chain((k) => fc.tuple(fc.constant(k), fc.constantFrom(...Object.keys(inputs[k]!.files))));
    let n = 0;
    await fc.assert(
      fc.asyncProperty(choice, mutation, async ([kind, file], m) => {
        const { files, argv } = inputs[kind]!;
        for (const [f, b] of Object.entries(files))
          writeFileSync(join(tmp, f), f === file ? mutate(b, m) : b);
        await expectCleanOutcome(
          [...argv, '--out', `imports/${kind}-${n++}`],
          tmp,
          tally,
          `${kind} ${file} ${JSON.stringify(m).slice(0, 120)}`,
        );
      }),
      { numRuns: RUNS * 2, seed: SEED },
    );
    report('importers', tally);
    expect(tally.refused).toBeGreaterThan(0);
  });

  it('gate policies through the policy loader', () => {
    const policy = Buffer.from(
      readFileSync(join(import.meta.dirname, '..', 'gates', 'semantic-retrieval-v1.gate.json')),
    );
    const tally: Tally = { cases: 0, accepted: 0, refused: 0 };
    fc.assert(
      fc.property(mutation, (m) => {
        tally.cases++;
        const text = mutate(policy, m).toString('utf8');
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          tally.refused++; // the file loader names file and line for JSON syntax (readJsonFile)
          return;
        }
        try {
          parseGatePolicy(value, 'fuzz.gate.json');
          tally.accepted++;
        } catch (e) {
          expect(isRgateError(e), String(e)).toBe(true);
          expect((e as Error).message).toMatch(/^fuzz\.gate\.json/);
          tally.refused++;
        }
      }),
      { numRuns: RUNS * 3, seed: SEED },
    );
    report('gate policy', tally);
    expect(tally.refused).toBeGreaterThan(0);
  });
});
