/**
 * Which config keys each engine mode reads, from the lists kept beside the code that reads them
 * (BM25_READS, CONTEXT_LOAD_READS, SEMANTIC_READS, KU_READS). A key no mode path reads cannot change
 * an answer, so a tuning variant that sets only such keys would tie everywhere and read as "no effect".
 * Keys are dotted paths; a listed path covers its sub-keys (`budgets` covers `budgets.tokens`).
 */
import {
  SEMANTIC_METHODS,
  type RetrievalConfig,
  type RetrievalMode,
  type SemanticMethod,
} from '../documents/index.js';
import { SEMANTIC_DEFAULTS } from '../core/defaults.js';
import { CONTEXT_LOAD_READS } from './context-load.js';
import { BM25_READS } from './engine.js';
import { KU_READS } from './ku-context.js';
import { SEMANTIC_READS } from './semantic.js';

type Method = SemanticMethod;
const METHODS: readonly Method[] = SEMANTIC_METHODS;

function methodOf(config: RetrievalConfig): Method {
  return config.semantic.method ?? SEMANTIC_DEFAULTS.method;
}

function keysOf(mode: RetrievalMode, method: Method): readonly string[] {
  switch (mode) {
    case 'bm25':
      return BM25_READS;
    case 'context-load':
      return CONTEXT_LOAD_READS;
    case 'ku':
      return KU_READS;
    case 'semantic':
      return [...SEMANTIC_READS.all, ...SEMANTIC_READS[method]];
  }
}

function covers(read: string, key: string): boolean {
  return key === read || key.startsWith(`${read}.`) || read.startsWith(`${key}.`);
}

/** Does the engine, in this mode (and, for semantic, the config's method), read `key`? */
export function engineReads(mode: RetrievalMode, config: RetrievalConfig, key: string): boolean {
  return keysOf(mode, methodOf(config)).some((r) => covers(r, key));
}

/** What reads `key` instead, e.g. ["mode context-load"] or ["semantic method cosine"]; in mode order. */
export function readersOf(key: string): string[] {
  const out: string[] = [];
  for (const mode of ['bm25', 'context-load', 'semantic', 'ku'] as const) {
    if (mode !== 'semantic') {
      if (keysOf(mode, 'hybrid_rrf').some((r) => covers(r, key))) out.push(`mode ${mode}`);
      continue;
    }
    const by = METHODS.filter((m) => keysOf(mode, m).some((r) => covers(r, key)));
    if (by.length === METHODS.length) out.push('mode semantic');
    else for (const m of by) out.push(`semantic method ${m}`);
  }
  return out;
}

/** The key of the same job this mode and method do read, when `key` is the other method's (semantic gates). */
export function readInstead(mode: RetrievalMode, config: RetrievalConfig, key: string): string | undefined {
  if (mode !== 'semantic') return undefined;
  const other = (SEMANTIC_READS.instead as Record<string, string>)[key];
  return other !== undefined && engineReads(mode, config, other) ? other : undefined;
}
