import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileProblem, RgateError, type RgateErrorCode } from './errors.js';
import { assertUtf8, bomError, JSON_BOM } from './utf8.js';

export interface JsonlLine {
  /** 1-based line number in the file */
  line: number;
  value: unknown;
}

/**
 * Parse JSONL text: blank lines are skipped, CRLF accepted. A line that is not JSON is an input error
 * naming file and line; so is a BOM (an importer strips one from the foreign files it converts).
 */
export function parseJsonl(text: string, fileLabel: string): JsonlLine[] {
  const out: JsonlLine[] = [];
  if (text.charCodeAt(0) === 0xfeff) throw bomError(fileLabel, JSON_BOM);
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

/** Read a whole JSON file; a syntax error names the file, the line and the column; a BOM is refused. */
export function readJsonFile(path: string): unknown {
  return parseJsonText(readTextFile(path), basename(path));
}

/**
 * Parse a whole JSON document: a BOM is refused by name (JSON.parse would say "Unexpected token"
 * and print it invisibly), a syntax error names `label:line:column` where JSON.parse gives a position.
 * `locate`: the offset of the error when JSON.parse's message has none (a caller with a tolerant
 * parser at hand passes it).
 */
export function parseJsonText(
  text: string,
  label: string,
  o: { code?: RgateErrorCode; hint?: string; locate?: (text: string) => number | undefined } = {},
): unknown {
  const code = o.code ?? 'input_invalid';
  if (text.charCodeAt(0) === 0xfeff) throw bomError(label, JSON_BOM, code);
  try {
    return JSON.parse(text);
  } catch (e) {
    const msg = (e as Error).message;
    const m = /position (\d+)/.exec(msg);
    const offset = m ? Number(m[1]) : /end of JSON input/.test(msg) ? text.length : o.locate?.(text);
    throw new RgateError(
      code,
      `${label}${offset === undefined ? '' : `:${lineColumn(text, offset)}`}: not valid JSON (${msg})`,
      o.hint ?? 'check the file with a JSON linter',
    );
  }
}

/** `line:column` (both 1-based, the column in UTF-16 code units) of an offset into `text`. */
export function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const nl = before.lastIndexOf('\n');
  return `${before.split('\n').length}:${offset - nl}`;
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
