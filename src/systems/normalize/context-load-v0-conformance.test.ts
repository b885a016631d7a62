import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { normalizeText } from './index.js';

/**
 * Every real `cortex-coach context-load` output (fixtures/cortex-coach/responses, PROVENANCE.md there)
 * through context-load-v0. The expectations are read off each file here, by rules written out in this
 * test (not by the normaliser): the tool breaks the letter of seed 000 in the same three ways on every
 * answer, and every answer is still measured.
 */
const DIR = resolve(import.meta.dirname, '../../../fixtures/cortex-coach/responses');
const FILES = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();

interface CortexFile {
  path: string;
  selected_by: string;
  rank: number | null;
  combined_score: number;
  excerpt: string;
}
const read = (f: string): { text: string; files: CortexFile[]; selected_file_count: number } => {
  const text = readFileSync(resolve(DIR, f), 'utf8');
  const p = JSON.parse(text) as { files: CortexFile[]; selected_file_count: number };
  return { text, ...p };
};

describe('context-load-v0 meets cortex-coach', () => {
  it('has all 13 recorded answers', () => {
    expect(FILES).toHaveLength(13);
  });

  it.each(FILES)('%s: measured, with its violations listed as JSON paths', (f) => {
    const { text, files, selected_file_count } = read(f);
    const o = normalizeText('context-load-v0', text);
    expect(o.ok).toBe(true);
    expect(o.error).toBeUndefined();
    // the letter of seed 000: a contract version, `selected_count`, combined_score inside score_breakdown
    const expected = [
      '/ranking_contract_version: is required',
      '/selected_count: is required',
      ...files.map((_, i) => `/files/${i}/score_breakdown/combined_score: is required`),
    ];
    expect(o.contract.valid).toBe(false);
    expect([...o.contract.errors].sort()).toEqual(expected.sort());

    // default (`auto`): the `task:` entries are ranked, in answer order, which is their stated rank 1..n
    const task = files.filter((e) => e.selected_by.startsWith('task:'));
    expect(task.length).toBeGreaterThan(0);
    expect(task.map((e) => e.rank)).toEqual(task.map((_, i) => i + 1));
    expect(o.ranked.map((r) => [r.id, r.score])).toEqual(task.map((e) => [e.path, e.combined_score]));
    expect(o.selected_id).toBe(task[0]!.path);
    // the control-plane entries (rank null) are reported apart, not ranked
    const control = files.filter((e) => !e.selected_by.startsWith('task:'));
    expect(control.every((e) => e.rank === null)).toBe(true);
    expect(o.unranked).toEqual(
      control.map((e) => ({ id: e.path, source_path: e.path, selected_by: e.selected_by })),
    );
    // ids are repository paths with their extension
    for (const r of o.ranked) expect(r.id).toMatch(/\.[a-z]+$/);
    // usage is everything the answer loaded
    const chars = files.reduce((s, e) => s + e.excerpt.length, 0);
    expect(o.usage).toEqual({ files: selected_file_count, chars, tokens: Math.ceil(chars / 4) });
    expect(o.fallback).toEqual({ triggered: false, stage: 'restricted', attempts: ['restricted'] });
  });

  it('ranked_entries picks which entries are ranked: all, rank, a selected_by prefix', () => {
    const f = 'q_small_recent_gate_failure.uniform.json';
    const { text, files } = read(f);
    const all = normalizeText('context-load-v0', text, undefined, { rankedEntries: 'all' });
    expect(all.ranked.map((r) => r.id)).toEqual(files.map((e) => e.path));
    expect(all.unranked).toBeUndefined();
    const byRank = normalizeText('context-load-v0', text, undefined, { rankedEntries: 'rank' });
    const ranked = files.filter((e) => e.rank !== null).sort((a, b) => a.rank! - b.rank!);
    expect(byRank.ranked.map((r) => r.id)).toEqual(ranked.map((e) => e.path));
    const cp = normalizeText('context-load-v0', text, undefined, {
      rankedEntries: 'selected_by:control_plane',
    });
    expect(cp.ranked.map((r) => r.id)).toEqual(
      files.filter((e) => e.selected_by.startsWith('control_plane')).map((e) => e.path),
    );
    const none = normalizeText('context-load-v0', text, undefined, { rankedEntries: 'selected_by:nothing:' });
    expect(none).toMatchObject({ ok: true, selection_mode: 'no_match', ranked: [] });
    expect(none.no_match_reason).toBe('no entry the suite ranks');
  });

  it('an answer without a combined score anywhere cannot be measured: a request error', () => {
    const { files } = read('q_small_recent_gate_failure.uniform.json');
    const stripped = files.map(({ combined_score: _, ...e }) => e);
    const o = normalizeText('context-load-v0', JSON.stringify({ files: stripped }));
    expect(o).toMatchObject({ ok: false, error: { kind: 'contract_invalid' }, ranked: [] });
    expect(o.error!.message).toContain('cannot be measured');
  });
});
