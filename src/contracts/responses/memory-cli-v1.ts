import type { ValidateFunction } from 'ajv/dist/2020.js';
import {
  MEMORY_CLI_SCORE_FIELDS,
  MemoryCliV1MeasurableSchema,
  MemoryCliV1ResponseSchema,
  type MemoryCliV1Measurable,
  type MemoryCliV1Response,
} from '../../documents/index.js';
import { compileSchema } from '../ajv.js';

/** AthenaMind memory-cli v1 (seed 001); the schema and its type are src/documents/responses/memory-cli-v1.ts. */
export const validateMemoryCliV1: ValidateFunction<MemoryCliV1Response> = compileSchema<MemoryCliV1Response>(
  MemoryCliV1ResponseSchema,
  'memory-cli-v1-response',
);

/** What a measurement of a memory-cli v1 answer needs (same document). */
export const validateMemoryCliV1Measurable: ValidateFunction<MemoryCliV1Measurable> =
  compileSchema<MemoryCliV1Measurable>(MemoryCliV1MeasurableSchema, 'memory-cli-v1-measurable');

/** A candidate's score: `fused_score`, else `confidence`, else `lexical_score`, else `score`. */
export function memoryCliScore(c: MemoryCliV1Measurable['candidates'][number]): number {
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
