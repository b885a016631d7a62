import { describe, expect, it } from 'vitest';
import { renderJson } from '../reports/run/json.js';
import { sampleReport } from '../test/fixtures/sample-report.js';
import { asReport } from './trends.js';

describe('asReport: a stored report read back', () => {
  const stored = (): Record<string, unknown> =>
    JSON.parse(renderJson(sampleReport('fail'))) as Record<string, unknown>;

  it('takes a report that matches the schema', () => {
    expect(asReport(stored())?.suite).toBe(sampleReport('fail').suite);
  });

  it('reads a report broken below the top level as no report, never a cast', () => {
    // a hand-edited row: the top-level shape holds, a field the renderers read does not
    const brokenGate = { ...stored(), gate: { verdict: 'FAIL' } };
    expect(asReport(brokenGate)).toBeUndefined();
    const r = stored();
    const brokenMetric = { ...r, metrics: [{ id: 'top1_useful_rate', value: 'high' }] };
    expect(asReport(brokenMetric)).toBeUndefined();
    expect(asReport({ schema_version: 'rgate-report/1', suite: 'x' })).toBeUndefined();
  });
});
