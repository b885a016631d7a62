/**
 * A large run's report packed as columns (src/documents/packed-report.ts) and unpacked again. Pure and
 * exact: unpackReport(packReport(r)) holds the same values as r (the JSON renderer sorts keys, so the
 * same bytes). A report whose lists this cannot state exactly (a failing query that differs from its
 * entry in `queries`) is not packed.
 */
import { RgateError } from './errors.js';
import {
  PACKED_REPORT_SCHEMA_VERSION,
  REPORT_SCHEMA_VERSION,
  type PackedColumn,
  type PackedReport,
  type QueryOutcome,
  type QueryTable,
  type Report,
} from '../documents/index.js';

type Json = unknown;
type Obj = Record<string, Json>;

const SHA256_HEX = /^sha256:[0-9a-f]{64}$/;
const BASE64URL_32 = /^[A-Za-z0-9_-]{43}$/;

const isObject = (v: Json): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const escapeKey = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');
const unescapeKey = (k: string) => k.replace(/~1/g, '/').replace(/~0/g, '~');

/** Values by path of one object's leaves, and the paths of its objects, in key order. */
function walk(o: Obj, prefix: string, leaf: (path: string, v: Json) => void, obj: (path: string) => void) {
  for (const k of Object.keys(o)) {
    const v = o[k];
    if (v === undefined) continue;
    const path = prefix + escapeKey(k);
    if (isObject(v)) {
      obj(path);
      walk(v, `${path}/`, leaf, obj);
    } else leaf(path, v);
  }
}

/** A column as its values, or as a string list and codes when that is shorter (ties: the values). */
function column(values: Json[]): PackedColumn {
  const strings: string[] = [];
  const at = new Map<string, number>();
  const code = (s: string) => {
    let i = at.get(s);
    if (i === undefined) {
      i = strings.length;
      at.set(s, i);
      strings.push(s);
    }
    return i;
  };
  const codes: (number | number[] | null)[] = [];
  for (const v of values) {
    if (v === null) codes.push(null);
    else if (typeof v === 'string') codes.push(code(v));
    else if (Array.isArray(v) && v.every((x) => typeof x === 'string')) codes.push(v.map(code));
    else return values;
  }
  const coded = { strings, codes };
  return JSON.stringify(coded).length < JSON.stringify(values).length ? coded : values;
}

function columnValues(c: PackedColumn, count: number, where: string): Json[] {
  const values = Array.isArray(c)
    ? c
    : c.codes.map((x) => {
        if (x === null) return null;
        const s = (i: number) => {
          const v = c.strings[i];
          if (v === undefined) throw damaged(`${where}: code ${i} is past its ${c.strings.length} strings`);
          return v;
        };
        return Array.isArray(x) ? x.map(s) : s(x);
      });
  if (values.length !== count) throw damaged(`${where}: ${values.length} values for ${count} queries`);
  return values;
}

function damaged(what: string): RgateError {
  return new RgateError(
    'input_invalid',
    `packed report: ${what}`,
    'the file is not a report rgate wrote (or was edited by hand): run the suite again',
  );
}

/** The query list as a table: a column per leaf path, and where each optional object is. */
function queryColumns(queries: readonly QueryOutcome[]): Pick<QueryTable, 'columns' | 'objects'> {
  const leaves = new Map<string, Json[]>();
  const objects = new Map<string, (1 | null)[]>();
  queries.forEach((q, i) => {
    walk(
      q as unknown as Obj,
      '',
      (path, v) => {
        let col = leaves.get(path);
        if (!col) leaves.set(path, (col = new Array<Json>(queries.length).fill(null)));
        col[i] = v;
      },
      (path) => {
        let col = objects.get(path);
        if (!col) objects.set(path, (col = new Array<1 | null>(queries.length).fill(null)));
        col[i] = 1;
      },
    );
  });
  const columns: Record<string, PackedColumn> = {};
  for (const [path, values] of leaves) columns[path] = column(values);
  const optional: Record<string, (1 | null)[]> = {};
  for (const [path, present] of objects) optional[path] = present.includes(null) ? present : [];
  return { columns, objects: optional };
}

const same = (a: Json, b: Json) => JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
function sorted(v: Json): Json {
  if (Array.isArray(v)) return v.map(sorted);
  if (!isObject(v)) return v;
  const out: Obj = {};
  for (const k of Object.keys(v).sort()) if (v[k] !== undefined) out[k] = sorted(v[k]);
  return out;
}

/** The report packed, or undefined when its failing queries are not entries of its query list. */
export function packReport(report: Report): PackedReport | undefined {
  const { schema_version: _v, queries, failing_queries, replay_proof, ...rest } = report;
  const position = new Map(queries.map((q, i) => [q.query_id, i]));
  const failing: number[] = [];
  for (const f of failing_queries) {
    const i = position.get(f.query_id);
    if (i === undefined || !same(f, queries[i])) return undefined;
    failing.push(i);
  }
  const perQuery = replay_proof.per_query;
  const aligned =
    perQuery.length === queries.length && perQuery.every((p, i) => p.query_id === queries[i]!.query_id);
  const short = aligned && perQuery.every((p) => p.fingerprints.every((f) => SHA256_HEX.test(f)));
  const form = (f: string) => (short ? Buffer.from(f.slice(7), 'hex').toString('base64url') : f);
  const table: QueryTable = {
    count: queries.length,
    ...queryColumns(queries),
    failing,
    ...(aligned
      ? {
          fingerprints: column(
            perQuery.map((p) =>
              p.fingerprints.length === 1 ? form(p.fingerprints[0]!) : p.fingerprints.map(form),
            ),
          ),
        }
      : {}),
    ...(short ? { fingerprint_form: 'sha256-base64url' as const } : {}),
  };
  return {
    schema_version: PACKED_REPORT_SCHEMA_VERSION,
    ...rest,
    replay_proof: aligned ? { ...replay_proof, per_query: [] } : replay_proof,
    query_table: table,
  };
}

/** Parent objects of a path, made where missing (they are optional objects the table says exist). */
function placeAt(root: Obj, path: string, value: Json): boolean {
  const keys = path.split('/').map(unescapeKey);
  let o = root;
  for (const k of keys.slice(0, -1)) {
    const next = o[k];
    if (!isObject(next)) return false;
    o = next;
  }
  o[keys[keys.length - 1]!] = value;
  return true;
}

/**
 * The report a packed report holds. `packed` has been checked against PackedReportSchema; what that
 * schema cannot say (columns of the right length, codes in range, a value under an object the query
 * lacks) is checked here, as a damaged file.
 */
export function unpackReport(packed: PackedReport): Report {
  const { schema_version: _v, query_table: table, replay_proof, ...rest } = packed;
  const n = table.count;
  const columns = Object.entries(table.columns).map(([path, c]) => ({
    path,
    values: columnValues(c, n, `query_table/columns/${path}`),
  }));
  // parents before children: a path's depth is its number of "/"
  const objects = Object.entries(table.objects)
    .sort(([a], [b]) => a.split('/').length - b.split('/').length || (a < b ? -1 : a > b ? 1 : 0))
    .map(([path, present]) => {
      if (present.length !== 0 && present.length !== n)
        throw damaged(`query_table/objects/${path}: ${present.length} values for ${n} queries`);
      return { path, present };
    });
  const queries: Obj[] = [];
  for (let i = 0; i < n; i++) {
    const q: Obj = {};
    for (const o of objects)
      if ((o.present.length === 0 || o.present[i] === 1) && !placeAt(q, o.path, {}))
        throw damaged(`query_table/objects/${o.path}: query ${i} has it inside an object it lacks`);
    for (const c of columns) {
      const v = c.values[i];
      if (v !== null && !placeAt(q, c.path, v))
        throw damaged(`query_table/columns/${c.path}: query ${i} has a value under an object it lacks`);
    }
    queries.push(q);
  }
  const failing = table.failing.map((i) => {
    const q = queries[i];
    if (!q) throw damaged(`query_table/failing: position ${i} is past the ${n} queries`);
    return structuredClone(q);
  });
  let perQuery = replay_proof.per_query;
  if (table.fingerprints) {
    const fps = columnValues(table.fingerprints, n, 'query_table/fingerprints');
    const form = (f: unknown): string => {
      if (typeof f !== 'string')
        throw damaged(`query_table/fingerprints: ${JSON.stringify(f)} is not a fingerprint`);
      if (!table.fingerprint_form) return f;
      if (!BASE64URL_32.test(f)) throw damaged(`query_table/fingerprints: ${f} is not 32 bytes in base64url`);
      return `sha256:${Buffer.from(f, 'base64url').toString('hex')}`;
    };
    perQuery = fps.map((f, i) => ({
      query_id: String(queries[i]!.query_id),
      fingerprints: Array.isArray(f) ? f.map(form) : [form(f)],
    }));
  }
  return {
    schema_version: REPORT_SCHEMA_VERSION,
    ...rest,
    failing_queries: failing as unknown as QueryOutcome[],
    queries: queries as unknown as QueryOutcome[],
    replay_proof: { ...replay_proof, per_query: perQuery },
  } as Report;
}
