/**
 * A stored run row's validator. The run store keeps a run's snapshot ids, settings and plan as JSON
 * and checks them when it reads them back, so a row another rgate version or a hand edit left
 * behind is refused naming the run, instead of reaching `--resume` or `rgate report` as a cast.
 */
import { compileSchema } from './ajv.js';
import { RunRowSchema, type RunRow } from '../documents/index.js';

export const validateRunRow = compileSchema<RunRow>(RunRowSchema, 'run-row');
