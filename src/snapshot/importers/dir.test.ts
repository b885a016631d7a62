import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create } from 'tar';
import { afterAll, describe, expect, it } from 'vitest';
import type { CorpusRecord } from '../../documents/index.js';
import { sha256 } from '../../core/hash.js';
import { importDir } from './dir.js';

const dir = mkdtempSync(join(tmpdir(), 'rgate-dir-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const tree = join(dir, 'project');
const mtime = new Date('2026-03-04T05:06:07Z');

function put(rel: string, text: string): void {
  const p = join(tree, rel);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, text);
  utimesSync(p, mtime, mtime);
}
put('README.md', '# Project rules\n\nAlways freeze.\n');
put(
  'docs/guide.html',
  '<html><title>Guide</title><body><p>Use &amp; enjoy</p><script>x()</script></body></html>',
);
put('notes/a.txt', 'plain text');
put('notes/skip.bin', 'binary');
put('.git/config', 'secret');
put('node_modules/x/readme.md', 'dependency');

const read = (out: string): CorpusRecord[] =>
  readFileSync(join(out, 'corpus.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as CorpusRecord);

describe('importDir (project_dir snapshot)', () => {
  it('captures text, path, sha256, size and mtime once; ids are paths with their extension', async () => {
    const r = await importDir({ path: tree, out: join(dir, 'out'), kind: 'canonical' });
    expect(r.counts.corpus_records).toBe(3);
    const recs = read(join(dir, 'out'));
    expect(recs.map((d) => d.id)).toEqual(['README.md', 'docs/guide.html', 'notes/a.txt']);
    expect(recs[0]).toMatchObject({
      title: 'Project rules',
      source_path: 'README.md',
      captured_at: '2026-03-04T05:06:07.000Z',
    });
    expect(recs[1]).toMatchObject({ title: 'Guide', text: 'Use & enjoy' });
    const bytes = readFileSync(join(tree, 'notes/a.txt'));
    expect((recs[2] as CorpusRecord & { source: unknown }).source).toEqual({
      sha256: sha256(bytes),
      size: bytes.length,
      mtime: '2026-03-04T05:06:07.000Z',
    });
  });

  it('a replay never reads the live tree: the snapshot survives deleting it', async () => {
    const copy = join(dir, 'gone');
    mkdirSync(copy);
    writeFileSync(join(copy, 'x.md'), 'soon deleted');
    await importDir({ path: copy, out: join(dir, 'out-gone') });
    rmSync(copy, { recursive: true });
    expect(read(join(dir, 'out-gone'))[0]!.text).toBe('soon deleted');
  });

  it('reads a .tar.gz the same way (tar package); a.md and a.txt are two records', async () => {
    const tgz = join(dir, 'project.tar.gz');
    await create({ gzip: true, file: tgz, cwd: tree, portable: true }, ['README.md', 'docs', 'notes']);
    await importDir({ path: tgz, out: join(dir, 'out-tgz') });
    const fromTar = read(join(dir, 'out-tgz'));
    const fromDir = read(join(dir, 'out'));
    expect(fromTar.map((d) => [d.id, d.text, d.title])).toEqual(fromDir.map((d) => [d.id, d.text, d.title]));
    put('notes/a.md', 'no clash');
    await importDir({ path: tree, out: join(dir, 'out2') });
    expect(read(join(dir, 'out2')).map((d) => d.id)).toContain('notes/a.md');
    rmSync(join(tree, 'notes/a.md'));
  });

  it('skips dot-entries unless named with dotDirs (.cortex keeps a project decisions)', async () => {
    put('.cortex/decisions/d1.md', 'decision one');
    const skipped = await importDir({ path: tree, out: join(dir, 'out-dot1') });
    expect(read(join(dir, 'out-dot1')).map((d) => d.id)).not.toContain('.cortex/decisions/d1.md');
    expect(skipped.counts.corpus_records).toBe(3);
    await importDir({ path: tree, out: join(dir, 'out-dot2'), dotDirs: ['.cortex'] });
    const ids = read(join(dir, 'out-dot2')).map((d) => d.id);
    expect(ids).toContain('.cortex/decisions/d1.md');
    expect(ids.some((id) => id.startsWith('.git/'))).toBe(false);
    rmSync(join(tree, '.cortex'), { recursive: true });
  });

  it('refuses judgments on ids not in the corpus with a count; --keep-unknown-judgments keeps them, noted', async () => {
    const q = join(dir, 'queries.jsonl');
    const line = (id: string, qrels: Record<string, number>) =>
      JSON.stringify({ query_id: id, text: 'rules', qrels });
    // two judgments on ids without their extension (what older imports wrote), one on a real id
    writeFileSync(
      q,
      [line('q1', { README: 1, 'README.md': 2 }), line('q2', { 'docs/guide': 1 })].join('\n') + '\n',
    );
    await expect(importDir({ path: tree, out: join(dir, 'out-q'), queries: q })).rejects.toMatchObject({
      code: 'input_invalid',
      message: 'queries.jsonl: 2 judgment(s) on 2 id(s) not in the corpus (e.g. README, docs/guide)',
      hint: expect.stringContaining('--keep-unknown-judgments'),
    });
    const r = await importDir({
      path: tree,
      out: join(dir, 'out-q'),
      queries: q,
      keepUnknownJudgments: true,
    });
    expect(r.notes.filter((n) => n.startsWith('warning:'))).toEqual([
      'warning: queries.jsonl: 2 judgment(s) on 2 id(s) not in the corpus (e.g. README, docs/guide); kept (--keep-unknown-judgments): they count as relevant documents no system can return.',
    ]);
    expect(r.counts.judgments).toBe(3);
  });

  it('refuses useful_ids and useful_paths the corpus lacks as it refuses qrels', async () => {
    const q = join(dir, 'queries-useful.jsonl');
    writeFileSync(
      q,
      [
        JSON.stringify({ query_id: 'q1', text: 'rules', useful_ids: ['README.md', 'nope.md'] }),
        JSON.stringify({ query_id: 'q2', text: 'rules', useful_paths: ['docs/gone.md'] }),
      ].join('\n') + '\n',
    );
    await expect(importDir({ path: tree, out: join(dir, 'out-u'), queries: q })).rejects.toMatchObject({
      code: 'input_invalid',
      message:
        'queries-useful.jsonl: 2 judgment(s) on 1 id(s) and 1 source path(s) not in the corpus (e.g. nope.md, docs/gone.md)',
    });
  });

  describe('symlinks: the import stays inside its root', () => {
    const base = join(dir, 'links');
    const root = join(base, 'tree');
    const outside = join(base, 'outside.md');
    const setup = (): void => {
      rmSync(base, { recursive: true, force: true });
      mkdirSync(join(root, 'sub'), { recursive: true });
      writeFileSync(join(root, 'a.md'), 'inside');
      writeFileSync(outside, 'outside secret');
    };

    it('refuses a link out of the tree, naming it; --follow-symlinks takes it in', async () => {
      setup();
      symlinkSync(outside, join(root, 'sub', 'leak.md'));
      await expect(importDir({ path: root, out: join(base, 'o1') })).rejects.toMatchObject({
        code: 'input_invalid',
        message: expect.stringContaining(`symlink out of the tree (sub/leak.md -> ${outside})`),
      });
      await importDir({ path: root, out: join(base, 'o2'), followSymlinks: true });
      expect(read(join(base, 'o2')).map((d) => [d.id, d.text])).toEqual([
        ['a.md', 'inside'],
        ['sub/leak.md', 'outside secret'],
      ]);
    });

    it('follows a link that stays inside the tree', async () => {
      setup();
      symlinkSync(join(root, 'a.md'), join(root, 'sub', 'alias.md'));
      await importDir({ path: root, out: join(base, 'o3') });
      expect(read(join(base, 'o3')).map((d) => d.id)).toEqual(['a.md', 'sub/alias.md']);
    });

    it('a dangling link and a link loop are clear errors, not internal ones', async () => {
      setup();
      symlinkSync(join(root, 'gone.md'), join(root, 'dangling.md'));
      await expect(importDir({ path: root, out: join(base, 'o4') })).rejects.toMatchObject({
        code: 'input_invalid',
        message: expect.stringContaining('dangling symlink (dangling.md -> '),
      });
      setup();
      symlinkSync(root, join(root, 'sub', 'back'));
      await expect(importDir({ path: root, out: join(base, 'o5') })).rejects.toMatchObject({
        code: 'input_invalid',
        message: expect.stringContaining('symlink loop (sub/back -> '),
      });
      setup();
      symlinkSync(join(root, 'self.md'), join(root, 'self.md'));
      await expect(importDir({ path: root, out: join(base, 'o6') })).rejects.toMatchObject({
        code: 'input_invalid',
        message: expect.stringContaining('symlink loop (self.md -> '),
      });
    });
  });
});
