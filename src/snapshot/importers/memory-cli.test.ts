import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isRgateError } from '../../core/errors.js';
import { readCorpusFile } from '../read-artifacts.js';
import { importMemoryCli } from './memory-cli.js';

const FIXTURE = resolve(import.meta.dirname, '..', '..', '..', 'fixtures', 'memory-cli-import');
const ROOT = join(FIXTURE, 'root');
const tmp = mkdtempSync(join(tmpdir(), 'rgate-memcli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let n = 0;
function importRoot(root = ROOT, extra: { domain?: string } = {}) {
  const out = join(tmp, `set-${++n}`);
  const r = importMemoryCli({ root, out, ...extra });
  const corpus = readCorpusFile(join(out, 'corpus.jsonl'), '2026-01-01T00:00:00Z').records;
  return { r, corpus, out };
}

/** A copy of the fixture root to break. */
function brokenRoot(edit: (root: string) => void): string {
  const root = join(tmp, `root-${++n}`);
  cpSync(ROOT, root, { recursive: true });
  edit(root);
  return root;
}

function refusal(root: string): string {
  try {
    importRoot(root);
    return 'accepted';
  } catch (e) {
    if (!isRgateError(e)) throw e;
    expect(e.exitCode).toBe(2);
    return e.message;
  }
}

describe('rgate import memory-cli', () => {
  it("makes one record per approved entry: the CLI's id and path, the entry Markdown, its time", () => {
    const { r, corpus } = importRoot();
    expect(corpus.map((c) => c.id)).toEqual([
      'agents-37dd6836',
      'cli-commands-4a43d031',
      'concepts-readme-b7d267b9',
      'faq-common-questions-5940d99e',
      'process-operator-daily-workflow-0c06c7a2',
    ]);
    const cli = corpus[1]!;
    expect(cli).toMatchObject({
      source_path: 'instructions/kbx/cli-commands-4a43d031.md',
      title: 'Cli Commands 4a43d031',
      kind: 'canonical',
      captured_at: '2026-11-20T09:15:00Z',
      tags: ['type:instruction', 'domain:kbx'],
    });
    expect(cli.text).toBe(readFileSync(join(ROOT, 'instructions/kbx/cli-commands-4a43d031.md'), 'utf8'));
    expect(r.notes[0]).toBe('1 of 6 entries not approved (memory-cli never retrieves them): left out');
    expect(r.counts).toEqual({ corpus_records: 5, queries: 0, judged_queries: 0, judgments: 0 });
  });

  it('ids and source paths equal those in real memory-cli answers (recorded at the same commit)', () => {
    const { corpus } = importRoot();
    const pathOf = new Map(corpus.map((c) => [c.id, c.source_path]));
    let matched = 0;
    for (const f of [
      'retrieve-classic.json',
      'retrieve-hybrid.json',
      'retrieve-nomatch.json',
      'retrieve-exact-key.json',
    ]) {
      const answer = JSON.parse(readFileSync(join(FIXTURE, 'recorded', f), 'utf8')) as {
        selected_id: string;
        source_path: string;
        candidates: { id: string; source_path: string }[];
      };
      for (const c of [{ id: answer.selected_id, source_path: answer.source_path }, ...answer.candidates]) {
        if (!pathOf.has(c.id)) continue;
        expect(pathOf.get(c.id), `${f} ${c.id}`).toBe(c.source_path);
        matched++;
      }
    }
    expect(matched).toBeGreaterThanOrEqual(10);
  });

  it('--domain keeps one domain, as the CLI does', () => {
    expect(() => importRoot(ROOT, { domain: 'other' })).toThrow(/no approved entries in domain other/);
    expect(importRoot(ROOT, { domain: 'kbx' }).corpus).toHaveLength(5);
  });

  it('refuses an index.yaml the CLI could not read, with its line and column', () => {
    const yamlOnly = brokenRoot((root) =>
      writeFileSync(join(root, 'index.yaml'), 'schema_version: "1.0"\nentries:\n  - id: a\n'),
    );
    expect(refusal(yamlOnly)).toBe(
      'index.yaml:1:1: not the JSON memory-cli writes (unexpected character "s")',
    );
    const trailingComma = brokenRoot((root) => {
      const text = readFileSync(join(root, 'index.yaml'), 'utf8');
      writeFileSync(
        join(root, 'index.yaml'),
        text.replace('"title": "Agents 37dd6836"', '"title": "Agents 37dd6836",'),
      );
    });
    // the comma ends line 13; what is wrong is the "}" after it
    expect(refusal(trailingComma)).toBe(
      'index.yaml:14:5: not the JSON memory-cli writes (expected a double-quoted key, found character "}")',
    );
  });

  it('refuses broken entries naming the line, the entry and the field', () => {
    const edit = (from: string, to: string) =>
      brokenRoot((root) => {
        const text = readFileSync(join(root, 'index.yaml'), 'utf8');
        writeFileSync(join(root, 'index.yaml'), text.replace(from, to));
      });
    expect(refusal(edit('"metadata_path": "metadata/agents-37dd6836.yaml",', ''))).toBe(
      'index.yaml:6 /entries/0/metadata_path: must be a non-empty string',
    );
    expect(
      refusal(
        edit('"path": "instructions/kbx/agents-37dd6836.md"', '"path": "instructions/../../../etc/passwd"'),
      ),
    ).toMatch(/points outside the memory root/);
    expect(refusal(edit('"id": "cli-commands-4a43d031"', '"id": "agents-37dd6836"'))).toMatch(
      /\/entries\/1\/id: "agents-37dd6836" also at \/entries\/0/,
    );
    expect(refusal(edit('"schema_version": "1.0"', '"schema_version": "2.0"'))).toMatch(
      /not a 1.x schema version/,
    );
  });

  it("refuses metadata whose id is not the entry's, and a missing entry file", () => {
    const wrongMeta = brokenRoot((root) => {
      const p = join(root, 'metadata', 'agents-37dd6836.yaml');
      writeFileSync(p, readFileSync(p, 'utf8').replace('"id": "agents-37dd6836"', '"id": "someone-else"'));
    });
    expect(refusal(wrongMeta)).toContain(
      'metadata/agents-37dd6836.yaml /id: "someone-else" does not match the entry id "agents-37dd6836"',
    );
    const missing = brokenRoot((root) => rmSync(join(root, 'instructions', 'kbx', 'agents-37dd6836.md')));
    expect(refusal(missing)).toMatch(/agents-37dd6836\.md: no such file/);
  });
});
