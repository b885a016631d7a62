/**
 * Reading the figures a doc quotes, for the tests that run the doc's commands and hold each figure
 * to what the run printed (test/docs-figures-*.test.ts). The doc is read, never copied into a test.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './dist.js';

export const oneSpace = (t: string): string => t.replace(/\s+/g, ' ').trim();

export function readDoc(doc: string): string {
  return readFileSync(join(REPO, doc), 'utf8');
}

/**
 * The `<!-- figures:<name> -->` region of a doc: every figure in it is a code span quoting the run
 * (a code span starting `rgate ` or `npm run ` is the command that run is), so `spans` are what the
 * run must print and `bare` the figures written outside a code span, which no run can vouch for.
 */
export function figuresRegion(doc: string, name: string): { spans: string[]; bare: string[] } {
  const m = new RegExp(`<!-- figures:${name} -->\\n([\\s\\S]*?)<!-- /figures:${name} -->`).exec(readDoc(doc));
  if (!m) throw new Error(`${doc} has no figures:${name} region`);
  const spans = [...m[1]!.matchAll(/`([^`]+)`/g)].map((s) => oneSpace(s[1]!));
  // a figure: digits not part of a word (BM25, v2, ndcg_cut.5, top-1 are names, not figures)
  const prose = m[1]!.replace(/`[^`]+`/g, ' ').replace(/\]\([^)]*\)/g, ']');
  const bare = [...prose.matchAll(/(?<![\w.]|\w-)\d[\d.,/]*%?(?![\w])/g)].map((f) => f[0]);
  return { spans, bare };
}

/** The groups of the one sentence of `doc` matching `re` (whitespace runs in the doc count as one space). */
export function sentence(doc: string, re: RegExp): string[] {
  const m = re.exec(oneSpace(readDoc(doc)));
  if (!m) throw new Error(`${doc}: no sentence matches ${re}`);
  return m.slice(1);
}

/** Checks a region against a run: the figures it quotes, printed; the command it names, the one run. */
export function regionMisses(doc: string, name: string, command: string, printed: string): string[] {
  const { spans, bare } = figuresRegion(doc, name);
  const text = oneSpace(printed);
  const misses = bare.map((f) => `${f}: a figure outside a code span`);
  for (const s of spans) {
    if (/^(rgate|npm run) /.test(s)) {
      if (s !== command) misses.push(`${s}: not the command run (${command})`);
    } else if (!text.includes(s)) misses.push(`${s}: not printed by ${command}`);
  }
  if (spans.length < 2) misses.push(`figures:${name} quotes fewer than two figures`);
  return misses;
}
