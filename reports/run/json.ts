/**
 * The JSON report: validated against the report schema, then written deterministically. Top-level
 * sections keep a fixed, readable order (what was run, the verdict, the evidence, then the
 * `environment` and `timing` sections that may differ between runs); inside them object keys are
 * sorted by code unit and arrays keep the order the harness gave them (already deterministic).
 * The same report always gives the same bytes. A report of more than PRETTY_MAX_QUERIES queries is
 * written on one line: indentation was 6.5 of a 10,000-query report's 17 MB, and a file that big is
 * read by programs (or `jq .`), not scrolled.
 */
import { assertValidReport } from '../../gates/report-check.js';
import { compareCodeUnits } from '../../src/core/canonical-json.js';
import { RgateError } from '../../src/core/errors.js';
import type { Report } from '../../src/documents/index.js';

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

/** The most queries a report may have and still be written indented. */
export const PRETTY_MAX_QUERIES = 1000;

export function renderJson(report: Report): string {
  assertValidReport(report);
  const top = report as unknown as Record<string, unknown>;
  const ordered: Record<string, unknown> = {};
  for (const k of TOP_LEVEL_ORDER) if (top[k] !== undefined) ordered[k] = sortKeys(top[k]);
  const indent = report.queries.length > PRETTY_MAX_QUERIES ? undefined : 2;
  return JSON.stringify(ordered, null, indent) + '\n';
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
