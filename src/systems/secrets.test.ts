import { describe, expect, it } from 'vitest';
import { redactObservation, redactText, secretsOf } from './secrets.js';
import type { RawObservation } from './types.js';

describe('secret masking', () => {
  const secrets = secretsOf(['--a={env.SHORT}', 'Bearer {env.LONG}', '{env.UNSET}', '{env.K}'], {
    SHORT: 'abcd',
    LONG: 'abcd-def',
    K: '10',
  });

  it('knows the secrets the templates read, longest value first, unset and too short ones left out', () => {
    expect(secrets).toEqual([
      { name: 'LONG', value: 'abcd-def' },
      { name: 'SHORT', value: 'abcd' },
    ]);
  });

  it('masks a value whole, even when another secret is part of it, and leaves a 2-character value alone', () => {
    expect(redactText('k=10: key abcd-def and abcd, abcd', secrets)).toBe(
      'k=10: key {env.LONG} and {env.SHORT}, {env.SHORT}',
    );
  });

  it('masks every string of an observation: error, contract errors, warnings and the answer', () => {
    const o: RawObservation = {
      query_id: 'q1',
      ok: false,
      error: { kind: 'crash', message: 'bad token abcd-def', stderr: 'argv --a=abcd' },
      ranked: [{ id: 'abcd', source_path: 'abcd.md', score: 1 }],
      fallback: { triggered: false },
      usage: { files: 0, chars: 0, tokens: 0 },
      latency_ms: 1,
      contract: { name: 'rgate', valid: false, errors: ['/x: abcd'] },
      warnings: ['warning: key abcd-def near expiry'],
    };
    expect(redactObservation(o, secrets)).toEqual({
      ...o,
      error: { kind: 'crash', message: 'bad token {env.LONG}', stderr: 'argv --a={env.SHORT}' },
      ranked: [{ id: '{env.SHORT}', source_path: '{env.SHORT}.md', score: 1 }],
      contract: { name: 'rgate', valid: false, errors: ['/x: {env.SHORT}'] },
      warnings: ['warning: key {env.LONG} near expiry'],
    });
    expect(JSON.stringify(redactObservation(o, secrets))).not.toMatch(/abcd/);
    expect(redactObservation(o, [])).toBe(o);
  });
});
