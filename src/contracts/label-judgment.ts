import type { ValidateFunction } from 'ajv/dist/2020.js';
import { compileSchema } from './ajv.js';
import { LabelJudgmentSchema, type LabelJudgment } from '../documents/index.js';

export const validateLabelJudgment: ValidateFunction<LabelJudgment> = compileSchema<LabelJudgment>(
  LabelJudgmentSchema,
  'label-judgment',
);
