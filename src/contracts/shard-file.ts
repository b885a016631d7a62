import type { ValidateFunction } from 'ajv/dist/2020.js';
import { compileSchema } from './ajv.js';
import { ShardFileSchema, type ShardFile } from '../documents/index.js';

export const validateShardFile: ValidateFunction<ShardFile> = compileSchema<ShardFile>(
  ShardFileSchema,
  'shard-file',
);
