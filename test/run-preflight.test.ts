import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/program.js';
import { captureIo } from './helpers/cli-io.js';
import { tempDir } from './history-helpers.js';

/**
 * Fail before spending: what can be known before the first request is refused at freeze or load,
 * with the file and line, and a run of several suites checks all of them before the first request
 * of the first one. The SUT of suite `counted` appends a line per request to a log, so "no request
 * was made" is observed, not assumed.
 */
const t = tempDir('rgate-preflight-');
afterAll(() => t.cleanup());

async function cli(args: string[]) {
  const io = captureIo(t.dir);
  const code = await runCli(args, io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

function writeSet(name: string, corpus: string, queries: string): void {
  const dir = join(t.dir, 'fixtures', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'corpus.jsonl'), corpus);
  writeFileSync(join(dir, 'queries.jsonl'), queries);
  writeFileSync(join(dir, 'config.json'), '{}\n');
}

const log = join(t.dir, 'requests.log');
const sut = join(t.dir, 'sut.mjs');
writeFileSync(
  sut,
  `import { appendFileSync } from 'node:fs';
appendFileSync(${JSON.stringify(log)}, process.argv[2] + '\\n');
process.stdout.write(JSON.stringify({ ranked: [{ id: 'doc-1', score: 1 }] }));
`,
);

function writeConfig(
  secondArgv: string[],
  gate?: string,
  fixture = 'demo',
  second: Record<string, unknown> = {},
  secondSystem: Record<string, unknown> = {},
): void {
  const config = {
    suites: {
      counted: {
        fixture: 'demo',
        system: { type: 'command', argv: ['node', sut, '{query_id}'], contract: 'rgate' },
        replays: 1,
      },
      second: {
        fixture,
        system: { type: 'command', argv: secondArgv, contract: 'rgate', ...secondSystem },
        replays: 1,
        ...(gate ? { gate } : {}),
        ...second,
      },
    },
  };
  writeFileSync(join(t.dir, 'rgate.config.json'), JSON.stringify(config, null, 2) + '\n');
}

describe('ids that a TREC line would split', () => {
  it('a corpus id with a space is refused by freeze, naming the file and line', async () => {
    writeSet(
      'spaced',
      '{"id":"doc-1","text":"a"}\n{"id":"doc two","text":"b"}\n',
      '{"query_id":"q1","text":"a"}\n',
    );
    const r = await cli(['freeze', 'spaced', '--date', '2026-11-26']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('corpus.jsonl:2 /id: must be one word (no spaces, tabs or newlines)');
    expect(existsSync(join(t.dir, 'fixtures', 'spaced', 'freeze.json'))).toBe(false);
  });

  it('a judged id or a query id with whitespace is refused too', async () => {
    writeSet('judged', '{"id":"doc-1","text":"a"}\n', '{"query_id":"q1","text":"a","qrels":{"doc 1":1}}\n');
    const a = await cli(['freeze', 'judged', '--date', '2026-11-26']);
    expect(a.code).toBe(2);
    expect(a.err).toContain('queries.jsonl:1 /qrels/"doc 1": must be one word');
    writeSet('qid', '{"id":"doc-1","text":"a"}\n', '{"query_id":"q\\t1","text":"a"}\n');
    const b = await cli(['freeze', 'qid', '--date', '2026-11-26']);
    expect(b.code).toBe(2);
    expect(b.err).toContain('queries.jsonl:1 /query_id: must be one word');
  });
});

describe('rgate run checks every suite before the first request', () => {
  writeSet(
    'demo',
    '{"id":"doc-1","text":"alpha"}\n',
    '{"query_id":"q1","text":"alpha","qrels":{"doc-1":1}}\n',
  );

  it('a placeholder typo in the second suite: exit 2 at its line in rgate.config.json, no request made', async () => {
    expect((await cli(['freeze', 'demo', '--date', '2026-11-26'])).code).toBe(0);
    writeConfig(['node', sut, '{qury}']);
    const r = await cli(['run', 'counted', 'second', '--no-store']);
    expect(r.code).toBe(2);
    const lines = readFileSync(join(t.dir, 'rgate.config.json'), 'utf8').split('\n');
    const line = lines.findIndex((l) => l.includes('{qury}')) + 1;
    expect(r.err).toContain(
      `rgate.config.json:${line} /suites/second/system/argv/2: unknown placeholder {qury}`,
    );
    expect(existsSync(log)).toBe(false);
    expect(existsSync(join(t.dir, '.rgate', 'runs'))).toBe(false);
  });

  it('a gate that does not resolve: named at the suite\'s "gate" line, no request made', async () => {
    writeConfig(['node', sut, '{query_id}'], 'no-such-gate');
    const r = await cli(['run', 'counted', 'second', '--no-store']);
    expect(r.code).toBe(2);
    const lines = readFileSync(join(t.dir, 'rgate.config.json'), 'utf8').split('\n');
    const line = lines.findIndex((l) => l.includes('no-such-gate')) + 1;
    expect(r.err).toContain(
      `rgate.config.json:${line} /suites/second/gate: suite "second": gate policy not found`,
    );
    expect(existsSync(log)).toBe(false);
  });

  it('a fixture that does not resolve: named at the suite\'s "fixture" line, no request made', async () => {
    writeConfig(['node', sut, '{query_id}'], undefined, 'no-such-set');
    const r = await cli(['run', 'counted', 'second', '--no-store']);
    expect(r.code).toBe(2);
    const lines = readFileSync(join(t.dir, 'rgate.config.json'), 'utf8').split('\n');
    const line = lines.findIndex((l) => l.includes('no-such-set')) + 1;
    expect(r.err).toContain(`rgate.config.json:${line} /suites/second/fixture: suite "second": `);
    expect(existsSync(log)).toBe(false);
  });

  it('an unknown ranking measure: named at its line in rgate.config.json, no request made', async () => {
    writeConfig(['node', sut, '{query_id}'], undefined, 'demo', {
      ranking_measures: ['recall.10', 'ndcg_cutt.10'],
    });
    const r = await cli(['run', 'counted', 'second', '--no-store']);
    expect(r.code).toBe(2);
    const lines = readFileSync(join(t.dir, 'rgate.config.json'), 'utf8').split('\n');
    const line = lines.findIndex((l) => l.includes('ndcg_cutt.10')) + 1;
    expect(r.err).toContain(
      `rgate.config.json:${line} /suites/second/ranking_measures/1: suite "second": unknown ranking measure "ndcg_cutt.10"`,
    );
    expect(existsSync(log)).toBe(false);
  });

  for (const [what, cwd] of [
    ['a folder that does not exist', 'no-such-folder'],
    ['a file', 'sut.mjs'],
  ] as const) {
    it(`a system cwd naming ${what}: exit 2 at its line in rgate.config.json with a hint, no request made`, async () => {
      writeConfig(['node', sut, '{query_id}'], undefined, 'demo', {}, { cwd });
      const r = await cli(['run', 'counted', 'second', '--no-store']);
      expect(r.code).toBe(2);
      const lines = readFileSync(join(t.dir, 'rgate.config.json'), 'utf8').split('\n');
      const line = lines.findIndex((l) => l.includes(`"cwd": "${cwd}"`)) + 1;
      expect(r.err).toContain(
        `rgate.config.json:${line} /suites/second/system/cwd: "${cwd}" is not a folder (${join(t.dir, cwd)})`,
      );
      expect(r.err).toContain('relative to rgate.config.json: fix the path or create the folder');
      expect(r.err).not.toContain('down');
      expect(existsSync(log)).toBe(false);
    });
  }

  it('with both suites right, both run (the check costs no request of its own)', async () => {
    writeConfig(['node', sut, '{query_id}']);
    const r = await cli(['run', 'counted', 'second', '--no-store']);
    expect(r.code).toBe(0);
    expect(readFileSync(log, 'utf8')).toBe('q1\nq1\n');
  });
});

describe('a stored run the reports would chart, that does not read back', () => {
  const store = join(t.dir, '.rgate', 'history.sqlite');
  let bad = '';

  it('refuses the next run before its first request: exit 2 naming the run and the history file, nothing stored', async () => {
    writeConfig(['node', sut, '{query_id}']);
    expect((await cli(['run', 'counted'])).code).toBe(0);
    const db = new Database(store);
    bad = (db.prepare('SELECT run_id FROM runs').get() as { run_id: string }).run_id;
    for (const plan of ['{', JSON.stringify({ spec: 1 })]) {
      db.prepare('UPDATE runs SET plan_json = ? WHERE run_id = ?').run(plan, bad);
      rmSync(log, { force: true });
      const r = await cli(['run', 'counted']);
      expect(r.code).toBe(2);
      expect(r.err).toContain(`rgate: error: run ${bad} in ${store} is not a run this rgate can read: `);
      expect(r.err).toContain(
        `hint: written by another rgate version or edited by hand: delete that run with sqlite3`,
      );
      expect(existsSync(log)).toBe(false);
      expect(db.prepare('SELECT COUNT(*) AS n FROM runs').get()).toEqual({ n: 1 });
    }
    db.close();
  });

  it('rgate history and rgate run --resume say the same (JSON that does not parse is no internal error)', async () => {
    const db = new Database(store);
    db.prepare('UPDATE runs SET plan_json = ? WHERE run_id = ?').run('{', bad);
    db.close();
    for (const args of [
      ['history', 'counted'],
      ['run', '--resume', bad],
    ]) {
      const r = await cli(args);
      expect(r.code).toBe(2);
      expect(r.err).toContain(
        `run ${bad} in ${store} is not a run this rgate can read: plan_json is not JSON`,
      );
    }
  });

  it('with that run deleted as the hint says, the next run goes ahead', async () => {
    const db = new Database(store);
    db.pragma('foreign_keys = ON');
    db.prepare('DELETE FROM runs WHERE run_id = ?').run(bad);
    db.close();
    const r = await cli(['run', 'counted']);
    expect(r.code).toBe(0);
    expect(readFileSync(log, 'utf8')).toBe('q1\n');
  });
});
