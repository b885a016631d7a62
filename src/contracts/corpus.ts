import type { ValidateFunction } from 'ajv/dist/2020.js';
import { compileSchema } from './ajv.js';
import { CorpusLineSchema, type CorpusLine } from '../documents/index.js';

export const validateCorpusLine: ValidateFunction<CorpusLine> = compileSchema<CorpusLine>(
  CorpusLineSchema,
  'corpus-line',
);

/** The record's id, or the `/path: message` problem when it has none or both of `id` and `_id`. */
export function corpusLineId(line: CorpusLine): { id: string } | { problem: string } {
  if (line.id !== undefined && line._id !== undefined)
    return { problem: '/_id: give either id or _id, not both' };
  const id = line.id ?? line._id;
  return id === undefined ? { problem: '/id: is required' } : { id };
}
