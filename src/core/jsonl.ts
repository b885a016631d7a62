import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileProblem, RgateError } from './errors.js';
import { assertUtf8 } from './utf8.js';

export interface JsonlLine {
  /** 1-based line number in the file */
  line: number;
  value: unknown;
}

/**
 * Parse JSONL text: blank lines are skipped, CRLF accepted, a BOM ignored. A line that is not JSON
 * is an input error naming file and line.
 */
export function parseJsonl(text: string, fileLabel: string): JsonlLine[] {
  const out: JsonlLine[] = [];
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let start = 0;
  let lineNo = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    lineNo++;
    const raw = text.slice(start, end).trim();
    if (raw.length > 0) {
      try {
        out.push({ line: lineNo, value: JSON.parse(raw) });
      } catch (e) {
        throw new RgateError(
          'input_invalid',
          `${fileLabel}:${lineNo}: not valid JSON (${(e as Error).message})`,
          'each line of a .jsonl file must be one complete JSON object',
        );
      }
    }
    start = end + 1;
  }
  return out;
}

/** Read a whole JSON file; a syntax error names the file and the line. */
export function readJsonFile(path: string): unknown {
  const text = readTextFile(path);
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (e) {
    const msg = (e as Error).message;
    const m = /position (\d+)/.exec(msg);
    const line = m ? text.slice(0, Number(m[1])).split('\n').length : undefined;
    throw new RgateError(
      'input_invalid',
      `${basename(path)}${line ? `:${line}` : ''}: not valid JSON (${msg})`,
      'check the file with a JSON linter',
    );
  }
}

/**
 * A whole UTF-8 text file. Invalid UTF-8 is refused with its line and byte offset: decoding would
 * turn each bad byte into U+FFFD, and two different files would then read (and hash) the same.
 */
export function readTextFile(path: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw fileProblem(path, e);
  }
  assertUtf8(bytes, path);
  return bytes.toString('utf8');
}
