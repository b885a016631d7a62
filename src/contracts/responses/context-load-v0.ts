import type { ValidateFunction } from 'ajv/dist/2020.js';
import {
  ContextLoadV0MeasurableSchema,
  ContextLoadV0ResponseSchema,
  type ContextLoadV0Measurable,
  type ContextLoadV0Response,
} from '../../documents/index.js';
import { compileSchema } from '../ajv.js';

/** context-load contract v0 (seed 000), by its letter; the schema and its type are src/documents/responses/context-load-v0.ts. */
export const validateContextLoadV0: ValidateFunction<ContextLoadV0Response> =
  compileSchema<ContextLoadV0Response>(ContextLoadV0ResponseSchema, 'context-load-v0-response');

/** What a measurement of a context-load v0 answer needs (same document). */
export const validateContextLoadV0Measurable: ValidateFunction<ContextLoadV0Measurable> =
  compileSchema<ContextLoadV0Measurable>(ContextLoadV0MeasurableSchema, 'context-load-v0-measurable');
