import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../src/cli/command.js';
import { freezeCommand } from '../src/cli/commands/freeze.js';
import { importCommand } from '../src/cli/commands/import.js';
import { verifyCommand } from '../src/cli/commands/verify.js';
import { runCli } from '../src/cli/program.js';
import { compiledCli } from './helpers/dist.js';

/** The snapshot commands through the real CLI program, with an injected io. */
const repo = resolve(import.meta.dirname, '..');
const tmp = mkdtempSync(join(tmpdir(), 'rgate-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function rgate(argv: string[], cwd = tmp): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    color: false,
    isTty: false,
    cwd,
    env: {},
  };
  const code = await runCli(argv, io, [importCommand, freezeCommand, verifyCommand]);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

function copySet(name: string, as: string): string {
  const dir = join(tmp, 'fixtures', as);
  cpSync(join(repo, 'fixtures', name), dir, { recursive: true });
  return dir;
}

const noStack = (s: string): void => expect(s).not.toMatch(/\n\s+at .+:\d+:\d+/);

describe('rgate verify', () => {
  it('passes the bundled sets (exit 0) and prints JSON with --json', async () => {
    const r = await rgate(['verify', 'cacm', 'cranfield', '--json'], repo);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as { ok: boolean; sets: { name: string; ok: boolean }[] };
    expect(j.ok).toBe(true);
    expect(j.sets.map((s) => s.name)).toEqual(['cacm', 'cranfield']);
  });

  it('a bad grade: exit 2, `queries.jsonl:17 /qrels/<doc>: must be integer`, no stack', async () => {
    const dir = copySet('cranfield', 'bad-grade');
    const path = join(dir, 'queries.jsonl');
    const lines = readFileSync(path, 'utf8').split('\n');
    const q = JSON.parse(lines[16]!) as { qrels: Record<string, unknown> };
    const doc = Object.keys(q.qrels)[0]!;
    q.qrels[doc] = 'high';
    lines[16] = JSON.stringify(q);
    writeFileSync(path, lines.join('\n'));
    const r = await rgate(['verify', 'bad-grade']);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`queries.jsonl:17 /qrels/${doc}: must be integer`);
    expect(r.err.split('\n')[0]).toMatch(/^rgate: error: /);
    noStack(r.err);
  });

  it('a changed file: exit 2 naming the file and both hashes', async () => {
    const dir = copySet('cranfield', 'changed');
    const path = join(dir, 'corpus.jsonl');
    writeFileSync(path, readFileSync(path, 'utf8').replace('aerodynamics', 'aerodynamicz'));
    const expected = (JSON.parse(readFileSync(join(dir, 'freeze.json'), 'utf8')) as { corpus_sha256: string })
      .corpus_sha256;
    const r = await rgate(['verify', 'changed']);
    expect(r.code).toBe(2);
    expect(r.out).toContain('FAIL  changed');
    expect(r.err).toContain(`${path}: content sha256:`);
    expect(r.err).toContain(expected);
    noStack(r.err);
  });

  it('a file that starts with a UTF-8 BOM fails verify, naming it, whichever file it is', async () => {
    for (const file of ['corpus.jsonl', 'queries.jsonl', 'config.json', 'freeze.json']) {
      const as = `bom-${file.replace('.', '-')}`;
      const dir = copySet('cranfield', as);
      const path = join(dir, file);
      writeFileSync(path, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), readFileSync(path)]));
      const r = await rgate(['verify', as]);
      expect(r.code, `${file}: ${r.err}`).toBe(2);
      expect(r.err).toMatch(
        new RegExp(
          `rgate: error: (?:[^\\s]*/)?${file.replace('.', '\\.')}:1: starts with a UTF-8 byte order mark`,
        ),
      );
      expect(r.err).toContain('save the file as UTF-8 without a BOM');
      noStack(r.err);
    }
  });

  it('an unknown set: exit 2 with a hint', async () => {
    const r = await rgate(['verify', 'nope']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/fixture set nope: no folder/);
  });
});

describe('rgate freeze', () => {
  it('refuses a query change without --version and --reset-note, then accepts both', async () => {
    const dir = copySet('cranfield', 'refreeze');
    const path = join(dir, 'queries.jsonl');
    writeFileSync(path, readFileSync(path, 'utf8').replace('similarity laws', 'similarity rules'));
    let r = await rgate(['freeze', 'refreeze']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('the query set changed');
    expect(r.err).toContain('hint: rgate freeze');
    r = await rgate(['freeze', 'refreeze', '--version', 'v2']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('needs a baseline reset note');
    r = await rgate([
      'freeze',
      'refreeze',
      '--version',
      'v2',
      '--reset-note',
      'reworded query 001',
      '--date',
      '2026-11-30',
    ]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('bumped: cranfield-fixture v2');
    const f = JSON.parse(readFileSync(join(dir, 'freeze.json'), 'utf8')) as {
      history: { reset_note?: string }[];
    };
    expect(f.history[1]!.reset_note).toBe('reworded query 001');
    expect((await rgate(['verify', 'refreeze'])).code).toBe(0);
  });

  it('rejects a malformed --date', async () => {
    const dir = copySet('cranfield', 'baddate');
    rmSync(join(dir, 'freeze.json'));
    const r = await rgate(['freeze', 'baddate', '--date', '22/11/2026']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('expected YYYY-MM-DD');
  });
});

describe('rgate import', () => {
  it('beir: SciFact queries + both qrels splits (no corpus), then --freeze', async () => {
    const src = join(repo, 'fixtures', 'scifact-source');
    const r = await rgate([
      'import',
      'beir',
      '--queries',
      join(src, 'queries.jsonl'),
      '--qrels',
      join(src, 'qrels', 'test.tsv'),
      '--qrels',
      join(src, 'qrels', 'train.tsv'),
      '--out',
      'fixtures/scifact',
      '--freeze',
      '--date',
      '2026-11-22',
      '--json',
    ]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as {
      counts: Record<string, number>;
      notes: string[];
      freeze: { version: string };
    };
    expect(j.counts).toEqual({
      corpus_records: 0,
      queries: 1109,
      judged_queries: 1109,
      judgments: 339 + 919,
    });
    expect(j.notes.join('\n')).toContain('corpus.jsonl is empty');
    expect(j.freeze.version).toBe('v1');
    expect(readFileSync(join(tmp, 'fixtures', 'scifact', 'PROVENANCE.md'), 'utf8')).toContain(
      'rgate import beir',
    );
    expect((await rgate(['verify', 'scifact'])).code).toBe(0);
  });

  it('beir <folder>: reads queries.jsonl and the test split, as BEIR evaluates (not train.tsv beside it)', async () => {
    const r = await rgate([
      'import',
      'beir',
      join(repo, 'fixtures', 'scifact-source'),
      '--out',
      'fixtures/sf2',
      '--json',
    ]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as { counts: Record<string, number>; sources: { path: string }[] };
    expect(j.counts).toMatchObject({ queries: 300, judged_queries: 300, judgments: 339 });
    expect(j.sources.map((s) => s.path.split('/').pop())).toEqual(['queries.jsonl', 'test.tsv']);
  });

  it('smart: a malformed qrels line gives file:line and exit 2', async () => {
    const qrels = join(tmp, 'bad.qrels');
    writeFileSync(qrels, '1 184 2\n1 29 two\n');
    const r = await rgate([
      'import',
      'smart',
      '--queries',
      join(repo, 'fixtures', 'cranfield', 'source', 'cran.qry'),
      '--qrels',
      qrels,
      '--out',
      'fixtures/bad-smart',
    ]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('bad.qrels:2: relevance code "two" must be an integer');
    noStack(r.err);
  });

  it('needs the options of its kind', async () => {
    const r = await rgate(['import', 'trec', '--out', 'fixtures/x']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('needs --topics');
  });
});

describe('rgate import never destroys a set', () => {
  const bytesOf = (dir: string): string[] =>
    ['corpus.jsonl', 'queries.jsonl', 'config.json', 'freeze.json', 'PROVENANCE.md'].map((f) =>
      readFileSync(join(dir, f), 'utf8'),
    );
  const tiny = (): string[] => {
    writeFileSync(join(tmp, 'topics.txt'), '<top>\n<num> 1\n<title> memory allocation\n</top>\n');
    writeFileSync(join(tmp, 'qrels.txt'), '1 0 CACM-1 1\n');
    return ['import', 'trec', '--topics', 'topics.txt', '--qrels', 'qrels.txt'];
  };

  it('refuses an existing frozen set (exit 2, every file unchanged) unless --force with a version bump and reset note', async () => {
    const dir = copySet('cacm', 'cacm-import');
    const before = bytesOf(dir);
    const plain = await rgate([...tiny(), '--out', 'fixtures/cacm-import']);
    expect(plain.code).toBe(2);
    expect(plain.err).toContain('already holds the frozen set cacm-fixture v1 (3204 documents, 64 queries)');
    expect(plain.err).toContain('--force --version <next> --reset-note');
    noStack(plain.err);
    expect(bytesOf(dir)).toEqual(before);

    const noBump = await rgate([...tiny(), '--out', 'fixtures/cacm-import', '--force']);
    expect(noBump.code).toBe(2);
    expect(noBump.err).toContain(
      `${dir}: the corpus and the query set changed since cacm-fixture v1 was frozen`,
    );
    expect(noBump.err).toContain('nothing was replaced');
    expect(noBump.err).not.toContain('.import-');
    expect(bytesOf(dir)).toEqual(before);
    expect(readdirSync(join(tmp, 'fixtures')).filter((n) => n.includes('.import-'))).toEqual([]);

    const bumped = await rgate([
      ...tiny(),
      '--out',
      'fixtures/cacm-import',
      '--force',
      '--version',
      'v2',
      '--reset-note',
      'cut to one topic for a smoke test',
    ]);
    expect(bumped.code).toBe(0);
    expect(bumped.out).toContain('frozen: cacm-fixture v2 (bumped)');
    const freeze = JSON.parse(readFileSync(join(dir, 'freeze.json'), 'utf8')) as {
      history: { version: string; reset_note?: string }[];
    };
    expect(freeze.history.map((h) => [h.version, h.reset_note ?? null])).toEqual([
      ['v1', null],
      ['v2', 'cut to one topic for a smoke test'],
    ]);
    expect((await rgate(['verify', 'fixtures/cacm-import'])).code).toBe(0);
  });

  it('refuses an existing unfrozen set unless --force; a bad source file replaces nothing', async () => {
    const first = await rgate([...tiny(), '--out', 'fixtures/loose']);
    expect(first.code).toBe(0);
    const dir = join(tmp, 'fixtures', 'loose');
    const before = ['corpus.jsonl', 'queries.jsonl'].map((f) => readFileSync(join(dir, f), 'utf8'));
    const again = await rgate([...tiny(), '--out', 'fixtures/loose']);
    expect(again.code).toBe(2);
    expect(again.err).toContain('already holds a fixture set (corpus.jsonl, queries.jsonl, config.json)');
    writeFileSync(join(tmp, 'bad-qrels.txt'), '1 0 CACM-1 high\n');
    const bad = await rgate([
      'import',
      'trec',
      '--topics',
      'topics.txt',
      '--qrels',
      'bad-qrels.txt',
      '--out',
      'fixtures/loose',
      '--force',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('bad-qrels.txt:1: relevance "high" must be an integer');
    expect(['corpus.jsonl', 'queries.jsonl'].map((f) => readFileSync(join(dir, f), 'utf8'))).toEqual(before);
    expect((await rgate([...tiny(), '--out', 'fixtures/loose', '--force'])).code).toBe(0);
  });
});

describe('rgate import says what it did, and its next step runs as printed (#33)', () => {
  const beirMini = join(repo, 'test', 'data', 'beir-mini');
  /** beir-mini with `file`'s line `copy` (1-based) written again at its end. */
  function withRepeatedLine(file: 'corpus.jsonl' | 'queries.jsonl', copy: number): string {
    const data = mkdtempSync(join(tmp, 'beir-dup-'));
    cpSync(beirMini, data, { recursive: true });
    const lines = readFileSync(join(data, file), 'utf8').trimEnd().split('\n');
    writeFileSync(join(data, file), [...lines, lines[copy - 1]!].join('\n') + '\n');
    return data;
  }

  it('a repeated _id in corpus.jsonl or queries.jsonl: exit 2 naming file, line and id; nothing written', async () => {
    for (const [file, id] of [
      ['corpus.jsonl', 'd2'],
      ['queries.jsonl', 'q2'],
    ] as const) {
      const data = withRepeatedLine(file, 2);
      const lines = readFileSync(join(data, file), 'utf8').trimEnd().split('\n').length;
      const cwd = mkdtempSync(join(tmp, 'dup-'));
      const r = await rgate(['import', 'beir', data, '--out', 'fixtures/dup', '--freeze'], cwd);
      expect(r.code, r.err).toBe(2);
      expect(r.err).toContain(`${file}:${lines} /_id: duplicate id "${id}" (first on line 2)`);
      noStack(r.err);
      // the staging folder is gone and no set was written
      expect(readdirSync(join(cwd, 'fixtures'))).toEqual([]);
    }
  });

  it('an empty corpus is named on stderr by import (frozen or not) and by freeze', async () => {
    const src = join(repo, 'fixtures', 'scifact-source');
    const cwd = mkdtempSync(join(tmp, 'empty-'));
    const args = [
      'import',
      'beir',
      '--queries',
      join(src, 'queries.jsonl'),
      '--qrels',
      join(src, 'qrels', 'test.tsv'),
    ];
    const frozen = await rgate([...args, '--out', 'fixtures/scifact', '--freeze'], cwd);
    expect(frozen.code, frozen.err).toBe(0);
    expect(frozen.err).toContain(
      'rgate: warning: fixtures/scifact: the corpus is empty (0 documents), frozen as such: a run of this set retrieves nothing',
    );
    const unfrozen = await rgate([...args, '--out', 'fixtures/later'], cwd);
    expect(unfrozen.err).toContain(
      'rgate: warning: fixtures/later: the corpus is empty (0 documents): a run',
    );
    const freeze = await rgate(['freeze', 'later'], cwd);
    expect(freeze.code, freeze.err).toBe(0);
    expect(freeze.err).toContain('rgate: warning: later: the corpus is empty (0 documents), frozen as such');
    // a set with documents gets no such word
    const full = await rgate(['import', 'beir', beirMini, '--out', 'fixtures/mini', '--freeze'], cwd);
    expect(full.code, full.err).toBe(0);
    expect(full.err).toBe('');
  });

  it('the printed `next: rgate freeze ...` freezes the set when run in a shell, wherever --out put it', async () => {
    const bin = compiledCli();
    for (const out of ['my-set', 'sets/with space', join(tmp, 'outside', 'abs-set'), 'fixtures/plain']) {
      const cwd = mkdtempSync(join(tmp, 'next-'));
      const r = await rgate(['import', 'beir', beirMini, '--out', out], cwd);
      expect(r.code, r.err).toBe(0);
      const next = /^ {2}next: (rgate freeze .*)$/m.exec(r.out)?.[1];
      expect(next, r.out).toBeDefined();
      const run = spawnSync('sh', ['-c', next!.replace(/^rgate /, `node ${JSON.stringify(bin)} `)], {
        cwd,
        encoding: 'utf8',
      });
      expect(run.status, `${next}\n${run.stderr}`).toBe(0);
      expect(run.stdout).toMatch(/^frozen: /);
      expect(readdirSync(resolve(cwd, out))).toContain('freeze.json');
    }
  });
});
