import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadGatePolicy, parseGatePolicy } from './policy.js';

const root = resolve(import.meta.dirname, '..');
const minimal = (rules: unknown[]) => ({
  gate_id: 'g',
  version: '1',
  description: '',
  min_queries: 1,
  rules,
});

describe('loadGatePolicy', () => {
  it('resolves ids to gates/<id>.gate.json and loads both shipped policies', () => {
    expect(loadGatePolicy('semantic-retrieval-v1', root).rules.map((r) => r.metric)).toEqual([
      'top1_useful_rate',
      'judged_top1',
      'fallback_determinism',
      'selection_mode_reporting',
      'source_trace_completeness',
    ]);
    expect(loadGatePolicy('gates/context-load-gate-c-v0.gate.json', root).gate_id).toBe(
      'context-load-gate-c-v0',
    );
  });
  it('a missing id names the file it looked for', () => {
    expect(() => loadGatePolicy('nope', root)).toThrow(/gate policy not found: .*gates\/nope\.gate\.json/);
  });
  it('invalid JSON names the file, the line and the column; a BOM is named', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rgate-gate-'));
    writeFileSync(join(dir, 'bad.gate.json'), '{ "gate_id": ');
    expect(() => loadGatePolicy(join(dir, 'bad.gate.json'), root)).toThrow(
      /bad\.gate\.json:1:14: not valid JSON/,
    );
    // JSON.parse names no position for a trailing comma: the line and column are found anyway
    writeFileSync(join(dir, 'comma.gate.json'), '{\n  "rules": [\n    1,\n  ]\n}\n');
    expect(() => loadGatePolicy(join(dir, 'comma.gate.json'), root)).toThrow(
      /comma\.gate\.json:4:3: not valid JSON/,
    );
    writeFileSync(join(dir, 'bom.gate.json'), '\uFEFF{}');
    expect(() => loadGatePolicy(join(dir, 'bom.gate.json'), root)).toThrow(
      /bom\.gate\.json:1: starts with a UTF-8 byte order mark/,
    );
  });
});

describe('parseGatePolicy refuses mistakes with their JSON path', () => {
  it('unknown metric', () => {
    expect(() =>
      parseGatePolicy(
        minimal([
          { metric: 'top1_useful_rate', min: 0.8 },
          { metric: 'ndcg@5', min: 1 },
        ]),
        'p.json',
      ),
    ).toThrow('p.json /rules/1/metric: unknown metric "ndcg@5"');
  });
  it('ranking ids must name one value: "P" alone (nine cutoffs) is refused, "P.10" accepted', () => {
    expect(() => parseGatePolicy(minimal([{ metric: 'P', min: 0.1 }]), 'p.json')).toThrow(
      'p.json /rules/0/metric: unknown metric "P"',
    );
    expect(parseGatePolicy(minimal([{ metric: 'P.10', min: 0.1 }]), 'p.json').rules[0]!.metric).toBe('P.10');
  });
  it('both or neither of min/max', () => {
    expect(() => parseGatePolicy(minimal([{ metric: 'map', min: 0.1, max: 0.2 }]), 'p.json')).toThrow(
      'p.json /rules/0: needs exactly one of "min", "max" or "vs_base"',
    );
    expect(() => parseGatePolicy(minimal([{ metric: 'map' }]), 'p.json')).toThrow(
      'p.json /rules/0: needs exactly one of "min", "max" or "vs_base"',
    );
  });
  it('unknown fields, bad enums, reversed bands, quantile misuse', () => {
    expect(() => parseGatePolicy(minimal([{ metric: 'map', min: 0.1, minimum: 3 }]), 'p.json')).toThrow(
      'p.json /rules/0/minimum: is not a known field',
    );
    expect(() =>
      parseGatePolicy(minimal([{ metric: 'map', min: 0.1, vs_baseline: 'better' }]), 'p.json'),
    ).toThrow('p.json /rules/0/vs_baseline: must be one of "uplift", "not_below"');
    expect(() =>
      parseGatePolicy(minimal([{ metric: 'map', min: 0.1, watch_band: [0.3, 0.2] }]), 'p.json'),
    ).toThrow('p.json /rules/0/watch_band: lower bound 0.3 is above upper bound 0.2');
    expect(() => parseGatePolicy(minimal([{ metric: 'latency_ms', max: 2000 }]), 'p.json')).toThrow(
      'p.json /rules/0/quantile: is required for latency_ms',
    );
    expect(() =>
      parseGatePolicy(minimal([{ metric: 'recall.10', min: 0.8, per: 'profile' }]), 'p.json'),
    ).toThrow('p.json /rules/0/per: per-profile rules apply only to latency_ms');
    expect(() => parseGatePolicy({ ...minimal([]), min_queries: -1 }, 'p.json')).toThrow(
      /p\.json \/min_queries: must be >= 0/,
    );
  });
  it('accepts ranking ids with parameters and the gate measures', () => {
    const p = parseGatePolicy(
      minimal([
        { metric: 'ndcg_cut.5', min: 0.1, vs_baseline: 'uplift' },
        { metric: 'P.30', min: 0.1 },
        { metric: 'map', min: 0.1 },
        { metric: 'sensitive_leak_rate', max: 0 },
      ]),
      'p.json',
    );
    expect(p.rules).toHaveLength(4);
  });
});

describe('vs_base rules', () => {
  it('are accepted without min/max, and refused beside them or with fields they do not read', () => {
    const p = parseGatePolicy(minimal([{ metric: 'ndcg_cut.10', vs_base: { max_drop: 0.02 } }]), 'p.json');
    expect(p.rules[0]!.vs_base).toEqual({ max_drop: 0.02 });
    expect(() =>
      parseGatePolicy(minimal([{ metric: 'map', min: 0.1, vs_base: { max_drop: 0.02 } }]), 'p.json'),
    ).toThrow('p.json /rules/0: needs exactly one of "min", "max" or "vs_base"');
    expect(() =>
      parseGatePolicy(minimal([{ metric: 'map', vs_base: { max_drop: -0.1 } }]), 'p.json'),
    ).toThrow(/p\.json \/rules\/0\/vs_base\/max_drop: must be >= 0/);
    expect(() =>
      parseGatePolicy(minimal([{ metric: 'map', vs_base: { max_drop: 0.1, alpha: 1 } }]), 'p.json'),
    ).toThrow(/p\.json \/rules\/0\/vs_base\/alpha: must be < 1/);
    expect(() =>
      parseGatePolicy(minimal([{ metric: 'map', vs_base: { max_drop: 0.1, signif: true } }]), 'p.json'),
    ).toThrow('p.json /rules/0/vs_base/signif: is not a known field');
    expect(() =>
      parseGatePolicy(minimal([{ metric: 'map', vs_base: { max_drop: 0.1 }, severity: 'warn' }]), 'p.json'),
    ).toThrow('p.json /rules/0/severity: does not apply to a vs_base rule');
    expect(() =>
      parseGatePolicy(minimal([{ metric: 'latency_ms', vs_base: { max_drop: 10 } }]), 'p.json'),
    ).toThrow('p.json /rules/0/vs_base: latency_ms has no per-query values for the paired test');
  });
});
