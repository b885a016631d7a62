/**
 * The JSON report: validated against the report schema, then written deterministically. Top-level
 * sections keep a fixed, readable order (what was run, the verdict, the evidence, then the
 * `environment` and `timing` sections that may differ between runs); inside them object keys are
 * sorted by code unit and arrays keep the order the harness gave them (already deterministic).
 * The same report always gives the same bytes. A report of more than PACKED_MIN_QUERIES queries is
 * written packed (src/documents/packed-report.ts: its query lists as columns, 9.8 of a 10,000-query
 * report's MB were those lists) and on one line: indentation was 6.5 of its 17 MB, and a file that
 * big is read by programs (which unpack it: src/core/packed-report.ts), not scrolled.
 */
import { assertValidReport } from '../../gates/report-check.js';
import { compareCodeUnits } from '../../src/core/canonical-json.js';
import { RgateError } from '../../src/core/errors.js';
import { packReport } from '../../src/core/packed-report.js';
import { PACKED_MIN_QUERIES, type Report } from '../../src/documents/index.js';

export { assertValidReport };

export const TOP_LEVEL_ORDER: readonly (keyof Report)[] = [
  'schema_version',
  'suite',
  'system',
  'artifacts',
  'settings',
  'judging',
  'gate',
  'metrics',
  'breakdowns',
  'failing_queries',
  'queries',
  'replay_proof',
  'evidence',
  'errors',
  'contract_violations',
  'peer_figures',
  'not_applicable',
  'warnings',
  'fallback_reasons',
  'baseline',
  'environment',
  'timing',
];

/** The most queries a report may have and still be written indented (and not packed). */
export const PRETTY_MAX_QUERIES = PACKED_MIN_QUERIES;

export function renderJson(report: Report): string {
  assertValidReport(report);
  const large = report.queries.length > PRETTY_MAX_QUERIES;
  const packed = large ? packReport(report) : undefined;
  const top = (packed ?? report) as unknown as Record<string, unknown>;
  const ordered: Record<string, unknown> = {};
  // a packed report's query table stands where the query lists would
  const order = TOP_LEVEL_ORDER.flatMap((k) => (k === 'failing_queries' ? ['query_table', k] : [k]));
  for (const k of order) if (top[k] !== undefined) ordered[k] = sortKeys(top[k]);
  return JSON.stringify(ordered, null, large ? undefined : 2) + '\n';
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v === null || typeof v !== 'object') {
    if (typeof v === 'number' && !Number.isFinite(v)) throw new RgateError('internal', `report holds ${v}`);
    return v;
  }
  const o = v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o).sort(compareCodeUnits)) if (o[k] !== undefined) out[k] = sortKeys(o[k]);
  return out;
}
