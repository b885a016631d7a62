/**
 * A system under test, as rgate.config.json declares it and createSystem builds it. One shape per
 * `type`; the schema picks the shape by `type` with if/then, so a mistake is reported against the
 * fields of the system meant (a oneOf would report every shape's complaints at once).
 */
import { Type, type Static, type TObject, type TUnsafe } from '@sinclair/typebox';
import { Closed, Const, StringEnum, StringMap } from './keywords.js';
import { RESPONSE_CONTRACTS } from './response-contract.js';
import {
  RankedEntriesSchema,
  RetrievalModeSchema,
  SystemParamsSchema,
  type RetrievalConfig,
} from './retrieval-config.js';
import { SelectionModeSchema } from './selection-mode.js';

const posInt = Type.Integer({ minimum: 1 });
// typed string, not the enum: a system built in code may name any contract, and createSystem
// refuses an unknown one with the list of known ones
const contract = Type.Unsafe<string>({ enum: [...RESPONSE_CONTRACTS] });
/** context-load answers: which entries are ranked (RankedEntriesSchema); hashed into the config id unless `auto` */
const rankedEntries = Type.Optional(RankedEntriesSchema);
const semanticWinModes = Type.Optional(Type.Array(SelectionModeSchema, { minItems: 1, uniqueItems: true }));
/**
 * How the system takes an exact-key probe's key when its request has no `{exact_key}`: `as_query`, as
 * its query text (`{query}`, a worker's `query`, an http body's `query`), for a system whose exact-key
 * lookup is reached by asking for the key itself (AthenaMind memory-cli). Only exact-key probes are
 * sent so; every other query keeps its text. Without it, such probes are not applicable to the system.
 */
export const ExactKeyInputSchema = StringEnum(['as_query']);
export type ExactKeyInput = Static<typeof ExactKeyInputSchema>;
const exactKey = Type.Optional(ExactKeyInputSchema);

export const BuiltinModeSchema = RetrievalModeSchema;
export type BuiltinMode = Static<typeof BuiltinModeSchema>;

export const BuiltinSystemSpecSchema = Closed({
  type: Const('builtin'),
  /** defaults to the suite config's `mode` */
  mode: Type.Optional(BuiltinModeSchema),
});
export type BuiltinSystemSpec = Static<typeof BuiltinSystemSpecSchema>;

export const CommandSystemSpecSchema = Closed({
  type: Const('command'),
  /**
   * argv template; argv[0] is resolved on PATH. rgate starts no shell: each placeholder stays inside its
   * argument. A shell the argv starts (`sh -c`) parses its script, so a placeholder there is refused.
   */
  argv: Type.Array(Type.String(), { minItems: 1 }),
  /** keep one process per concurrency slot speaking JSON lines instead of spawning per query */
  worker: Type.Optional(Type.Boolean()),
  /** response contract name (see CONTRACT_NAMES) */
  contract,
  /** the system's own settings, free-form; `{params.<key>}` in argv / env; hashed into the config id */
  params: Type.Optional(SystemParamsSchema),
  /** selection modes that count as a semantic win (seed 001 top-1 useful rate); default semantic, hybrid_rrf */
  semantic_win_modes: semanticWinModes,
  ranked_entries: rankedEntries,
  exact_key: exactKey,
  /** per request; default 30000 */
  timeout_ms: Type.Optional(posInt),
  /** stdout cap per response; default 16 MiB */
  max_output_bytes: Type.Optional(posInt),
  /** the child's whole environment is PATH (from rgate's own environment) plus these */
  env: Type.Optional(StringMap(Type.String())),
  /** working directory; relative to the rgate.config.json folder; default that folder */
  cwd: Type.Optional(Type.String({ minLength: 1 })),
  /**
   * @deprecated Ignored: per-query mode always uses node's child_process.spawn. Still accepted (any of
   * the old values) so configs written when Python and Perl spawn servers existed stay valid; for
   * speed, use `worker: true` (docs/DECISIONS.md, "Systems").
   */
  launcher: Type.Optional(StringEnum(['auto', 'python', 'perl', 'node'])),
});
export type CommandSystemSpec = Static<typeof CommandSystemSpecSchema>;

export const HttpSystemSpecSchema = Closed({
  type: Const('http'),
  /** endpoint receiving `POST` with a RetrievalQuery (seed 004) body */
  url: Type.String({ pattern: '^https?://' }),
  /** default `context-pack` */
  contract: Type.Optional(contract),
  /** the system's own settings, free-form; `{params.<key>}` in `filters` / `headers` values; hashed into the config id */
  params: Type.Optional(SystemParamsSchema),
  /** selection modes that count as a semantic win (seed 001 top-1 useful rate); default semantic, hybrid_rrf */
  semantic_win_modes: semanticWinModes,
  ranked_entries: rankedEntries,
  exact_key: exactKey,
  /** per request; default 30000 */
  timeout_ms: Type.Optional(posInt),
  /** response body cap; default 16 MiB */
  max_output_bytes: Type.Optional(posInt),
  headers: Type.Optional(StringMap(Type.String())),
  /** RetrievalQuery `filters` sent with every request (seed 004: repo, tenant, run_id ...) */
  filters: Type.Optional(StringMap(Type.String())),
  /** RetrievalQuery `overlay_policy`; default `include` */
  overlay_policy: Type.Optional(StringEnum(['include', 'skip'])),
  /** RetrievalQuery `transport`; default `direct` */
  transport: Type.Optional(StringEnum(['direct', 'gateway'])),
});
export type HttpSystemSpec = Static<typeof HttpSystemSpecSchema>;

/**
 * A retriever written in TypeScript or JavaScript, loaded in-process (worker threads, one per
 * concurrency slot) without a build step. The export is a function receiving what a JSON-lines worker
 * receives (plus `params`), or a LangChain.js / LlamaIndex.TS retriever object.
 */
export const ModuleSystemSpecSchema = Closed({
  type: Const('module'),
  /** the module's file; relative to the rgate.config.json folder */
  path: Type.String({ minLength: 1 }),
  /** the export to call; default `default` */
  export: Type.Optional(Type.String({ minLength: 1 })),
  /** default `rgate` (a plain ranked list is read as rgate's `ranked`) */
  contract: Type.Optional(contract),
  /** the system's own settings, free-form; handed to the function as `params`; hashed into the config id */
  params: Type.Optional(SystemParamsSchema),
  /** selection modes that count as a semantic win (seed 001 top-1 useful rate); default semantic, hybrid_rrf */
  semantic_win_modes: semanticWinModes,
  ranked_entries: rankedEntries,
  exact_key: exactKey,
  /** per request; default 30000; past it the worker thread is terminated */
  timeout_ms: Type.Optional(posInt),
});
export type ModuleSystemSpec = Static<typeof ModuleSystemSpecSchema>;

/**
 * What a function or module retriever is called with: what a JSON-lines worker receives, and the
 * system's `params`.
 */
export interface RetrieverRequest {
  query_id: string;
  query: string;
  k: number;
  profile: string;
  exact_key?: string;
  replay: number;
  corpus_dir: string;
  config: RetrievalConfig;
  params: Record<string, unknown>;
  ku?: { current_turn: unknown[]; session: unknown[] };
}

/**
 * A function the caller already holds (the library, inside vitest): `fn` exists only in memory, so
 * in rgate.config.json and in a stored run this system is its `name` (default: the function's own).
 * It runs in rgate's own thread: a timeout stops waiting for it but cannot stop it (a module system
 * can: its thread is terminated).
 */
export const FunctionSystemSpecSchema = Closed({
  type: Const('function'),
  /** the retriever: (request) => answer, or a promise of one (see RetrieverRequest) */
  fn: Type.Optional(Type.Unsafe<(request: RetrieverRequest) => unknown>({})),
  /** how reports name it; default the function's name */
  name: Type.Optional(Type.String({ minLength: 1 })),
  /** default `rgate` (a plain ranked list is read as rgate's `ranked`) */
  contract: Type.Optional(contract),
  /** the system's own settings, free-form; handed to the function as `params`; hashed into the config id */
  params: Type.Optional(SystemParamsSchema),
  semantic_win_modes: semanticWinModes,
  ranked_entries: rankedEntries,
  exact_key: exactKey,
  /** per request; default 30000 */
  timeout_ms: Type.Optional(posInt),
});
export type FunctionSystemSpec = Static<typeof FunctionSystemSpecSchema>;

/** One object whose `type` picks which of `shapes` it must be. */
function ByType<T extends TObject[]>(shapes: [...T]): TUnsafe<Static<T[number]>> {
  const tagOf = (shape: TObject) => (shape.properties['type'] as unknown as { const: string }).const;
  return Type.Unsafe<Static<T[number]>>({
    type: 'object',
    required: ['type'],
    properties: { type: { enum: shapes.map(tagOf) } },
    allOf: shapes.map((shape) => {
      // `type` is required and checked above; the branch states only the rest
      const required = (shape.required ?? []).filter((key) => key !== 'type');
      return {
        if: { properties: { type: { const: tagOf(shape) } } },
        then: {
          ...(required.length > 0 ? { required } : {}),
          properties: shape.properties,
          additionalProperties: false,
        },
      };
    }),
  });
}

export const SystemSpecSchema = ByType([
  BuiltinSystemSpecSchema,
  CommandSystemSpecSchema,
  HttpSystemSpecSchema,
  ModuleSystemSpecSchema,
  FunctionSystemSpecSchema,
]);
export type SystemSpec = Static<typeof SystemSpecSchema>;
