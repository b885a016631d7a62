import { compareCodeUnits } from '../core/canonical-json.js';

/**
 * Natural order of version strings: digit runs compare as numbers, the rest by code unit, so
 * v2 < v10 and 1.9 < 1.10. Total: equal-by-number runs fall back to the raw strings.
 */
export function compareVersions(a: string, b: string): number {
  const ta = a.match(/\d+|\D+/g) ?? [];
  const tb = b.match(/\d+|\D+/g) ?? [];
  for (let i = 0; i < Math.min(ta.length, tb.length); i++) {
    const x = ta[i]!;
    const y = tb[i]!;
    const nx = /^\d/.test(x);
    const ny = /^\d/.test(y);
    let c: number;
    if (nx && ny) {
      const bx = BigInt(x);
      const by = BigInt(y);
      c = bx < by ? -1 : bx > by ? 1 : 0;
    } else c = compareCodeUnits(x, y);
    if (c !== 0) return c;
  }
  if (ta.length !== tb.length) return ta.length - tb.length;
  return compareCodeUnits(a, b);
}

/** The next version after `v`: its last number plus one (`v1` -> `v2`, `1.4` -> `1.5`), else `v` + `.1`. */
export function nextVersion(v: string): string {
  const m = /^(.*?)(\d+)(\D*)$/.exec(v);
  if (!m) return `${v}.1`;
  return `${m[1]}${BigInt(m[2]!) + 1n}${m[3]}`;
}
