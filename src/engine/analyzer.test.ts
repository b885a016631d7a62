import { describe, expect, it } from 'vitest';
import { createAnalyzer } from './analyzer.js';
import { tokenize } from './tokenize.js';

describe('tokenize (UAX #29 approximation)', () => {
  it('splits on punctuation and whitespace, keeps letters and digits', () => {
    expect(tokenize('Time-Sharing System (TSS), IBM 360/67!')).toEqual([
      'Time',
      'Sharing',
      'System',
      'TSS',
      'IBM',
      '360',
      '67',
    ]);
  });
  it('joins letters across apostrophes and dots, digits across , and .', () => {
    expect(tokenize("O'Neil's I.B.M. costs 1,000.50 dollars")).toEqual([
      "O'Neil's",
      'I.B.M',
      'costs',
      '1,000.50',
      'dollars',
    ]);
  });
  it('does not join a trailing dot or a letter-digit dot', () => {
    expect(tokenize('end. x.1 a..b')).toEqual(['end', 'x', '1', 'a', 'b']);
  });
  it('handles non-Latin scripts: accents, Cyrillic, Han one character per token', () => {
    expect(tokenize('Café naïve Москва 東京大学')).toEqual([
      'Café',
      'naïve',
      'Москва',
      '東',
      '京',
      '大',
      '学',
    ]);
  });
  it('keeps astral-plane letters whole', () => {
    expect(tokenize('𝐀𝐁 x')).toEqual(['𝐀𝐁', 'x']);
  });
  it('drops tokens longer than 255 code units', () => {
    expect(tokenize('a'.repeat(256) + ' ok')).toEqual(['ok']);
  });
});

describe('analyzer', () => {
  it('English pipeline: possessive, lowercase, Lucene stopwords, Porter', () => {
    const a = createAnalyzer({ lowercase: true, stopwords: true, stemmer: 'porter' });
    expect(a.analyze("The System's algorithms are running in parallel")).toEqual([
      'system',
      'algorithm',
      'run',
      'parallel',
    ]);
  });
  it('every stage can be switched off', () => {
    const raw = createAnalyzer({ lowercase: false, stopwords: false, stemmer: 'none' });
    expect(raw.analyze('The Running')).toEqual(['The', 'Running']);
    const lower = createAnalyzer({ lowercase: true, stopwords: false, stemmer: 'none' });
    expect(lower.analyze('The Running')).toEqual(['the', 'running']);
    const stop = createAnalyzer({ lowercase: true, stopwords: true, stemmer: 'none' });
    expect(stop.analyze('The Running')).toEqual(['running']);
  });
  it('uses the Lucene stop set, not a larger one', () => {
    const a = createAnalyzer({ lowercase: true, stopwords: true, stemmer: 'none' });
    // "what", "which", "about" are not in Lucene's 33-word set
    expect(a.analyze('what which about the')).toEqual(['what', 'which', 'about']);
  });
});
