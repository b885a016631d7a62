import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { compareCodeUnits } from '../../core/canonical-json.js';
import { RgateError } from '../../core/errors.js';
import { isTarGz } from './documents.js';

/** The files of a TREC collection folder: topics, qrels and the documents (a folder or a .tar.gz). */
export interface TrecFiles {
  topics: string;
  qrels: string[];
  docs?: string;
}

/** The files of a SMART collection folder: the tagged documents, the tagged queries and the qrels. */
export interface SmartFiles {
  docs?: string;
  queries: string;
  qrels?: string;
}

/** Names that describe a file rather than hold data (`cranqrel.readme`, `SOURCE.md`). */
const NOT_DATA = /(readme|license|licence|\.md$|\.pdf$|\.json$|\.jsonl$)/i;
/** Folders that hold documents in a TREC collection folder (`runs/` and the like are not documents). */
const DOC_FOLDERS = ['docs', 'documents', 'corpus', 'collection'];

interface Entry {
  name: string;
  path: string;
  dir: boolean;
}

function entries(dir: string, kind: string): Entry[] {
  let names: string[];
  try {
    if (!statSync(dir).isDirectory())
      throw new RgateError(
        'usage',
        `--from ${kind} ${dir}: not a folder`,
        `give the folder holding the collection's files, or name them with --${kind === 'trec' ? 'topics' : 'queries'}, --qrels and --docs`,
      );
    names = readdirSync(dir);
  } catch (e) {
    if (e instanceof RgateError) throw e;
    throw new RgateError('file_not_found', `--from ${kind} ${dir}: no such folder`);
  }
  return names
    .filter((n) => !n.startsWith('.'))
    .sort(compareCodeUnits)
    .map((name) => {
      const path = join(dir, name);
      return { name, path, dir: statSync(path).isDirectory() };
    });
}

/**
 * Choosing a collection's parts in `dir` for `--from kind`: `one` takes the single candidate found
 * (none is undefined; two or more is a question only the user can answer), `missing` is the error for
 * a part with no candidate.
 */
function picker(kind: 'trec' | 'smart', dir: string) {
  return {
    one(found: Entry[], what: string, flag: string): string | undefined {
      if (found.length > 1)
        throw new RgateError(
          'usage',
          `--from ${kind} ${dir}: ${found.length} files could be the ${what} (${found.map((f) => f.name).join(', ')})`,
          `name the one to use with --${flag}`,
        );
      return found[0]?.path;
    },
    missing(what: string, flag: string, looked: string): RgateError {
      return new RgateError(
        'usage',
        `--from ${kind} ${dir}: no ${what} found (looked for ${looked})`,
        `name it with --${flag} <file>`,
      );
    },
  };
}

/**
 * Find a TREC collection's parts in one folder, by the names collections ship them under: topics
 * (`*topic*`), qrels (`*qrel*`, every one), documents (the one `.tar.gz`/`.tgz`, else a `docs/`,
 * `documents/`, `corpus/` or `collection/` folder, else one file of `<DOC>` blocks: `*.sgml`,
 * `*.trec`, `docs.*`, `collection.*`). `given` names parts the user chose; they win.
 * Example: locateTrecFiles('data/cacm', {}) -> { topics: 'data/cacm/topics.cacm.txt', qrels: [...], docs: 'data/cacm/cacm.tar.gz' }
 */
export function locateTrecFiles(dir: string, given: Partial<TrecFiles> = {}): TrecFiles {
  const all = entries(dir, 'trec');
  const pick = picker('trec', dir);
  const files = all.filter((e) => !e.dir && !NOT_DATA.test(e.name));
  const topics =
    given.topics ??
    pick.one(
      files.filter((e) => /topic/i.test(e.name)),
      'topics',
      'topics',
    );
  if (!topics) throw pick.missing('topics file', 'topics', 'a file named *topic*');
  const qrels =
    given.qrels && given.qrels.length > 0
      ? given.qrels
      : files.filter((e) => /qrel/i.test(e.name)).map((e) => e.path);
  if (qrels.length === 0) throw pick.missing('qrels file', 'qrels', 'a file named *qrel*');
  const docs =
    given.docs ??
    pick.one(
      all.filter((e) => !e.dir && isTarGz(e.name)),
      'documents',
      'docs',
    ) ??
    pick.one(
      all.filter((e) => e.dir && DOC_FOLDERS.includes(e.name.toLowerCase())),
      'documents',
      'docs',
    ) ??
    pick.one(
      files.filter(
        (e) =>
          !/(topic|qrel)/i.test(e.name) &&
          (/\.(sgml?|trec)$/i.test(e.name) ||
            DOC_FOLDERS.some((f) => e.name.toLowerCase().startsWith(`${f}.`))),
      ),
      'documents',
      'docs',
    );
  if (!docs)
    throw pick.missing(
      'documents',
      'docs',
      `a .tar.gz, a folder named ${DOC_FOLDERS.join(', ')}, or a file of <DOC> blocks (*.sgml, *.trec, docs.*)`,
    );
  return { topics, qrels, docs };
}

/**
 * Find a SMART collection's parts in one folder, by the names the classic collections use:
 * documents `*.all*` (cran.all.1400, cacm.all, CISI.ALL, MED.ALL), queries `*.qry` or `query*`
 * (cran.qry, query.text, CISI.QRY), qrels `*qrel*` or `*.rel` (cranqrel, qrels.text, CISI.REL).
 * Example: locateSmartFiles('data/cranfield', {}) -> { docs: '.../cran.all.1400', queries: '.../cran.qry', qrels: '.../cranqrel' }
 */
export function locateSmartFiles(dir: string, given: Partial<SmartFiles> = {}): SmartFiles {
  const pick = picker('smart', dir);
  const files = entries(dir, 'smart').filter((e) => !e.dir && !NOT_DATA.test(e.name) && !isTarGz(e.name));
  const docs =
    given.docs ??
    pick.one(
      files.filter((e) => /\.all(\.|$)/i.test(e.name)),
      'documents',
      'docs',
    );
  if (!docs) throw pick.missing('documents', 'docs', 'a file named *.all*');
  const queries =
    given.queries ??
    pick.one(
      files.filter((e) => /(\.qry$|^quer)/i.test(e.name)),
      'queries',
      'queries',
    );
  if (!queries) throw pick.missing('query file', 'queries', 'a file named *.qry or query*');
  const qrels =
    given.qrels ??
    pick.one(
      files.filter((e) => /(qrel|\.rel$)/i.test(e.name)),
      'qrels',
      'qrels',
    );
  if (!qrels) throw pick.missing('qrels file', 'qrels', 'a file named *qrel* or *.rel');
  return { docs, queries, qrels };
}
