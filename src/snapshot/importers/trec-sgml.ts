import type { CorpusLine, RecordKind } from '../../documents/index.js';
import { RgateError } from '../../core/errors.js';
import { sha256 } from '../../core/hash.js';
import type { RawDocument } from './documents.js';
import { decodeEntities } from './html-text.js';

/** Whether a file is a TREC collection file (`<DOC>` blocks) rather than one document. */
export function isTrecSgml(text: string): boolean {
  return /^\s*<DOC>/i.test(text);
}

const lineAt = (text: string, index: number): number => text.slice(0, index).split('\n').length;
const strip = (s: string): string =>
  decodeEntities(s.replace(/<!--[\s\S]*?-->/g, ' ').replace(/<\/?[A-Za-z][^>]*>/g, ' '))
    .replace(/[ \t]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();

/** The content of every `<tag>` element of a block, in order (TREC files repeat `<TEXT>` in some collections). */
function elements(body: string, tags: readonly string[]): string[] {
  const out: string[] = [];
  for (const tag of tags)
    for (const m of body.matchAll(new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}\\s*>`, 'gi')))
      out.push(m[1]!);
  return out;
}

/**
 * The records of one TREC collection file: one per `<DOC>` block, id = its `<DOCNO>` as written
 * (trimmed), title = its `<TITLE>`, `<HEADLINE>` or `<HEAD>` (tags stripped), text = its `<TEXT>`
 * elements joined, else the whole block without the DOCNO; tags stripped, entities decoded. A block
 * without a DOCNO, or a DOCNO seen twice, is an error naming the file and line.
 * Example: trecSgmlRecords({rel: 'fr940104.0', bytes, mtime}, 'canonical') -> [{id: 'FR940104-0-00001', ...}]
 */
export function trecSgmlRecords(d: RawDocument, kind: RecordKind): CorpusLine[] {
  const text = d.bytes.toString('utf8').replace(/^\uFEFF/, '');
  const out: CorpusLine[] = [];
  const seen = new Map<string, number>();
  for (const m of text.matchAll(/<DOC>([\s\S]*?)<\/DOC>/gi)) {
    const line = lineAt(text, m.index);
    const body = m[1]!;
    const no = /<DOCNO>([\s\S]*?)<\/DOCNO>/i.exec(body);
    const id = no ? no[1]!.trim() : '';
    if (!id) throw new RgateError('input_invalid', `${d.rel}:${line}: <DOC> without a <DOCNO>`);
    if (/\s/.test(id))
      throw new RgateError('input_invalid', `${d.rel}:${line}: <DOCNO> "${id}" is not one word`);
    const prev = seen.get(id);
    if (prev !== undefined)
      throw new RgateError('input_invalid', `${d.rel}:${line}: DOCNO ${id} repeats the one on line ${prev}`);
    seen.set(id, line);
    const rest = body.slice(0, no!.index) + body.slice(no!.index + no![0].length);
    const title = elements(rest, ['TITLE', 'HEADLINE', 'HEAD'])
      .map(strip)
      .find((t) => t !== '');
    const texts = elements(rest, ['TEXT']);
    out.push({
      id,
      source_path: d.rel,
      ...(title ? { title: title.replace(/\s+/g, ' ') } : {}),
      text: strip(texts.length > 0 ? texts.join('\n') : rest),
      kind,
      captured_at: d.mtime,
      // the file's: a replay proves what it saw by the file the block came from
      source: { sha256: sha256(d.bytes), size: d.bytes.length, mtime: d.mtime },
    });
  }
  if (out.length === 0)
    throw new RgateError('input_invalid', `${d.rel}: starts with <DOC> but holds no <DOC>...</DOC> block`);
  return out;
}
