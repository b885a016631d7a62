import { describe, expect, it } from 'vitest';
import type { QueryRecord, SystemSpec } from '../documents/index.js';
import { exactKeyChannel, querySent } from './probe-inputs.js';

const probe: QueryRecord = {
  query_id: 'p1',
  text: 'which entry lists the cli commands',
  exact_key: 'cli-commands-4a43d031',
  expect: { selection_mode: 'fallback_exact_key' },
};
const command: SystemSpec = {
  type: 'command',
  argv: ['memory-cli', '--query', '{query}'],
  contract: 'memory-cli-v1',
};
const http: SystemSpec = { type: 'http', url: 'http://127.0.0.1:9/retrieve' };

describe('"exact_key": "as_query"', () => {
  it.each([
    ['command', command],
    ['http', http],
  ])('a %s system that declares it takes exact-key probes, and is sent the key as the query', (_, spec) => {
    const declared = { ...spec, exact_key: 'as_query' } as SystemSpec;
    expect(exactKeyChannel(spec).receives).toBe(false);
    expect(exactKeyChannel(spec).fix).toContain('"exact_key": "as_query"');
    expect(exactKeyChannel(declared)).toEqual({
      receives: true,
      reason: 'it takes the exact key as its query text (system.exact_key "as_query")',
      fix: '',
    });
    expect(querySent(declared, probe)).toEqual({ ...probe, text: 'cli-commands-4a43d031' });
    expect(querySent(spec, probe)).toBe(probe);
  });

  it('leaves every query that is not an exact-key probe as written', () => {
    const declared = { ...command, exact_key: 'as_query' } as SystemSpec;
    const keyed: QueryRecord = { query_id: 'q1', text: 'how do we rotate keys', exact_key: 'k' };
    const noKey: QueryRecord = {
      query_id: 'q2',
      text: 'zzqx',
      expect: { selection_mode: 'fallback_exact_key' },
    };
    expect(querySent(declared, keyed)).toBe(keyed);
    expect(querySent(declared, noKey)).toBe(noKey);
  });
});
