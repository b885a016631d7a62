/**
 * The validators of what a run store keeps as JSON: a run row (its snapshot ids, settings and plan),
 * its observations and its measures. The store checks them when it reads them back, so a row another
 * rgate version or a hand edit left behind is refused naming the run, instead of reaching
 * `--resume`, `rgate report` or a history chart as a cast.
 */
import { compileSchema } from './ajv.js';
import {
  MetricEntrySchema,
  ObservationSchema,
  RunRowSchema,
  type MetricEntry,
  type Observation,
  type RunRow,
} from '../documents/index.js';

export const validateRunRow = compileSchema<RunRow>(RunRowSchema, 'run-row');
export const validateStoredObservation = compileSchema<Observation>(ObservationSchema, 'observation');
export const validateStoredMetric = compileSchema<MetricEntry>(MetricEntrySchema, 'metric-entry');
