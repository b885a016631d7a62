import type { ValidateFunction } from 'ajv/dist/2020.js';
import { ConfigFileSchema, type PartialConfig } from '../documents/index.js';
import { compileSchema } from './ajv.js';

export const validateConfig: ValidateFunction<PartialConfig> = compileSchema<PartialConfig>(
  ConfigFileSchema,
  'config',
);
