/**
 * The report file of a large run (more than PACKED_MIN_QUERIES queries): the same report, its per-query
 * lists stored once and as columns. A 10,000-query report.json repeated every field name 10,000 times,
 * every failing query twice (in `failing_queries` and in `queries`), every query id a third time in the
 * replay proof, and the same few strings (selection modes, fallback reasons, failure reasons, document
 * ids) thousands of times. Readers unpack it (src/core/packed-report.ts) into the report, exactly: the
 * same values, so the same bytes when written again.
 */
import { Type, type Static } from '@sinclair/typebox';
import { MeasureValueSchema } from './measure-value.js';
import { ArtifactRefsSchema } from './artifact-refs.js';
import { RuleResultSchema } from './gate-result.js';
import { Closed, Const, OneOf, StringMap, WithDefs } from './keywords.js';
import { REPORT_PROPERTIES } from './report.js';

export const PACKED_REPORT_SCHEMA_VERSION = 'rgate-report-packed/1';

/** A report with more queries than this is written packed (and on one line). */
export const PACKED_MIN_QUERIES = 1000;

const index = Type.Integer({ minimum: 0 });

/**
 * One field of every query, in query order; null where a query lacks it. Either the values as they
 * are, or (when that is shorter) each distinct string once, in order of first use, and each value as
 * its position in that list (a list of strings as a list of positions).
 */
export const PackedColumnSchema = OneOf([
  Type.Array(Type.Unknown()),
  Closed({
    strings: Type.Array(Type.String()),
    codes: Type.Array(Type.Union([index, Type.Array(index), Type.Null()])),
  }),
]);
export type PackedColumn = Static<typeof PackedColumnSchema>;

/** The queries (and failing queries, and the replay proof's per-query fingerprints) as columns. */
export const QueryTableSchema = Closed({
  /** how many queries: `queries`' length */
  count: index,
  /**
   * each field of a query by its path (object keys joined by "/", a key's own "~" and "/" written
   * "~0" and "~1", as in a JSON Pointer): "query_id", "actual/top_ids", "measures/ndcg_cut.5"
   */
  columns: StringMap(PackedColumnSchema),
  /**
   * the objects in a query, by path: 1 where the query has it, null where not; an empty list when
   * every query has it
   */
  objects: StringMap(Type.Array(Type.Union([Type.Literal(1), Type.Null()]))),
  /** `failing_queries`: each one's position in `queries` (each is that query, the same in every field) */
  failing: Type.Array(index),
  /**
   * the replay proof's `per_query` fingerprints when it lists the queries in query order: each
   * query's one fingerprint, or its list when there are more (`replay_proof.per_query` is then empty)
   */
  fingerprints: Type.Optional(PackedColumnSchema),
  /**
   * how `fingerprints` are written: `sha256-base64url`: each "sha256:<64 hex digits>" as its 32 bytes
   * in base64url without padding (43 characters, not 71); absent: as they are
   */
  fingerprint_form: Type.Optional(Const('sha256-base64url')),
});
export type QueryTable = Static<typeof QueryTableSchema>;

const { schema_version: _v, failing_queries: _f, queries: _q, ...kept } = REPORT_PROPERTIES;

const packed = Closed(
  { schema_version: Const(PACKED_REPORT_SCHEMA_VERSION), ...kept, query_table: QueryTableSchema },
  {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://rgate.dev/schemas/report-packed.json',
    title: 'rgate run report, packed (a run of more than 1000 queries)',
  },
);

export const PackedReportSchema = WithDefs(packed, {
  measureValue: MeasureValueSchema,
  artifacts: ArtifactRefsSchema,
  rule: RuleResultSchema,
});
export type PackedReport = Static<typeof PackedReportSchema>;
