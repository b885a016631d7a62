import {
  KindGuard,
  Type,
  type Static,
  type TObject,
  type TOptional,
  type TProperties,
  type TSchema,
} from '@sinclair/typebox';
import { AnyObject, Closed, StringEnum } from './keywords.js';
import { ProfileSchema } from './profile.js';

export const RETRIEVAL_MODES = ['bm25', 'context-load', 'semantic', 'ku'] as const;
/** Which engine path answers: plain BM25 ranking, context-load v0, semantic selection v1, or DS012 KU context matching. */
export const RetrievalModeSchema = StringEnum(RETRIEVAL_MODES);
export type RetrievalMode = Static<typeof RetrievalModeSchema>;

export const WEIGHTING_MODES = ['uniform', 'evidence_outcome_bias'] as const;
export const WeightingModeSchema = StringEnum(WEIGHTING_MODES);
export type WeightingMode = Static<typeof WeightingModeSchema>;

/** The combined-score weights of context-load v0 (seed 000 "Default weighting presets"). */
export const WeightsSchema = Closed({
  lexical: Type.Number(),
  evidence: Type.Number(),
  outcome: Type.Number(),
  freshness: Type.Number(),
});
export type Weights = Static<typeof WeightsSchema>;

/** A weighting mode and the weights the engine's preset table resolves it to. */
export const WeightingSchema = Closed({ mode: WeightingModeSchema, weights: WeightsSchema });
export type Weighting = Static<typeof WeightingSchema>;

export const SEMANTIC_METHODS = ['cosine', 'hybrid_rrf'] as const;
/** How semantic selection ranks and gates: the embedder's cosine alone, or RRF of BM25 and the cosine. */
export const SemanticMethodSchema = StringEnum(SEMANTIC_METHODS);
export type SemanticMethod = Static<typeof SemanticMethodSchema>;

const posInt = Type.Integer({ minimum: 1 });
/** A system's own parameters: any JSON object (its keys are the system's, not rgate's). */
export const SystemParamsSchema = AnyObject();
/**
 * context-load answers: which entries are ranked (`auto`, `all`, `rank`, `selected_by:<prefix>`; see
 * NormalizeOptions in src/systems/normalize/types.ts); the others are reported apart. Default `auto`.
 */
export const RankedEntriesSchema = Type.String({
  pattern: '^(auto|all|rank|selected_by:\\S+)$',
  // what a refused --set value is told (src/cli/set-flags.ts) and what an editor shows
  description: '"auto", "all", "rank" or "selected_by:<prefix>" (e.g. selected_by:task:)',
  examples: ['all'],
});
const unit = Type.Number({ minimum: 0, maximum: 1 });

export const AnalyzerConfigSchema = Closed({
  lowercase: Type.Boolean(),
  stopwords: Type.Boolean(),
  stemmer: StringEnum(['porter', 'none']),
});
export type AnalyzerConfig = Static<typeof AnalyzerConfigSchema>;

/** Per-request limits: what a context-load answer may use. */
export const BudgetsSchema = Closed({
  max_files: Type.Optional(posInt),
  max_chars_per_file: Type.Optional(posInt),
  tokens: Type.Optional(posInt),
});
export type Budgets = Static<typeof BudgetsSchema>;

/**
 * Where semantic vectors come from. `builtin`: the engine's hashed embedder, computed in process.
 * `http`: an embedding server (Ollama `POST <url>/api/embeddings`, or an OpenAI-compatible
 * `POST <url>/v1/embeddings`), called by `rgate freeze` only: the vectors are pinned into the
 * snapshot (`embedding` on every corpus record and query), so runs and replays never call it.
 */
export const EmbedderConfigSchema = Type.Union([
  Closed({ type: Type.Literal('builtin') }),
  Closed({
    type: Type.Literal('http'),
    api: StringEnum(['ollama', 'openai']),
    /** the server's base URL, e.g. http://127.0.0.1:11434 */
    url: Type.String({
      pattern: '^https?://',
      description: 'a URL starting with http:// or https://',
      examples: ['http://127.0.0.1:11434'],
    }),
    model: Type.String({ minLength: 1 }),
    /** per request, at freeze time; default in src/core/defaults.ts (EMBEDDER_DEFAULTS) */
    timeout_ms: Type.Optional(posInt),
  }),
]);
export type EmbedderConfig = Static<typeof EmbedderConfigSchema>;

/** The retrieval config snapshot of a fixture set, resolved: every field has its value. */
export const RetrievalConfigSchema = Closed({
  mode: RetrievalModeSchema,
  retrieval_profile: ProfileSchema,
  weighting_mode: WeightingModeSchema,
  /** results per query (bm25 mode: ranking depth; semantic: K, clamped to 10..15) */
  k: posInt,
  budgets: BudgetsSchema,
  fallback: Closed({ enabled: Type.Boolean() }),
  semantic: Closed({
    /** the cosine method's gates: top-1 cosine and top-1 minus top-2 cosine */
    confidence_min: unit,
    ambiguity_margin: unit,
    /**
     * optional (engine): 'hybrid_rrf' (default; reciprocal-rank fusion of BM25 and the embedder's
     * cosine ranking, as memory-cli's hybrid mode) or 'cosine' (the embedder's cosine alone)
     */
    method: Type.Optional(SemanticMethodSchema),
    /** optional (engine): the RRF constant k in 1/(k + rank); defaults in src/core/defaults.ts */
    rrf_k: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
    /** optional (engine): hybrid gate on the normalised fused score of the top-1 (1 = rank 1 in both lists) */
    hybrid_confidence_min: Type.Optional(unit),
    /** optional (engine): hybrid gate on the normalised fused-score gap between top-1 and top-2 */
    hybrid_margin_min: Type.Optional(unit),
  }),
  embedding: Closed({ dimensions: posInt }),
  /** optional: where vectors come from (absent = builtin); see EmbedderConfigSchema */
  embedder: Type.Optional(EmbedderConfigSchema),
  bm25: Closed({
    k1: Type.Number({ minimum: 0 }),
    b: unit,
    /** optional (engine): 'lucene' (default; Anserini/Lucene >= 8 BM25) or 'fts5' (SQLite FTS5 bm25()) */
    formula: Type.Optional(StringEnum(['lucene', 'fts5'])),
    /** optional (engine): 'exact' document lengths (default) or Lucene's lossy one-byte length norm */
    length_norm: Type.Optional(StringEnum(['exact', 'lucene'])),
  }),
  analyzer: AnalyzerConfigSchema,
  /** freshness is measured from this instant, never the wall clock (ISO-8601) */
  as_of: Type.String({ format: 'date-time' }),
  /** freshness half-life in days */
  freshness_half_life_days: Type.Number({ exclusiveMinimum: 0 }),
  /**
   * optional (engine): records carrying any of these tags are never returned by context-load or
   * semantic selection (default when absent: secret, credential, pii; [] disables the policy)
   */
  sensitive_tags: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { uniqueItems: true })),
  /**
   * optional: the system under test's own settings (a suite's `system.params`, `--set system.params.x=v`),
   * free-form. Carried here so they are hashed into the config id like any other setting; command and
   * http systems read them as `{params.<key>}` placeholders. `ranked_entries` is the suite's system
   * setting of that name when it is not the default `auto` (absent: `auto`), folded in for the same
   * reason: which entries are ranked changes every ranking measure. `mode` (builtin systems only) is
   * the engine mode a variant runs instead of the suite's `system.mode` (`--set system.mode=bm25`).
   */
  system: Type.Optional(
    Closed({
      params: Type.Optional(SystemParamsSchema),
      ranked_entries: Type.Optional(RankedEntriesSchema),
      mode: Type.Optional(RetrievalModeSchema),
    }),
  ),
});
export type RetrievalConfig = Static<typeof RetrievalConfigSchema>;

type AllOptional<T extends TSchema> =
  T extends TObject<infer Q extends TProperties> ? TObject<{ [J in keyof Q]: TOptional<Q[J]> }> : T;
type Overrides<P extends TProperties> = { [K in keyof P]: TOptional<AllOptional<P[K]>> };

/** Every field optional, and every object field's own fields too: what a layer over the defaults states. */
function overrides<P extends TProperties>(properties: P): Overrides<P> {
  const out: Record<string, TSchema> = {};
  for (const [key, schema] of Object.entries(properties))
    out[key] = Type.Optional(KindGuard.IsObject(schema) ? Type.Partial(schema) : schema);
  return out as Overrides<P>;
}

/**
 * A partial RetrievalConfig: config.json of a fixture set, a suite's `config`, a `--set`. Anything left
 * out takes DEFAULT_CONFIG's value (src/core/defaults.ts, applied by `resolveConfig`); the resolved config
 * is hashed. `$schema` lets an editor find this schema.
 */
export const PartialConfigSchema = Closed({
  $schema: Type.Optional(Type.String()),
  ...overrides(RetrievalConfigSchema.properties),
});
export type PartialConfig = Static<typeof PartialConfigSchema>;

/** config.json of a fixture set, as published. */
export const ConfigFileSchema = Closed(PartialConfigSchema.properties, {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://rgate.dev/schemas/config.json',
  title: 'rgate retrieval config (partial; defaults fill the rest)',
});
