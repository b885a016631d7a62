import type { ValidateFunction } from 'ajv/dist/2020.js';
import { RetrievalResultV1ResponseSchema, type RetrievalResultV1Response } from '../../documents/index.js';
import { compileSchema } from '../ajv.js';

/** retrieval-result-v1 (seed 003); the schema and its type are src/documents/responses/retrieval-result-v1.ts. */
export const validateRetrievalResultV1: ValidateFunction<RetrievalResultV1Response> =
  compileSchema<RetrievalResultV1Response>(RetrievalResultV1ResponseSchema, 'retrieval-result-v1-response');
