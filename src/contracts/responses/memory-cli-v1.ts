import type { ValidateFunction } from 'ajv/dist/2020.js';
import { SELECTION_MODES, type SelectionMode } from '../../documents/index.js';
import { compileSchema } from '../ajv.js';

/**
 * AthenaMind `memory-cli retrieve` (seed 001), as the real CLI prints it (recorded outputs in
 * fixtures/memory-cli/). Every response carries `selection_mode`, `selected_id` and `source_path`;
 * the two may be null only for `no_match`, which must give its reason. Candidates are ranked by their
 * order (the CLI prints no rank and no `score`): each carries `confidence`, `lexical_score` (left out
 * when 0), `fused_score` (hybrid mode only), its own `selection_mode` and a `reason`. Fields the CLI
 * may add later are accepted: this contract states what rgate reads, not every field there is.
 */
export interface MemoryCliV1Candidate {
  id: string;
  source_path?: string;
  /** the candidate's own mode: `classic` (token overlap), `semantic`, `hybrid_rrf` */
  selection_mode?: MemoryCliCandidateMode;
  confidence?: number;
  lexical_score?: number;
  fused_score?: number;
  reason?: string;
  /** an explicit score (earlier drafts of this contract); the CLI itself prints none */
  score?: number;
  /** 1-based position, when a system states it; must equal the candidate's order */
  rank?: number;
}
export interface MemoryCliV1Response {
  selection_mode: SelectionMode;
  selected_id: string | null;
  source_path: string | null;
  confidence: number;
  reason: string;
  candidates: MemoryCliV1Candidate[];
  /** the CLI's own flag: a deterministic fallback chose the answer */
  fallback_used?: boolean;
  semantic_hit?: boolean;
  precision_hint?: number;
  fallback?: {
    triggered?: boolean;
    stage?: string | null;
    trace?: Array<{ stage?: string; outcome?: string }>;
  };
}

/** Modes a memory-cli candidate reports for itself (not answer selection modes: `classic` is one). */
export const MEMORY_CLI_CANDIDATE_MODES = ['classic', 'semantic', 'hybrid_rrf'] as const;
export type MemoryCliCandidateMode = (typeof MEMORY_CLI_CANDIDATE_MODES)[number];

/** The fields a candidate's score is read from, first present wins (see memoryCliScore). */
export const MEMORY_CLI_SCORE_FIELDS = ['fused_score', 'confidence', 'lexical_score', 'score'] as const;

export const memoryCliV1Schema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://rgate.dev/schemas/responses/memory-cli-v1.json',
  title: 'memory CLI v1 selection',
  type: 'object',
  required: ['selection_mode', 'selected_id', 'source_path', 'confidence', 'reason', 'candidates'],
  properties: {
    selection_mode: { enum: [...SELECTION_MODES] },
    selected_id: { type: ['string', 'null'] },
    source_path: { type: ['string', 'null'] },
    confidence: { type: 'number' },
    reason: { type: 'string' },
    fallback_used: { type: 'boolean' },
    semantic_hit: { type: 'boolean' },
    precision_hint: { type: 'number' },
    candidates: {
      type: 'array',
      items: {
        type: 'object',
        // "one of the score fields" is checked by memoryCliCrossCheck, whose message names them
        required: ['id'],
        properties: {
          id: { type: 'string', minLength: 1 },
          source_path: { type: 'string' },
          selection_mode: { enum: [...MEMORY_CLI_CANDIDATE_MODES] },
          confidence: { type: 'number' },
          lexical_score: { type: 'number' },
          fused_score: { type: 'number' },
          reason: { type: 'string' },
          score: { type: 'number' },
          rank: { type: 'integer', minimum: 1 },
        },
      },
    },
    fallback: {
      type: 'object',
      properties: {
        triggered: { type: 'boolean' },
        stage: { type: ['string', 'null'] },
        trace: { type: 'array', items: { type: 'object' } },
      },
    },
  },
  if: { properties: { selection_mode: { const: 'no_match' } } },
  then: { properties: { reason: { type: 'string', minLength: 1 } } },
  else: {
    properties: {
      selected_id: { type: 'string', minLength: 1 },
      source_path: { type: 'string', minLength: 1 },
    },
  },
} as const;

export const validateMemoryCliV1: ValidateFunction<MemoryCliV1Response> =
  compileSchema<MemoryCliV1Response>(memoryCliV1Schema);

/** A candidate's score: `fused_score`, else `confidence`, else `lexical_score`, else `score`. */
export function memoryCliScore(c: MemoryCliV1Candidate): number {
  return c.fused_score ?? c.confidence ?? c.lexical_score ?? c.score ?? 0;
}

/** Rules JSON Schema would word badly: every candidate has a score field; a stated rank equals the order. */
export function memoryCliCrossCheck(p: MemoryCliV1Response): string[] {
  const errors: string[] = [];
  p.candidates.forEach((c, i) => {
    if (MEMORY_CLI_SCORE_FIELDS.every((f) => c[f] === undefined)) {
      errors.push(`/candidates/${i}: needs one of ${MEMORY_CLI_SCORE_FIELDS.join(', ')} to rank by`);
    }
    if (c.rank !== undefined && c.rank !== i + 1) {
      errors.push(`/candidates/${i}/rank: must equal the candidate's position (${i + 1}); order is rank`);
    }
  });
  return errors;
}
