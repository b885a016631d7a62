import { describe, expect, it } from 'vitest';
import { normalizeWarningLine, stderrWarnings } from './stderr-warnings.js';

describe('stderrWarnings', () => {
  it('keeps each distinct line, normalised, in first-appearance order', () => {
    expect(
      stderrWarnings(
        'warning: embedding unavailable; using token-overlap scoring: dial tcp 127.0.0.1:9\r\n' +
          '\n2026-11-26T08:15:02.123Z WARN  index   stale\n' +
          'warning: embedding unavailable; using token-overlap scoring: dial tcp 127.0.0.1:9\n',
      ),
    ).toEqual(['embedding unavailable; using token-overlap scoring: dial tcp 127.0.0.1:9', 'index stale']);
  });

  it('is undefined for a quiet request (no field on its observation)', () => {
    expect(stderrWarnings(undefined)).toBeUndefined();
    expect(stderrWarnings(' \n\n')).toBeUndefined();
  });

  it('caps lines and counts what it left out', () => {
    const many = Array.from({ length: 12 }, (_, i) => `line ${i}`).join('\n');
    const w = stderrWarnings(many, 4)!;
    expect(w).toEqual(['line 0', 'line 1', 'line 2', '(9 more distinct stderr lines)']);
  });

  it('strips colours and a bracketed clock, caps a long line', () => {
    expect(normalizeWarningLine('\u001b[33m[08:15:02] warning: slow\u001b[0m')).toBe('slow');
    expect(normalizeWarningLine('x'.repeat(50), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});
