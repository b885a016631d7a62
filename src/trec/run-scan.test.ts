import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createPrng } from '../core/prng.js';
import { RUN_SCAN_WASM } from './run-scan-wasm.js';
import { useRunScanner } from './run-scan.js';
import { parseRun, readRunFile } from './run-read.js';
import { runDocno, type TrecRun } from './run.js';

/**
 * The WebAssembly scanner must read every run exactly as RunBuilder.feed does: the same entries,
 * line numbers, scores to the bit, run id, query order, and the same error for a bad line. Seeded
 * runs with everything feed() handles (comments, blank lines, CR, tabs, extra fields, signed and
 * exponent scores, more than 15 digits, a missing last newline) are read both ways.
 */
const dir = mkdtempSync(join(tmpdir(), 'rgate-run-scan-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => useRunScanner(true));

function randomRun(
  seed: number,
  opts: { bad?: 'fields' | 'score' | 'duplicate'; badScore?: string; shuffled: boolean },
): string {
  const rng = createPrng(seed);
  const nq = 300 + rng.int(600);
  const lines: string[] = [];
  const scoreText = (): string => {
    switch (rng.int(12)) {
      case 0:
        return `-${(rng.next() * 100).toFixed(3)}`;
      case 1:
        return `${rng.int(9)}.${rng.int(1000)}e-${rng.int(4)}`;
      case 2:
        return (rng.next() * 10).toPrecision(17);
      case 3:
        return `${rng.int(50)}.`;
      case 4:
        return `.${rng.int(99)}`;
      case 5:
        return `+${rng.int(7)}`;
      case 6:
        // edges a finite decimal number may take: an E exponent with a sign, a dot before it, underflow
        return [`${rng.int(9)}.E+${rng.int(3)}`, `-.${rng.int(99)}e${rng.int(3)}`, '1e-400', '-0'][
          rng.int(4)
        ]!;
      default:
        return (rng.next() * 30).toFixed(rng.int(6));
    }
  };
  const blank = (): string => [' ', '\t', '  ', ' \t '][rng.int(4)]!;
  for (let q = 0; q < nq; q++) {
    const depth = 1 + rng.int(60);
    for (let d = 0; d < depth; d++) {
      let line = [
        `q${q}`,
        'Q0',
        `doc-${rng.int(5000)}-${q}-${d}`,
        String(d + 1),
        scoreText(),
        `run${rng.int(3)}`,
      ]
        .map((f, i) => (i === 0 ? f : blank() + f))
        .join('');
      if (rng.int(20) === 0) line += ' extra fields';
      if (rng.int(15) === 0) line += '\r';
      if (rng.int(25) === 0) line = blank() + line;
      lines.push(line);
      if (rng.int(40) === 0) lines.push(rng.int(2) ? '# a comment' : '');
    }
  }
  if (opts.shuffled) {
    for (let i = lines.length - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      [lines[i], lines[j]] = [lines[j]!, lines[i]!];
    }
  }
  const at = Math.floor(lines.length * rng.next());
  if (opts.bad === 'fields') lines[at] = 'q1 Q0 lonely 1';
  if (opts.bad === 'score') lines[at] = `q1 Q0 lonely 1 ${opts.badScore ?? '1.2.3'} r`;
  if (opts.bad === 'duplicate')
    lines.splice(at, 0, lines[Math.max(0, at - 1)]!.replace(/^\s*#.*$|^$/, 'q9 Q0 x 1 1 r'));
  return lines.join('\n') + (rng.int(2) ? '\n' : '');
}

function summary(run: TrecRun): unknown {
  return {
    runId: run.runId,
    lines: run.lines,
    qids: run.qids,
    queries: run.qids.map((q) => {
      const rq = run.byQid.get(q)!;
      const entries: [string, number, number, number][] = [];
      for (let e = rq.start; e < rq.end; e++) {
        entries.push([runDocno(run, e), run.scores[e]!, run.lineOf[e]!, run.hashes[e]!]);
      }
      return entries;
    }),
  };
}

function readBothWays(text: string): [unknown, unknown] {
  const file = join(dir, 'run.txt');
  writeFileSync(file, text);
  const read = (scanner: boolean): unknown => {
    useRunScanner(scanner);
    try {
      return summary(readRunFile(file));
    } catch (e) {
      return `error: ${(e as Error).message}`;
    }
  };
  return [read(true), read(false)];
}

describe('the WebAssembly run scanner', () => {
  it('is the assembled run-scan.wat (node scripts/build-wasm.mjs after editing it)', async () => {
    // @ts-expect-error a build script, plain JavaScript
    const { assembleRunScan } = await import('../../scripts/build-wasm.mjs');
    const bytes = (await assembleRunScan()) as Buffer;
    expect(bytes.toString('base64')).toBe(RUN_SCAN_WASM);
  });

  it('reads seeded runs exactly as feed() does, grouped or shuffled', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const text = randomRun(seed, { shuffled: seed % 2 === 0 });
      expect(text.length).toBeGreaterThan(1 << 16);
      const [fast, reference] = readBothWays(text);
      expect(typeof fast).toBe('object');
      expect(fast).toEqual(reference);
    }
  });

  it('reads a run of several 8 MiB chunks the same (queries and the arena carried across chunks)', () => {
    const parts: string[] = [];
    let size = 0;
    for (let seed = 40; size < 9 << 20; seed++) {
      // own queries per part, so that no document repeats in a query
      const part = randomRun(seed, { shuffled: true }).replace(/^([ \t]*)q/gm, `$1s${seed}q`);
      parts.push(part.endsWith('\n') ? part : part + '\n');
      size += part.length;
    }
    const [fast, reference] = readBothWays(parts.join(''));
    expect(typeof fast).toBe('object');
    expect(fast).toEqual(reference);
  });

  it('reads a run with more queries than its first qid table holds the same', () => {
    const rng = createPrng(7);
    let text = '';
    for (let i = 0; i < 30_000; i++) text += `${rng.int(9000)} Q0 d${i} 1 ${rng.int(100)} r\n`;
    const [fast, reference] = readBothWays(text);
    expect((fast as { qids: string[] }).qids.length).toBeGreaterThan(4096);
    expect(fast).toEqual(reference);
  });

  it('gives the same error for a short line, a bad score and a duplicate', () => {
    for (const bad of ['fields', 'score', 'duplicate'] as const) {
      for (let seed = 20; seed < 23; seed++) {
        const text = randomRun(seed, { bad, shuffled: seed % 2 === 0 });
        expect(text.length).toBeGreaterThan(1 << 16);
        const [fast, reference] = readBothWays(text);
        expect(fast).toMatch(/^error: \S*\/run\.txt:\d+: /);
        expect(fast).toEqual(reference);
      }
    }
  });

  it('refuses every score that is not a finite decimal number the same way (trec_eval atof reads them)', () => {
    const bad = ['nan', 'NaN', 'inf', '-Infinity', '1e400', '-1e309', '12.5abc', '0x10', '1e', '+'];
    bad.forEach((badScore, k) => {
      const text = randomRun(30 + k, { bad: 'score', badScore, shuffled: k % 2 === 0 });
      expect(text.length).toBeGreaterThan(1 << 16);
      const [fast, reference] = readBothWays(text);
      expect(fast).toMatch(/^error: \S*\/run\.txt:\d+: score "/);
      expect(fast).toContain(`: score "${badScore}" is `);
      expect(fast).toEqual(reference);
    });
  });

  it('parses in memory the same (parseRun: one chunk)', () => {
    const text = randomRun(99, { shuffled: true });
    useRunScanner(true);
    const fast = summary(parseRun(Buffer.from(text), 'mem'));
    useRunScanner(false);
    expect(fast).toEqual(summary(parseRun(Buffer.from(text), 'mem')));
  });
});
