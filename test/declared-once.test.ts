import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as documents from '../src/documents/index.js';

/**
 * "Every document is declared once, in src/documents" (docs/ARCHITECTURE.md), enforced: a type
 * written by hand beside a document drifts from it (the engine's answers did: a field the schema
 * lacked, another required on one side only). Production code outside src/documents is read with
 * the TypeScript parser, and an interface or object type literal is a copy when
 * - its name is a type src/documents exports;
 * - its fields (two or more) are exactly those of an object in a document's schema;
 * - or its fields hold every required field (three or more) of a whole document (one with a `$id`):
 *   a document with fields added by hand.
 * Derive it instead (`Static<typeof Schema>`, a schema built from the document's properties) or
 * import it.
 */
const root = resolve(import.meta.dirname, '..');
const PRODUCTION = ['src', 'gates', 'harness', 'history', 'server', 'reports'];

/**
 * Copies that were there before this check, each left to its owner (`file type`), and names that
 * merely coincide. The test fails when one is gone, so the list only shrinks.
 */
const KNOWN = new Map([
  ['gates/metric-applies.ts HiddenMetric', 'the not_applicable items of baseline, compare and trend views'],
  ['harness/shard.ts Shard', "the shard file's `shard`"],
  ['src/store/types.ts RunResult', "a run upload's `result`"],
  ['history/paired-alarm.ts PairedAlarms', "the trend view's `history.paired`"],
  ['reports/dashboard/links.ts RunsQuery', 'RunsFilter of the server requests'],
  [
    'harness/failure-reasons.ts JudgedBy',
    "same name as a label's judged_by, another meaning (which measures rule)",
  ],
  ['src/snapshot/importers/common.ts Judgment', 'a qrels line with its file:line, not a label judgment'],
]);

interface DocumentObject {
  /** the exported schema and the JSON path of the object in it */
  where: string;
  fields: string[];
  required: string[];
  /** a whole document: an exported schema with a `$id` */
  whole: boolean;
}

/** Every object with properties in every schema src/documents exports (nested ones too). */
function documentObjects(): DocumentObject[] {
  const out: DocumentObject[] = [];
  const visit = (node: unknown, where: string, whole: boolean): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((n, i) => visit(n, `${where}/${i}`, false));
    const o = node as Record<string, unknown>;
    if (typeof o.properties === 'object' && o.properties !== null) {
      const required = Array.isArray(o.required) ? (o.required as string[]) : [];
      out.push({ where, fields: Object.keys(o.properties), required, whole });
    }
    for (const [k, v] of Object.entries(o)) visit(v, `${where}/${k}`, false);
  };
  for (const [name, value] of Object.entries(documents))
    if (name.endsWith('Schema')) visit(value, name, typeof (value as { $id?: unknown }).$id === 'string');
  // a finding names the shallowest copy: the schema exported under its own name, not a union holding it
  const depth = (d: DocumentObject) => d.where.split('/').length;
  return out.sort((a, b) => depth(a) - depth(b));
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return tsFiles(path);
      return /\.[cm]?ts$/.test(name) && !name.endsWith('.test.ts') && !name.endsWith('.d.ts') ? [path] : [];
    });
}

interface Declared {
  name: string;
  fields: string[];
}

/** The interfaces and object type aliases a file declares, with their own fields. */
function declaredTypes(fileName: string, text: string): Declared[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const out: Declared[] = [];
  const fieldsOf = (members: ts.NodeArray<ts.TypeElement>): string[] =>
    members.filter(ts.isPropertySignature).map((m) => m.name.getText(file).replace(/^['"]|['"]$/g, ''));
  const visit = (node: ts.Node): void => {
    if (ts.isInterfaceDeclaration(node)) out.push({ name: node.name.text, fields: fieldsOf(node.members) });
    else if (ts.isTypeAliasDeclaration(node))
      out.push({
        name: node.name.text,
        fields: ts.isTypeLiteralNode(node.type) ? fieldsOf(node.type.members) : [],
      });
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

/** The type names src/documents exports. */
function documentTypeNames(): Set<string> {
  const names = new Set<string>();
  for (const path of tsFiles(join(root, 'src/documents'))) {
    const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    for (const st of file.statements) {
      const exported =
        ts.canHaveModifiers(st) && ts.getModifiers(st)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
      if (exported && (ts.isTypeAliasDeclaration(st) || ts.isInterfaceDeclaration(st)))
        names.add(st.name.text);
    }
  }
  return names;
}

/** Why each type the file declares is a copy of a document (one line per finding), or nothing. */
function copiesIn(
  rel: string,
  text: string,
  names: ReadonlySet<string>,
  objects: readonly DocumentObject[],
): string[] {
  const out: string[] = [];
  for (const t of declaredTypes(rel, text)) {
    const fields = new Set(t.fields);
    const why = names.has(t.name)
      ? 'has the name of a type src/documents exports'
      : (() => {
          const same = objects.find(
            (o) =>
              o.fields.length >= 2 && o.fields.length === fields.size && o.fields.every((f) => fields.has(f)),
          );
          if (same) return `has exactly the fields of ${same.where}`;
          const grown = objects.find(
            (o) => o.whole && o.required.length >= 3 && o.required.every((f) => fields.has(f)),
          );
          return grown ? `holds every required field of ${grown.where}` : undefined;
        })();
    if (why) out.push(`${rel} ${t.name}: ${why}`);
  }
  return out;
}

describe('every document is declared once, in src/documents', () => {
  const names = documentTypeNames();
  const objects = documentObjects();

  it('no production code writes a document type by hand', () => {
    const found = PRODUCTION.flatMap((dir) => tsFiles(join(root, dir)))
      .map((path) => relative(root, path).split('\\').join('/'))
      .filter((rel) => !rel.startsWith('src/documents/'))
      .flatMap((rel) => copiesIn(rel, readFileSync(join(root, rel), 'utf8'), names, objects));
    const key = (line: string): string => line.slice(0, line.indexOf(':'));
    expect(found.filter((line) => !KNOWN.has(key(line)))).toEqual([]);
    expect([...KNOWN.keys()].filter((k) => !found.some((line) => key(line) === k))).toEqual([]);
  });

  it("finds the engine's answers as they were once written by hand", () => {
    // abridged from src/engine/types.ts before the engine's answers were derived from the documents
    const handWritten = `
      export interface ErrorEnvelope { error: { code: string; message: string; action: string } }
      export interface ScoreBreakdown {
        lexical_score: number; evidence_score: number; outcome_score: number; freshness_score: number; combined_score: number;
      }
      export interface View {
        schema_version: '1.0.0'; query_embedding_dimensions: number; k_requested: number; k_returned: number;
        query_hash: string; score_semantics: 'cosine_similarity'; results: unknown[];
      }
      export interface Selection {
        contract: 'memory-cli-v1'; selection_mode: string; selected_id: string | null; source_path: string | null;
        confidence: number; reason: string; reason_detail: string; candidates: unknown[]; embedder: string; k: number;
      }
      export interface SelectRequest { query: string; k?: number; exact_key?: string }`;
    expect(copiesIn('src/engine/types.ts', handWritten, names, objects)).toEqual([
      'src/engine/types.ts ErrorEnvelope: has the name of a type src/documents exports',
      'src/engine/types.ts ScoreBreakdown: has the name of a type src/documents exports',
      'src/engine/types.ts View: has exactly the fields of RetrievalResultV1ResponseSchema',
      'src/engine/types.ts Selection: holds every required field of MemoryCliV1ResponseSchema',
    ]);
  });
});
