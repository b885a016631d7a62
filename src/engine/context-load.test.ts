import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CorpusRecord } from '../documents/index.js';
import { createEngine } from './engine.js';
import { PROFILE_DEFAULTS, WEIGHT_PRESETS } from './profiles.js';
import { cfg, rec } from './test-helpers.js';
import type { ContextLoadEntry, ContextLoadRequest, ContextLoadResult } from './types.js';

const corpus: CorpusRecord[] = [
  rec('adr-8', 'Gate C closeout requires a frozen fixture and a baseline reset note.', {
    kind: 'canonical',
    evidence: 0.9,
    outcome: 0.8,
    source_path: 'research/decisions/ADR-0008.md',
    captured_at: '2026-03-01T00:00:00Z',
  }),
  rec('mem-1', 'The fixture freeze was bumped after the query change; reset note recorded.', {
    evidence: 0.5,
    captured_at: '2026-03-30T00:00:00Z',
  }),
  rec('mem-2', 'Budget overflow: context packs were truncated at 4000 characters.', {
    outcome: 0.4,
    captured_at: '2025-10-01T00:00:00Z',
  }),
  rec('mem-3', 'Unrelated memory about lunch.', {
    evidence: 1,
    outcome: 1,
    captured_at: '2026-04-01T00:00:00Z',
  }),
];

/** the seed's tie-break chain, checked on what the output says */
function inChainOrder(a: ContextLoadEntry, b: ContextLoadEntry): boolean {
  const x = a.score_breakdown;
  const y = b.score_breakdown;
  if (x.combined_score !== y.combined_score) return x.combined_score > y.combined_score;
  if (x.evidence_score !== y.evidence_score) return x.evidence_score > y.evidence_score;
  const ta = Date.parse(a.provenance.captured_at);
  const tb = Date.parse(b.provenance.captured_at);
  if (ta !== tb) return ta > tb;
  if (a.provenance.captured_at !== b.provenance.captured_at)
    return a.provenance.captured_at > b.provenance.captured_at;
  if (a.source_path !== b.source_path) return a.source_path < b.source_path;
  return a.record_id < b.record_id;
}

function checkInvariants(out: ContextLoadResult): void {
  expect(out.ranking_contract_version).toBe('v0');
  for (let i = 1; i < out.entries.length; i++)
    expect(inChainOrder(out.entries[i - 1]!, out.entries[i]!)).toBe(true);
  expect(out.entries.length).toBeLessThanOrEqual(out.budgets.max_files);
  let chars = 0;
  let tokens = 0;
  for (const e of out.entries) {
    expect(e.chars).toBe(e.text.length);
    expect(e.chars).toBeLessThanOrEqual(out.budgets.max_chars_per_file);
    chars += e.chars;
    tokens += Math.ceil(e.chars / 4);
    for (const v of Object.values(e.score_breakdown)) {
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThanOrEqual(1);
    }
    expect(e.confidence.lower).toBeLessThanOrEqual(e.confidence.value);
    expect(e.confidence.upper).toBeGreaterThanOrEqual(e.confidence.value);
  }
  expect(out.usage).toEqual({ files: out.entries.length, chars, tokens, token_estimate: 'ceil(chars/4)' });
  expect(out.usage.tokens).toBeLessThanOrEqual(out.budgets.tokens);
  expect(out.selected_count).toBe(out.entries.length);
  expect(out.no_match).toBe(out.entries.length === 0);
  expect(out.reason === null).toBe(!out.no_match);
}

describe('context-load v0', () => {
  it('scores with the seed preset exactly and explains every component', () => {
    const engine = createEngine(corpus, cfg());
    const out = engine.contextLoad({ task: 'fixture freeze reset note' });
    checkInvariants(out);
    expect(out.weighting_mode).toBe('uniform');
    expect(out.weights).toEqual(WEIGHT_PRESETS.uniform);
    for (const e of out.entries) {
      const s = e.score_breakdown;
      expect(s.combined_score).toBeCloseTo(
        0.55 * s.lexical_score + 0.2 * s.evidence_score + 0.15 * s.outcome_score + 0.1 * s.freshness_score,
        12,
      );
      expect(e.provenance.text_sha256).toMatch(/^sha256:[0-9a-f]{64}$/);
    }
    // the top lexical match scores 1 after normalisation by the pool's max
    expect(Math.max(...out.entries.map((e) => e.score_breakdown.lexical_score))).toBe(1);
    const b = engine.contextLoad({
      task: 'fixture freeze reset note',
      weighting_mode: 'evidence_outcome_bias',
    });
    for (const e of b.entries) {
      const s = e.score_breakdown;
      expect(s.combined_score).toBeCloseTo(
        0.4 * s.lexical_score + 0.3 * s.evidence_score + 0.2 * s.outcome_score + 0.1 * s.freshness_score,
        12,
      );
    }
  });

  it('freshness decays from config.as_of with the half-life, never from the wall clock', () => {
    const engine = createEngine(
      [
        rec('a', 'alpha', { captured_at: '2026-04-01T00:00:00Z' }),
        rec('b', 'alpha', { captured_at: '2026-01-01T00:00:00Z' }),
        rec('c', 'alpha', { captured_at: '2030-01-01T00:00:00Z' }),
        rec('d', 'alpha', { captured_at: 'not a date' }),
      ],
      cfg({ freshness_half_life_days: 90 }),
    );
    const byId = Object.fromEntries(
      engine
        .contextLoad({ task: 'alpha' })
        .entries.map((e) => [e.record_id, e.score_breakdown.freshness_score]),
    );
    expect(byId.a).toBe(1);
    expect(byId.b).toBeCloseTo(0.5, 12); // 2026-01-01 is exactly 90 days before 2026-04-01
    expect(byId.c).toBe(1); // future captures count as age 0
    expect(byId.d).toBe(0);
  });

  it('falls back restricted -> relaxed -> unrestricted and traces each attempt', () => {
    const engine = createEngine(corpus, cfg());
    const all = engine.contextLoad({ task: 'fixture budget' }); // no record has both terms
    expect(all.fallback_level).toBe('relaxed');
    expect(all.fallback_attempts.map((a) => [a.stage, a.outcome])).toEqual([
      ['restricted', 'empty'],
      ['relaxed', 'selected'],
    ]);
    const none = engine.contextLoad({ task: 'zebra quantum' });
    expect(none.fallback_level).toBe('unrestricted');
    expect(none.entries.every((e) => e.score_breakdown.lexical_score === 0)).toBe(true);
    expect(none.entries[0]!.record_id).toBe('mem-3'); // highest evidence/outcome/freshness
    const off = engine.contextLoad({ task: 'zebra quantum', fallback_enabled: false });
    expect(off.no_match).toBe(true);
    expect(off.reason).toBe('no_candidate_fallback_disabled');
    expect(off.fallback_attempts.map((a) => a.outcome)).toEqual([
      'empty',
      'skipped_disabled',
      'skipped_disabled',
    ]);
    checkInvariants(off);
  });

  it('keeps one stable shape for matches and no-matches', () => {
    const engine = createEngine(corpus, cfg({ fallback: { enabled: false } }));
    const hit = engine.contextLoad({ task: 'fixture' });
    const miss = engine.contextLoad({ task: 'zebra' });
    const empty = engine.contextLoad({ task: '   ' });
    expect(Object.keys(miss).sort()).toEqual(Object.keys(hit).sort());
    expect(Object.keys(empty).sort()).toEqual(Object.keys(hit).sort());
    expect(empty.reason).toBe('empty_task');
    expect(miss.reason_detail).toMatch(/query term/);
    const bad = engine.contextLoad({ task: 'fixture', max_files: -1 });
    expect(bad.reason).toBe('invalid_request');
  });

  it('retrieval_profile changes the candidate pool and the default budgets', () => {
    const many = Array.from({ length: 120 }, (_, i) =>
      rec(`r${String(i).padStart(3, '0')}`, `shared term ${'x'.repeat(i % 7)} ${'filler '.repeat(200 + i)}`),
    );
    const engine = createEngine(many, cfg());
    const small = engine.contextLoad({ task: 'shared term', retrieval_profile: 'small' });
    const large = engine.contextLoad({ task: 'shared term', retrieval_profile: 'large' });
    expect(small.pool).toEqual({ size_limit: 20, stage_candidates: 120, pooled: 20, beyond_pool: 100 });
    expect(large.pool.pooled).toBe(100);
    expect(small.budgets).toEqual({ max_files: 3, max_chars_per_file: 2000, tokens: 1500 });
    expect(large.budgets).toEqual({
      max_files: PROFILE_DEFAULTS.large.max_files,
      max_chars_per_file: 8000,
      tokens: 12000,
    });
    expect(small.entries.length).toBe(3);
    expect(large.entries.length).toBe(12);
    checkInvariants(small);
    checkInvariants(large);
    // request budgets override profile defaults; overflow is listed with reasons
    const tight = engine.contextLoad({ task: 'shared term', max_files: 2, max_chars_per_file: 100 });
    expect(tight.entries.length).toBe(2);
    expect(tight.truncated.every((t) => t.reason === 'truncated_max_chars' && t.emitted_chars === 100)).toBe(
      true,
    );
    expect(tight.dropped.length).toBe(48);
    expect(tight.dropped.every((d) => d.reason === 'budget_max_files')).toBe(true);
  });

  it('honours the token budget: truncates to fit, then drops with budget_tokens', () => {
    const engine = createEngine(
      [
        rec('a', 'topic ' + 'a'.repeat(600)),
        rec('b', 'topic ' + 'b'.repeat(600)),
        rec('c', 'topic ' + 'c'.repeat(600)),
      ],
      cfg(),
    );
    const out = engine.contextLoad({ task: 'topic', tokens: 200, max_files: 3 });
    checkInvariants(out);
    expect(out.usage.tokens).toBe(200);
    expect(out.entries.map((e) => e.truncated)).toEqual([false, true]);
    expect(out.truncated[0]!.reason).toBe('truncated_tokens');
    expect(out.dropped.map((d) => d.reason)).toEqual(['budget_tokens']);
    const none = engine.contextLoad({ task: 'topic', tokens: 0 });
    expect(none.no_match).toBe(true);
    expect(none.reason).toBe('budget_excludes_all');
  });

  it('never mutates its inputs', () => {
    const input = corpus.map((r) => ({ ...r, tags: ['x'] }));
    const copy = JSON.parse(JSON.stringify(input)) as unknown;
    const config = cfg();
    const configCopy = JSON.parse(JSON.stringify(config)) as unknown;
    const engine = createEngine(input, config);
    const req: ContextLoadRequest = { task: 'fixture freeze', max_files: 2 };
    engine.contextLoad(req);
    engine.select({ query: 'fixture freeze' });
    expect(input).toEqual(copy);
    expect(config).toEqual(configCopy);
    expect(req).toEqual({ task: 'fixture freeze', max_files: 2 });
  });

  it('never hands out records carrying a sensitive tag (default secret/credential/pii; configurable)', () => {
    const records = [
      rec('token', 'rotate the leaked ingest token now', { tags: ['secret', 'incident'] }),
      rec('runbook', 'how to rotate an ingest token', { tags: ['runbook'] }),
    ];
    const out = createEngine(records, cfg()).contextLoad({ task: 'rotate leaked ingest token' });
    expect(out.entries.map((e) => e.record_id)).toEqual(['runbook']);
    expect(out.policy).toEqual({ sensitive_tags: ['credential', 'pii', 'secret'], withheld_records: 1 });
    const sel = createEngine(records, cfg()).select({ query: 'rotate the leaked ingest token now' });
    expect('error' in sel ? [] : sel.candidates.map((c) => c.id)).toEqual(['runbook']);
    const open = createEngine(records, cfg({ sensitive_tags: [] })).contextLoad({
      task: 'rotate ingest token',
    });
    expect(open.entries.map((e) => e.record_id).sort()).toEqual(['runbook', 'token']);
  });

  it('rejects duplicate record ids', () => {
    expect(() => createEngine([rec('a', 'x'), rec('a', 'y')], cfg())).toThrow(/duplicate record id "a"/);
  });
});

// ---------------------------------------------------------------------------------------------
// properties
// ---------------------------------------------------------------------------------------------

const WORDS = ['gate', 'fixture', 'freeze', 'budget', 'note', 'alpha', 'beta', 'the', 'and'];
const recordArb = fc.record({
  text: fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 40 }).map((w) => w.join(' ')),
  kind: fc.constantFrom('canonical' as const, 'tactical' as const),
  source_path: fc.constantFrom('a.md', 'b.md', 'docs/c.md'),
  captured_at: fc.constantFrom('2026-01-01T00:00:00Z', '2026-03-01T00:00:00Z', '2026-03-01T00:00:00.000Z'),
  evidence: fc.option(fc.constantFrom(0, 0.5, 1), { nil: undefined }),
  outcome: fc.option(fc.constantFrom(0, 0.5, 1), { nil: undefined }),
  key: fc.option(fc.constantFrom('K-1', 'K-2'), { nil: undefined }),
  path_priority: fc.option(fc.constantFrom(0, 1, 2), { nil: undefined }),
});
const corpusArb = fc.array(recordArb, { minLength: 0, maxLength: 25 }).map((rs) =>
  rs.map((r, i) => {
    const out: CorpusRecord = {
      id: `r${i}`,
      source_path: r.source_path,
      text: r.text,
      kind: r.kind,
      captured_at: r.captured_at,
    };
    if (r.evidence !== undefined) out.evidence = r.evidence;
    if (r.outcome !== undefined) out.outcome = r.outcome;
    if (r.key !== undefined) out.key = r.key;
    if (r.path_priority !== undefined) out.path_priority = r.path_priority;
    return out;
  }),
);
const requestArb = fc.record({
  task: fc.array(fc.constantFrom(...WORDS, 'zebra'), { minLength: 1, maxLength: 4 }).map((w) => w.join(' ')),
  retrieval_profile: fc.constantFrom('small' as const, 'medium' as const, 'large' as const),
  weighting_mode: fc.constantFrom('uniform' as const, 'evidence_outcome_bias' as const),
  max_files: fc.option(fc.integer({ min: 0, max: 8 }), { nil: undefined }),
  max_chars_per_file: fc.option(fc.integer({ min: 0, max: 120 }), { nil: undefined }),
  tokens: fc.option(fc.integer({ min: 0, max: 150 }), { nil: undefined }),
  fallback_enabled: fc.boolean(),
});

describe('context-load properties', () => {
  it('same inputs in any record order give byte-identical output (all engine paths)', () => {
    fc.assert(
      fc.property(corpusArb, requestArb, fc.integer(), (records, req, seed) => {
        const shuffledRecords = fc.sample(
          fc.shuffledSubarray(records, { minLength: records.length, maxLength: records.length }),
          {
            seed,
            numRuns: 1,
          },
        )[0]!;
        const a = createEngine(records, cfg());
        const b = createEngine(shuffledRecords, cfg());
        const clean = { ...req } as ContextLoadRequest;
        expect(JSON.stringify(b.contextLoad(clean))).toBe(JSON.stringify(a.contextLoad(clean)));
        expect(JSON.stringify(b.search(req.task, 10))).toBe(JSON.stringify(a.search(req.task, 10)));
        expect(JSON.stringify(b.select({ query: req.task }))).toBe(
          JSON.stringify(a.select({ query: req.task })),
        );
        expect(JSON.stringify(b.retrievalResult({ query: req.task }))).toBe(
          JSON.stringify(a.retrievalResult({ query: req.task })),
        );
      }),
      { numRuns: 120 },
    );
  });

  it('every output respects the tie-break chain and the budgets', () => {
    fc.assert(
      fc.property(corpusArb, requestArb, (records, req) => {
        const out = createEngine(records, cfg()).contextLoad(req);
        checkInvariants(out);
        const limit = PROFILE_DEFAULTS[req.retrieval_profile];
        expect(out.budgets.max_files).toBe(req.max_files ?? limit.max_files);
        expect(out.pool.pooled).toBeLessThanOrEqual(limit.candidate_pool);
        // everything pooled is accounted for: emitted or dropped with a reason
        if (!out.no_match || out.reason === 'budget_excludes_all')
          expect(out.entries.length + out.dropped.length).toBe(out.pool.pooled);
      }),
      { numRuns: 200 },
    );
  });
});
