import { describe, expect, it } from 'vitest';
import { redactObservation, redactText, secretsOf } from './secrets.js';
import type { RawObservation } from './types.js';

describe('secret masking', () => {
  const secrets = secretsOf(['--a={env.SHORT}', 'Bearer {env.LONG}', '{env.UNSET}'], {
    SHORT: 'abc',
    LONG: 'abc-def',
  });

  it('knows the secrets the templates read, longest value first, unset ones left out', () => {
    expect(secrets).toEqual([
      { name: 'LONG', value: 'abc-def' },
      { name: 'SHORT', value: 'abc' },
    ]);
  });

  it('masks a value whole, even when another secret is part of it', () => {
    expect(redactText('key abc-def and abc, abc', secrets)).toBe(
      'key {env.LONG} and {env.SHORT}, {env.SHORT}',
    );
  });

  it('masks every string of an observation: error, contract errors, warnings and the answer', () => {
    const o: RawObservation = {
      query_id: 'q1',
      ok: false,
      error: { kind: 'crash', message: 'bad token abc-def', stderr: 'argv --a=abc' },
      ranked: [{ id: 'abc', source_path: 'abc.md', score: 1 }],
      fallback: { triggered: false },
      usage: { files: 0, chars: 0, tokens: 0 },
      latency_ms: 1,
      contract: { name: 'rgate', valid: false, errors: ['/x: abc'] },
      warnings: ['warning: key abc-def near expiry'],
    };
    expect(redactObservation(o, secrets)).toEqual({
      ...o,
      error: { kind: 'crash', message: 'bad token {env.LONG}', stderr: 'argv --a={env.SHORT}' },
      ranked: [{ id: '{env.SHORT}', source_path: '{env.SHORT}.md', score: 1 }],
      contract: { name: 'rgate', valid: false, errors: ['/x: {env.SHORT}'] },
      warnings: ['warning: key {env.LONG} near expiry'],
    });
    expect(JSON.stringify(redactObservation(o, secrets))).not.toMatch(/abc/);
    expect(redactObservation(o, [])).toBe(o);
  });
});
