import type { ValidateFunction } from 'ajv/dist/2020.js';
import { RgateConfigFileSchema, type RgateConfigFile } from '../documents/index.js';
import { compileSchema } from './ajv.js';

export const validateRgateConfig: ValidateFunction<RgateConfigFile> = compileSchema<RgateConfigFile>(
  RgateConfigFileSchema,
  'rgate-config',
);
