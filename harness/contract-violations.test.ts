import { describe, expect, it } from 'vitest';
import type { Observation } from '../src/documents/index.js';
import { contractViolations, violationRule } from './contract-violations.js';

const obs = (query_id: string, replay: number, ok: boolean, errors: string[]): Observation => ({
  query_id,
  replay,
  ok,
  ranked: [],
  fallback: { triggered: false },
  usage: { files: 0, chars: 0, tokens: 0 },
  latency_ms: 0,
  contract: { name: 'c', valid: errors.length === 0, errors },
  fingerprint: 'f',
});

describe('contract violations of measured answers', () => {
  it('a rule is the JSON path with indices as *', () => {
    expect(violationRule('/files/12/score_breakdown/combined_score: is required')).toBe(
      '/files/*/score_breakdown/combined_score: is required',
    );
    expect(violationRule('/candidates/0: needs one of a, b 2 to rank by')).toBe(
      '/candidates/*: needs one of a, b 2 to rank by',
    );
    expect(violationRule('/k2: must be 3')).toBe('/k2: must be 3');
  });

  it('counts a rule once per request, ignores request errors, orders by count then rule', () => {
    const queries = [
      { query_id: 'b', text: '' },
      { query_id: 'a', text: '' },
    ];
    const v = contractViolations(queries, [
      obs('a', 1, true, ['/x/0/y: bad', '/x/1/y: bad']),
      obs('b', 2, true, ['/z: is required']),
      obs('b', 1, true, ['/x/3/y: bad', '/z: is required']),
      obs('a', 2, false, ['/x/0/y: bad']),
      obs('a', 3, true, []),
    ])!;
    expect(v).toEqual({
      contract: 'c',
      measured: 4,
      violating: 3,
      rules: [
        {
          rule: '/x/*/y: bad',
          requests: 2,
          queries: 2,
          first: { query_id: 'b', replay: 1, line: '/x/3/y: bad' },
          // query set order (b before a), not id order
          examples: ['b', 'a'],
        },
        {
          rule: '/z: is required',
          requests: 2,
          queries: 1,
          first: { query_id: 'b', replay: 1, line: '/z: is required' },
          examples: ['b'],
        },
      ],
    });
    expect(contractViolations(queries, [obs('a', 1, true, [])])).toBeUndefined();
  });

  it('names at most 5 example queries per rule, the first 5 of the query set', () => {
    const ids = ['q7', 'q1', 'q6', 'q2', 'q5', 'q3', 'q4'];
    const v = contractViolations(
      ids.map((query_id) => ({ query_id, text: '' })),
      [...ids].reverse().map((id) => obs(id, 1, true, ['/z: is required'])),
    )!;
    expect(v.rules[0]).toMatchObject({ requests: 7, queries: 7, examples: ['q7', 'q1', 'q6', 'q2', 'q5'] });
  });
});
