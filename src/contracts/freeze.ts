import type { ValidateFunction } from 'ajv/dist/2020.js';
import { compileSchema } from './ajv.js';
import { FreezeSchema, type Freeze } from '../documents/index.js';

export const validateFreeze: ValidateFunction<Freeze> = compileSchema<Freeze>(FreezeSchema, 'freeze');
