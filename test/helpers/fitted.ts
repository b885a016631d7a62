import { expect } from 'vitest';

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

/**
 * Every line at most `width` columns (colour codes take none); each identifier shown whole somewhere
 * and never broken at a line end.
 */
export function expectFitted(text: string, width: number, ids: readonly string[]): void {
  const lines = text.replace(ANSI, '').split('\n');
  for (const l of lines) expect([...l].length, `${width}: "${l}"`).toBeLessThanOrEqual(width);
  const plain = lines.join('\n');
  const splits: string[] = [];
  for (const id of new Set(ids)) {
    expect(plain, `${width}: ${id} whole`).toContain(id);
    lines.forEach((l, i) => {
      const next = (lines[i + 1] ?? '').trimStart();
      for (let k = 1; k < id.length; k++) {
        if (l.endsWith(id.slice(0, k)) && next.startsWith(id.slice(k)))
          splits.push(`${width}: ${id} split after "${id.slice(0, k)}"`);
      }
    });
  }
  expect(splits).toEqual([]);
}
