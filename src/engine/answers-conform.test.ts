import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileSchema, formatAjvErrors } from '../contracts/ajv.js';
import { validateContextLoadV0 } from '../contracts/responses/context-load-v0.js';
import { validateErrorEnvelope } from '../contracts/responses/error-envelope.js';
import { validateMemoryCliV1 } from '../contracts/responses/memory-cli-v1.js';
import { validateRetrievalResultV1 } from '../contracts/responses/retrieval-result-v1.js';
import {
  ContextLoadResultSchema,
  ErrorEnvelopeSchema,
  RetrievalResultV1Schema,
  SelectResultSchema,
} from '../documents/index.js';
import { loadFixtureSet } from '../snapshot/index.js';
import { createEngine } from './engine.js';
import { cfg, rec, semanticCorpus } from './test-helpers.js';

/**
 * The engine's answers, checked against the documents that declare them (closed: a field the engine
 * emits undeclared fails) and against the contract each answers under (what rgate holds other systems
 * to). Requests reach every branch: selection, fallbacks, budgets that drop and cut, no-match, errors.
 */
type Validate = ReturnType<typeof compileSchema>;
const problems = (validate: Validate, docs: readonly unknown[]): string[] =>
  docs.flatMap((d, i) => (validate(d) ? [] : formatAjvErrors(validate.errors).map((e) => `#${i} ${e}`)));

const isError = (a: object): boolean => 'error' in a;
const root = resolve(import.meta.dirname, '../..');
const pinned = loadFixtureSet('context-load', { root });

describe("the engine's answers are the documents that declare them", () => {
  it('context-load', () => {
    const engine = createEngine(pinned.corpus, pinned.config);
    const outs = [
      ...pinned.queries.map((q) => engine.contextLoad({ task: q.text })),
      ...pinned.queries.map((q) => engine.contextLoad({ task: q.text, max_files: 1, tokens: 300 })),
      engine.contextLoad({ task: 'ingest', max_chars_per_file: 50, weighting_mode: 'evidence_outcome_bias' }),
      engine.contextLoad({ task: 'zzzz qqqq', fallback_enabled: false }),
      engine.contextLoad({ task: 'zzzz qqqq' }),
      engine.contextLoad({ task: '' }),
      engine.contextLoad({ task: 'ingest', max_files: -1 }),
      createEngine([], cfg()).contextLoad({ task: 'x' }),
    ];
    const kinds = new Set(outs.flatMap((o) => [o.reason, o.fallback_level, o.dropped[0]?.reason]));
    for (const seen of ['budget_max_files', 'unrestricted', 'empty_task', 'invalid_request', 'empty_corpus'])
      expect(kinds).toContain(seen);
    expect(outs.some((o) => o.truncated.length > 0)).toBe(true);
    expect(problems(compileSchema(ContextLoadResultSchema), outs)).toEqual([]);
    expect(
      problems(
        validateContextLoadV0,
        outs.filter((o) => !o.no_match),
      ),
    ).toEqual([]);
  });

  it('semantic selection and the retrieval-result-v1 view, and their error envelope', () => {
    const corpus = [...semanticCorpus(), rec('secret', 'deploy windows secret', { tags: ['secret'] })];
    const selects = ['hybrid_rrf', 'cosine'].flatMap((method) => {
      const engine = createEngine(corpus, cfg({ semantic: { method: method as 'cosine' } }));
      const off = createEngine(
        corpus,
        cfg({ semantic: { method: method as 'cosine' }, fallback: { enabled: false } }),
      );
      return [
        engine.select({ query: 'deploy windows Tuesday Thursday mornings holiday freeze' }),
        engine.select({ query: 'lunch', exact_key: 'FREEZE-RULES' }),
        engine.select({ query: 'what does DEC-2026-011 say' }),
        engine.select({ query: 'runbooks please' }),
        engine.select({ query: 'zzzz' }),
        off.select({ query: 'zzzz' }),
        createEngine([], cfg()).select({ query: 'x' }),
      ];
    });
    const reasons = new Set(selects.map((s) => ('reason' in s ? s.reason : s.error.code)));
    expect([...reasons].sort()).toEqual([
      'fallback_exact_key_mentioned',
      'fallback_exact_key_request',
      'fallback_path_priority',
      'no_match_fallback_disabled',
      'no_match_no_fallback_candidate',
      'semantic_gates_passed',
    ]);
    const engine = createEngine(corpus, cfg());
    const views = [
      engine.retrievalResult({ query: 'deploy windows', k: 12 }),
      createEngine([], cfg()).retrievalResult({ query: 'x' }),
    ];
    const wrongDims = cfg({ embedding: { dimensions: 32 } });
    const errors = [
      createEngine(corpus, wrongDims).retrievalResult({ query: 'x' }),
      engine.select({ query: 'x', query_embedding: [1, 2, 3] }),
    ];
    expect(errors.every(isError)).toBe(true);
    expect(selects.every((s) => !isError(s)) && views.every((v) => !isError(v))).toBe(true);

    expect(problems(compileSchema(SelectResultSchema), selects)).toEqual([]);
    expect(problems(validateMemoryCliV1, selects)).toEqual([]);
    expect(problems(compileSchema(RetrievalResultV1Schema), views)).toEqual([]);
    expect(problems(validateRetrievalResultV1, views)).toEqual([]);
    expect(problems(compileSchema(ErrorEnvelopeSchema), errors)).toEqual([]);
    expect(problems(validateErrorEnvelope, errors)).toEqual([]);
  });
});
