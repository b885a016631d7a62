import { SYSTEM_DEFAULTS } from '../core/defaults.js';

// eslint-disable-next-line no-control-regex -- terminal colour codes are exactly what is stripped
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;
/** a leading log timestamp ("2026-11-26T08:15:02Z", "2026/11/26 08:15:02", "[08:15:02.123]") differs on every call */
const TIMESTAMP =
  /^\[?(?:\d{4}[-/]\d{2}[-/]\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?|\d{2}:\d{2}:\d{2}(?:[.,]\d+)?)\]?\s*/;
/** the level word the line starts with: the report says "warned" already */
const LEVEL = /^\[?(?:warning|warn|notice|info)\b\]?\s*[:-]?\s*/i;

/** One stderr line as a warning: colours, a leading timestamp and level word off, spaces collapsed, capped. */
export function normalizeWarningLine(line: string, max: number = SYSTEM_DEFAULTS.warning_chars): string {
  const text = line
    .replace(ANSI, '')
    .trim()
    .replace(TIMESTAMP, '')
    .replace(LEVEL, '')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * What a successful request wrote on stderr, as warnings: each non-empty line normalised
 * (normalizeWarningLine), repeats within the request dropped (first appearance order), at most
 * `maxLines` kept and the rest counted in a last line. Undefined when nothing was written: a quiet
 * request has no warnings field, so observations of quiet systems are unchanged.
 * @example stderrWarnings('warning: embedding unavailable\n') // ['embedding unavailable']
 */
export function stderrWarnings(
  stderr: string | undefined,
  maxLines: number = SYSTEM_DEFAULTS.warning_lines,
): string[] | undefined {
  const lines: string[] = [];
  for (const raw of (stderr ?? '').split(/\r\n?|\n/)) {
    const line = normalizeWarningLine(raw);
    if (line !== '' && !lines.includes(line)) lines.push(line);
  }
  if (lines.length === 0) return undefined;
  if (lines.length <= maxLines) return lines;
  const more = lines.length - (maxLines - 1);
  return [...lines.slice(0, maxLines - 1), `(${more} more distinct stderr lines)`];
}
