import { describe, expect, it } from 'vitest';
import { measureSummary, ms, num, pct, pctAgainst, signedPct } from './format.js';

describe('format', () => {
  it('a measure reads in a report as rgate score and trec_eval print it: an exact tie rounds to even', () => {
    // 5/32 = 0.15625 exactly: printf("%.4f") gives 0.1562, toFixed 0.1563 (an audit's P.1 on 32 queries)
    expect(num(5 / 32)).toBe('0.1562');
    expect(num(7 / 32)).toBe('0.2188'); // 0.21875: the even neighbour is up
    expect(num(0.15625000000000003)).toBe('0.1563'); // not a tie
    expect(num(-5 / 32)).toBe('-0.1562');
    expect(num(0.5, 0)).toBe('0');
  });

  it('a rate just under its threshold never prints as the threshold', () => {
    expect(pctAgainst(0.7999, 0.8)).toBe('79.99%');
    expect(pctAgainst(0.79999999, 0.8)).toBe('79.999999%');
    expect(pctAgainst(0.8, 0.8)).toBe('80.0%');
    expect(pctAgainst(0.82, 0.8)).toBe('82.0%');
  });
  it('numbers, milliseconds and signed percentages are locale-independent', () => {
    expect(pct(0.8)).toBe('80.0%');
    expect(num(0.63)).toBe('0.63');
    expect(num(2)).toBe('2');
    expect(ms(2210.4)).toBe('2,210 ms');
    expect(ms(1234567)).toBe('1,234,567 ms');
    // below 10 ms, 3 significant digits: a sub-millisecond p95 is not "0 ms"
    expect(ms(0.226)).toBe('0.226 ms');
    expect(ms(0.00012345)).toBe('0.000123 ms');
    expect(ms(1.5)).toBe('1.5 ms');
    expect(ms(9.994)).toBe('9.99 ms');
    expect(ms(9.996)).toBe('10 ms');
    expect(ms(0)).toBe('0 ms');
    expect(ms(12.4)).toBe('12 ms');
    expect(signedPct(0.123)).toBe('+12.3%');
    expect(signedPct(-0.05)).toBe('-5.0%');
  });
  it('summaries show what was counted', () => {
    expect(
      measureSummary({ kind: 'rate', numerator: 41, denominator: 50, rate: 0.82, wilson95: [0.69, 0.9] }),
    ).toBe('41/50 = 82.0%');
    expect(measureSummary({ kind: 'rate', numerator: 0, denominator: 0, rate: null, wilson95: null })).toBe(
      '0/0 = n/a',
    );
    expect(measureSummary({ kind: 'quantiles', n: 40, p50: 100, p95: 812, p99: 900 })).toBe(
      'p50 100 ms, p95 812 ms (n=40)',
    );
  });
});
