/**
 * Number formatting shared by gate reasons and every renderer, so a number reads the same everywhere.
 * Pure and locale-independent (no toLocaleString: output must not depend on the machine).
 */
import type { MeasureValue, PairedTest } from '../src/documents/index.js';
import { cFixed } from '../src/metrics/index.js';

/** 0.8 -> "80.0%". */
export function pct(x: number, digits = 1): string {
  return `${(x * 100).toFixed(digits)}%`;
}

/**
 * A percentage precise enough not to read as its threshold: 0.7999 against 0.8 is "79.99%", never
 * "80.0%" (a failing rate must not print like a passing one).
 */
export function pctAgainst(x: number, threshold: number): string {
  let d = 1;
  while (d < 6 && x !== threshold && pct(x, d) === pct(threshold, d)) d++;
  return pct(x, d);
}

/**
 * A plain decimal with up to `digits` places, trailing zeros removed: 0.6300 -> "0.63"; rounded as
 * trec_eval's printf rounds (an exact tie to even: 5/32 -> "0.1562", as `rgate score` prints it).
 */
export function num(x: number, digits = 4): string {
  const s = cFixed(x, digits);
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
}

/** Signed: 0.123 -> "+12.3%", -0.05 -> "-5.0%". */
export function signedPct(x: number, digits = 1): string {
  return (x >= 0 ? '+' : '') + pct(x, digits);
}

export function signedNum(x: number, digits = 4): string {
  return (x >= 0 ? '+' : '') + num(x, digits);
}

/**
 * Milliseconds with thousands separators: 2210.4 -> "2,210 ms". Below 10 ms, 3 significant digits
 * (0.226 -> "0.226 ms", 1.5 -> "1.5 ms"): an in-process p95 of a fraction of a millisecond must not
 * print as "0 ms".
 */
export function ms(x: number): string {
  if (x !== 0 && Math.abs(x) < 10) return `${String(Number(x.toPrecision(3)))} ms`;
  return `${groupThousands(Math.round(x))} ms`;
}

function groupThousands(n: number): string {
  const s = String(Math.abs(n));
  return (n < 0 ? '-' : '') + s.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** The headline number of a measure: "41/50 = 82.0%", "0.6312 (n=40)", "p95 812 ms (n=40)". */
export function measureSummary(v: MeasureValue): string {
  switch (v.kind) {
    case 'rate':
      return v.rate === null
        ? `${v.numerator}/${v.denominator} = n/a`
        : `${v.numerator}/${v.denominator} = ${pct(v.rate)}`;
    case 'mean':
      return v.mean === null ? `n/a (n=${v.n})` : `${num(v.mean)} (n=${v.n})`;
    case 'quantiles':
      return v.p95 === null ? `n/a (n=${v.n})` : `p50 ${ms(v.p50 ?? 0)}, p95 ${ms(v.p95)} (n=${v.n})`;
  }
}

/**
 * A p-value as APA style writes it (no leading zero: ".0015", "<.0001", "1"), in every rendering
 * and every reason text, so one test never reads as "0.0015" in one place and ".0015" in another
 * (the compare table fits 80 columns with an exact p far below 0.0001 beside an estimated "~.0005").
 */
export function pValue(p: number | null): string {
  if (p === null) return 'n/a';
  if (p < 0.0001) return '<.0001';
  return p >= 0.99995 ? '1' : p.toFixed(4).slice(1);
}

/** A paired test's raw p: `~` marks a Monte Carlo estimate (the exact ones counted every sign assignment). */
export function testP(t: Pick<PairedTest, 'p_value' | 'p_exact'>): string {
  // an estimate is never below 1/(R+1): "~.0001", never "<.0001"
  if (t.p_exact !== false || t.p_value === null) return pValue(t.p_value);
  return `~${t.p_value < 0.0001 ? t.p_value.toFixed(4).slice(1) : pValue(t.p_value)}`;
}
