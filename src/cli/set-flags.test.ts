import { describe, expect, it } from 'vitest';
import { isRgateError } from '../core/errors.js';
import { closestConfigKey, parseSetFlags } from './set-flags.js';

function refusal(flags: string[]): string {
  try {
    parseSetFlags(flags);
    return 'accepted';
  } catch (e) {
    if (!isRgateError(e)) throw e;
    expect(e.exitCode).toBe(2);
    return `${e.message} | ${e.hint ?? ''}`;
  }
}

describe('--set validation against the config schema', () => {
  it('nests dotted keys and parses JSON values', () => {
    expect(parseSetFlags(['bm25.k1=1.2', 'weighting_mode=uniform', 'sensitive_tags=["a"]'])).toEqual({
      bm25: { k1: 1.2 },
      weighting_mode: 'uniform',
      sensitive_tags: ['a'],
    });
  });

  it('system.params.* is free-form: any key, any JSON value', () => {
    expect(parseSetFlags(['system.params.mode=hybrid', 'system.params.rrf.k=60'])).toEqual({
      system: { params: { mode: 'hybrid', rrf: { k: 60 } } },
    });
  });

  it('an unknown key names the closest valid one', () => {
    expect(refusal(['semantic.confidence_mn=0.1'])).toContain(
      'unknown config key "semantic.confidence_mn"; did you mean semantic.confidence_min?',
    );
    expect(refusal(['k1=0.9'])).toContain('did you mean bm25.k1?');
    expect(refusal(['weighting=uniform'])).toContain('did you mean weighting_mode?');
    expect(refusal(['system.parms.mode=hybrid'])).toContain(
      "a system's own settings go under system.params.<key>",
    );
    // system.mode is the builtin engine's mode (a known key), so a command system's mode is refused by value
    expect(refusal(['system.mode=hybrid'])).toContain(
      'system.mode expects one of "bm25", "context-load", "semantic", "ku", got the string "hybrid"',
    );
    expect(refusal(['$schema=x'])).toContain('unknown config key "$schema"');
    expect(closestConfigKey('bm25.bb')).toBe('bm25.b');
  });

  it('a wrong-typed value names the expected type', () => {
    expect(refusal(['bm25.k1=fast'])).toContain('bm25.k1 expects a number >= 0, got the string "fast"');
    expect(refusal(['semantic.confidence_min=1.5'])).toContain('a number >= 0 and <= 1, got the number 1.5');
    expect(refusal(['weighting_mode=bias'])).toContain(
      'weighting_mode expects one of "uniform", "evidence_outcome_bias", got the string "bias"',
    );
    expect(refusal(['fallback.enabled=yes'])).toContain('expects a boolean');
    expect(refusal(['as_of=yesterday'])).toContain('expects an ISO-8601 date-time string');
    expect(refusal(['system.params=3'])).toContain('system.params expects an object');
  });

  it('a string the schema constrains by pattern or enum names the values it takes, and a valid example', () => {
    expect(refusal(['system.ranked_entries=bogus'])).toBe(
      '--set system.ranked_entries=bogus: system.ranked_entries expects "auto", "all", "rank" or "selected_by:<prefix>" (e.g. selected_by:task:), got the string "bogus" | for example --set system.ranked_entries=all',
    );
    expect(parseSetFlags(['system.ranked_entries=all'])).toEqual({ system: { ranked_entries: 'all' } });
    expect(parseSetFlags(['system.ranked_entries=selected_by:task:'])).toEqual({
      system: { ranked_entries: 'selected_by:task:' },
    });
    expect(refusal(['bm25.formula=okapi'])).toContain(
      'bm25.formula expects one of "lucene", "fts5", got the string "okapi" | for example --set bm25.formula=lucene',
    );
    // a union of objects says what each takes, not "any JSON value"
    expect(refusal(['embedder=3'])).toContain('embedder expects an object with type, or an object with api');
  });
});
