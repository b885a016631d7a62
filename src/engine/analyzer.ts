import { stemmer } from 'stemmer';
import type { AnalyzerConfig } from '../documents/index.js';
import { LUCENE_ENGLISH_STOPWORDS } from './stopwords.js';
import { tokenize } from './tokenize.js';

/**
 * Text -> index terms. The pipeline mirrors Anserini's default English analyzer (StandardTokenizer,
 * EnglishPossessiveFilter, LowerCaseFilter, StopFilter, PorterStemFilter); every stage after
 * tokenizing is switchable through `config.analyzer`:
 * - lowercase: locale-independent `toLowerCase()`;
 * - stopwords: Lucene's 33-word English set (compared after lowercasing when lowercase is on);
 * - stemmer 'porter': the `stemmer` package (Porter 1980). The English possessive `'s` is stripped
 *   whenever stopwords or stemming are on (i.e. when the analyzer is "English").
 * Stems are memoised per analyzer, because the Porter implementation is regex-heavy.
 */
export interface Analyzer {
  readonly config: AnalyzerConfig;
  analyze(text: string): string[];
  /** one raw token through the filters: the term, or null when it is a stopword / empty */
  analyzeToken(token: string): string | null;
}

const POSSESSIVE = /['\u2019][sS]$/;

export function createAnalyzer(config: AnalyzerConfig): Analyzer {
  const english = config.stopwords || config.stemmer === 'porter';
  const stemCache = new Map<string, string>();
  const stem = (t: string): string => {
    let s = stemCache.get(t);
    if (s === undefined) {
      // the package lowercases internally; keep the case when lowercase is off
      s = config.lowercase ? stemmer(t) : t.toLowerCase() === t ? stemmer(t) : t;
      if (stemCache.size < 1_000_000) stemCache.set(t, s);
    }
    return s;
  };
  const analyzeToken = (raw: string): string | null => {
    let tok = raw;
    if (english && tok.length > 2 && POSSESSIVE.test(tok)) tok = tok.slice(0, -2);
    if (config.lowercase) tok = tok.toLowerCase();
    if (config.stopwords && LUCENE_ENGLISH_STOPWORDS.has(tok)) return null;
    if (config.stemmer === 'porter') tok = stem(tok);
    return tok.length > 0 ? tok : null;
  };
  return {
    config: { ...config },
    analyzeToken,
    analyze(text: string): string[] {
      const out: string[] = [];
      for (const tok of tokenize(text)) {
        const t = analyzeToken(tok);
        if (t !== null) out.push(t);
      }
      return out;
    },
  };
}
