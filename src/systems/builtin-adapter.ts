import type { BuiltinMode, CorpusRecord, QueryRecord, RetrievalConfig } from '../documents/index.js';
import { createEngine, type Engine } from '../engine/index.js';
import { failedResponse, normalizeResponse, type NormalizedResponse } from './normalize/index.js';
import { toRawObservation } from './observation.js';
import type { RawObservation, RequestContext, SystemAdapter } from './types.js';

const CONTRACT_OF: Record<BuiltinMode, string> = {
  bm25: 'rgate',
  'context-load': 'context-load-v0',
  semantic: 'memory-cli-v1',
  ku: 'resolved-intent',
};

/**
 * The engine mode a builtin system runs: a variant's `system.mode` (`--set system.mode=bm25`), else the
 * suite's `system.mode`, else the config's `mode`. The config's own `mode` comes last because a suite
 * that names its mode has fixed it; a variant changes it through the system, where it is hashed.
 */
export function builtinMode(systemMode: BuiltinMode | undefined, config: RetrievalConfig): BuiltinMode {
  return config.system?.mode ?? systemMode ?? config.mode;
}

/**
 * The `builtin` adapter: rgate's reference engine in-process. Its answers go through the same contract
 * validation as any external system's (bm25 -> rgate format, context-load -> context-load-v0,
 * semantic -> memory-cli-v1), so the engine is held to the contracts it claims; its mode is builtinMode's.
 * `restart()` builds a fresh engine instance. The engine is built from the suite config; `ctx.config` per request only feeds
 * the request fields (k, profile, budgets).
 */
export class BuiltinAdapter implements SystemAdapter {
  readonly kind = 'builtin' as const;
  readonly name: string;
  readonly contract: string;
  readonly mode: BuiltinMode;
  private engine: Engine | undefined;

  constructor(
    private readonly corpus: readonly CorpusRecord[],
    private readonly config: RetrievalConfig,
    mode?: BuiltinMode,
  ) {
    this.mode = builtinMode(mode, config);
    this.contract = CONTRACT_OF[this.mode];
    this.name = `builtin:${this.mode}`;
  }

  async start(): Promise<void> {
    this.engine ??= createEngine(this.corpus, this.config);
  }

  async request(q: QueryRecord, ctx: RequestContext): Promise<RawObservation> {
    const t0 = performance.now();
    let n: NormalizedResponse;
    try {
      this.engine ??= createEngine(this.corpus, this.config);
      n = this.answer(this.engine, q, ctx.config);
    } catch (e) {
      n = failedResponse(this.contract, { kind: 'engine_error', message: (e as Error).message });
    }
    return toRawObservation(q, ctx, n, performance.now() - t0);
  }

  private answer(engine: Engine, q: QueryRecord, cfg: RetrievalConfig): NormalizedResponse {
    switch (this.mode) {
      case 'bm25': {
        const hits = engine.search(q.text, cfg.k);
        const paths = this.paths();
        return normalizeResponse('rgate', {
          ranked: hits.map((h) => ({ id: h.id, source_path: paths.get(h.id) ?? '', score: h.score })),
        });
      }
      case 'context-load':
        return normalizeResponse(
          'context-load-v0',
          engine.contextLoad({
            task: q.text,
            retrieval_profile: q.profile ?? cfg.retrieval_profile,
            weighting_mode: cfg.weighting_mode,
            ...(cfg.budgets.max_files !== undefined ? { max_files: cfg.budgets.max_files } : {}),
            ...(cfg.budgets.max_chars_per_file !== undefined
              ? { max_chars_per_file: cfg.budgets.max_chars_per_file }
              : {}),
            ...(cfg.budgets.tokens !== undefined ? { tokens: cfg.budgets.tokens } : {}),
            fallback_enabled: cfg.fallback.enabled,
          }),
        );
      case 'semantic':
        return normalizeResponse(
          'memory-cli-v1',
          engine.select({
            query: q.text,
            k: cfg.k,
            ...(q.exact_key !== undefined ? { exact_key: q.exact_key } : {}),
            ...(q.embedding !== undefined ? { query_embedding: q.embedding } : {}),
          }),
        );
      case 'ku':
        return normalizeResponse(
          'resolved-intent',
          engine.resolveIntent({
            intent: q.text,
            intentRef: q.query_id,
            retrieval_profile: q.profile ?? cfg.retrieval_profile,
            ...(q.ku?.current_turn ? { current_turn: q.ku.current_turn } : {}),
            ...(q.ku?.session ? { session: q.ku.session } : {}),
          }),
        );
    }
  }

  private pathMap: Map<string, string> | undefined;
  private paths(): Map<string, string> {
    this.pathMap ??= new Map(this.corpus.map((r) => [r.id, r.source_path]));
    return this.pathMap;
  }

  async restart(): Promise<void> {
    this.engine = createEngine(this.corpus, this.config);
  }

  async close(): Promise<void> {
    this.engine = undefined;
  }
}
