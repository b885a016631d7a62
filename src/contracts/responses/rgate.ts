import type { ValidateFunction } from 'ajv/dist/2020.js';
import { RgateResponseSchema, type RgateResponse } from '../../documents/index.js';
import { compileSchema } from '../ajv.js';

/** rgate's own response format; the schema and its type are src/documents/responses/rgate.ts. */
export const validateRgateResponse: ValidateFunction<RgateResponse> = compileSchema<RgateResponse>(
  RgateResponseSchema,
  'rgate-response',
);
