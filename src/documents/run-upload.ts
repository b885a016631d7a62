import { Type, type Static } from '@sinclair/typebox';
import { AnyObject, Closed, Const, StringEnum } from './keywords.js';
import { MetricEntrySchema } from './metric-entry.js';
import { ObservationSchema } from './observation.js';
import { VerdictSchema } from './gate-result.js';
import { RunMetaSchema } from './run-row.js';

export const UPLOAD_SCHEMA_VERSION = 'rgate-upload/1';

/** A run id a URL can carry as one path segment (`/p/<project>/runs/<run id>`) without escaping. */
export const UPLOAD_RUN_ID_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$';

/**
 * A finished run as `rgate upload` sends it to `rgate server` (and `importRun` stores it): what the
 * run store kept of it, whole. `report` is the run report document; it is checked against the report
 * schema separately (its `$defs` are its own), and its path in an error is `/result/report/...`.
 */
export const RunUploadSchema = Closed({
  schema: Const(UPLOAD_SCHEMA_VERSION),
  meta: Closed({
    ...RunMetaSchema.properties,
    run_id: Type.String({ pattern: UPLOAD_RUN_ID_PATTERN }),
  }),
  observations: Type.Array(ObservationSchema),
  result: Closed({
    status: StringEnum(['complete', 'interrupted', 'failed']),
    finished_at: Type.String(),
    gate_id: Type.Optional(Type.String()),
    verdict: Type.Optional(VerdictSchema),
    metrics: Type.Array(MetricEntrySchema),
    report: AnyObject(),
  }),
});
export type RunUpload = Static<typeof RunUploadSchema>;
