import type { ValidateFunction } from 'ajv/dist/2020.js';
import {
  BeirQueryLineSchema,
  QueryRecordSchema,
  type BeirQueryLine,
  type QueryRecord,
} from '../documents/index.js';
import { compileSchema } from './ajv.js';

export const validateQueryLine: ValidateFunction<QueryRecord> = compileSchema<QueryRecord>(
  QueryRecordSchema,
  'query-record',
);

export const validateBeirQueryLine: ValidateFunction<BeirQueryLine> = compileSchema<BeirQueryLine>(
  BeirQueryLineSchema,
  'beir-query-line',
);
