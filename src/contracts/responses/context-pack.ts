import type { ValidateFunction } from 'ajv/dist/2020.js';
import { ContextPackResponseSchema, type ContextPackResponse } from '../../documents/index.js';
import { compileSchema } from '../ajv.js';

/** ContextPack (seed 004); the schema and its type are src/documents/responses/context-pack.ts. */
export const validateContextPack: ValidateFunction<ContextPackResponse> = compileSchema<ContextPackResponse>(
  ContextPackResponseSchema,
  'context-pack-response',
);
