/**
 * The JSON report: validated against the report schema, then written deterministically. Top-level
 * sections keep a fixed, readable order (what was run, the verdict, the evidence, then the
 * `environment` and `timing` sections that may differ between runs); inside them object keys are
 * sorted by code unit and arrays keep the order the harness gave them (already deterministic).
 * The same report always gives the same bytes.
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

export function renderJson(report: Report): string {
  assertValidReport(report);
  const top = report as unknown as Record<string, unknown>;
  const ordered: Record<string, unknown> = {};
  for (const k of TOP_LEVEL_ORDER) if (top[k] !== undefined) ordered[k] = sortKeys(top[k]);
  return JSON.stringify(ordered, null, 2) + '\n';
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
