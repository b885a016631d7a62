/**
 * Unicode-aware word tokenizer, a compact approximation of UAX #29 word boundaries (what Lucene's
 * StandardTokenizer implements):
 * - a token is a run of letters, digits, combining marks and connector punctuation (`\p{L}\p{N}\p{M}\p{Pc}`);
 * - a run continues across one `'` `’` `.` `:` between two letters (`o'neil`, `i.b.m`) and across one
 *   `,` `.` `'` `;` between two digits (`3.14`, `1,000`), as UAX #29 rules WB6/7 and WB11/12 do;
 * - Han ideographs and Hiragana are emitted one character per token (no dictionary segmentation),
 *   as StandardTokenizer does;
 * - tokens longer than 255 UTF-16 code units are dropped (StandardTokenizer's default max length).
 * It does not lowercase or stem: see analyzer.ts.
 */
const WORD = /[\p{L}\p{N}\p{M}\p{Pc}]/u;
const LETTER = /[\p{L}\p{M}]/u;
const DIGIT = /\p{N}/u;
const SINGLE = /[\p{Script=Han}\p{Script=Hiragana}]/u;
const MID_LETTER = new Set(["'", '\u2019', '.', ':', '\u00b7']);
const MID_NUM = new Set([',', '.', "'", ';', '\u2019']);
export const MAX_TOKEN_LENGTH = 255;

/** Is this UTF-16 code unit plain ASCII alphanumeric? (fast path: avoids a regex per character) */
function asciiWord(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

/** Tokens as strings (see scanTokens for the boundary rules). */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  scanTokens(text, (start, end) => {
    out.push(text.slice(start, end));
  });
  return out;
}

/**
 * Call `onToken(start, end)` for every token span of `text` (UTF-16 offsets, end exclusive), in order.
 * The indexer uses spans so that known words never become new strings.
 */
export function scanTokens(text: string, onToken: (start: number, end: number) => void): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    // classify the code point at i
    if (c < 128) {
      if (!asciiWord(c)) {
        i++;
        continue;
      }
    } else {
      const cp = text.codePointAt(i) as number;
      const ch = String.fromCodePoint(cp);
      if (!WORD.test(ch)) {
        i += ch.length;
        continue;
      }
      if (SINGLE.test(ch)) {
        onToken(i, i + ch.length);
        i += ch.length;
        continue;
      }
    }
    // start of a run
    const start = i;
    let prevAscii = true; // last character of the run is ASCII (its code is prevCode)
    let prevCode = 0;
    let prev = '';
    while (i < n) {
      const d = text.charCodeAt(i);
      if (d < 128 && asciiWord(d)) {
        prevAscii = true;
        prevCode = d;
        i++;
        continue;
      }
      if (d >= 128) {
        const cp = text.codePointAt(i) as number;
        const ch = String.fromCodePoint(cp);
        if (WORD.test(ch) && !SINGLE.test(ch)) {
          prevAscii = false;
          prev = ch;
          i += ch.length;
          continue;
        }
      }
      // a mid character joins two letters or two digits
      if (i + 1 < n && i > start && (MID_LETTER.has(text[i] as string) || MID_NUM.has(text[i] as string))) {
        const mid = text[i] as string;
        const nextCp = text.codePointAt(i + 1) as number;
        const next = String.fromCodePoint(nextCp);
        const prevCh = prevAscii ? String.fromCharCode(prevCode) : prev;
        const joinLetters =
          MID_LETTER.has(mid) && LETTER.test(prevCh) && LETTER.test(next) && !SINGLE.test(next);
        const joinDigits = MID_NUM.has(mid) && DIGIT.test(prevCh) && DIGIT.test(next);
        if (joinLetters || joinDigits) {
          i++;
          continue;
        }
      }
      break;
    }
    if (i - start <= MAX_TOKEN_LENGTH) onToken(start, i);
  }
}
