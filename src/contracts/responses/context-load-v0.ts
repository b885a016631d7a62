import type { ValidateFunction } from 'ajv/dist/2020.js';
import { ContextLoadV0ResponseSchema, type ContextLoadV0Response } from '../../documents/index.js';
import { compileSchema } from '../ajv.js';

/** context-load contract v0 (seed 000); the schema and its type are src/documents/responses/context-load-v0.ts. */
export const validateContextLoadV0: ValidateFunction<ContextLoadV0Response> =
  compileSchema<ContextLoadV0Response>(ContextLoadV0ResponseSchema);
