import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * No function over 120 lines in the product code unless a comment at its top says why
 * (`Long because: ...`). A long function that does several jobs hides which job a change touches;
 * one that is long for a reason (a hot loop where a call per byte costs speed) says so where the
 * next reader starts. Every function, method, accessor, constructor and arrow function is read with
 * the TypeScript parser; its length runs from its first token (`export`, `async`, its name) to its
 * closing brace.
 */
const root = resolve(import.meta.dirname, '..');
const MAX_LINES = 120;
const REASON = 'Long because:';
const PRODUCT_DIRS = ['src', 'harness', 'history', 'gates', 'reports', 'server'];

interface LongFunction {
  file: string;
  name: string;
  line: number;
  lines: number;
}

const isTestSupport = (name: string): boolean =>
  /\.test\.[cm]?[jt]s$/.test(name) || /\.d\.[cm]?ts$/.test(name) || /^test-helpers\.[cm]?ts$/.test(name);

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.[cm]?[jt]s$/.test(name) && !isTestSupport(name)) out.push(p);
  }
  return out;
}

function productFiles(): { rel: string; text: string }[] {
  return PRODUCT_DIRS.flatMap((d) => walk(join(root, d))).map((file) => ({
    rel: relative(root, file).split(sep).join('/'),
    text: readFileSync(file, 'utf8'),
  }));
}

type FunctionNode = ts.FunctionLikeDeclaration & { body: ts.Node };

function isFunctionWithBody(node: ts.Node): node is FunctionNode {
  return (
    (ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isArrowFunction(node) ||
      ts.isFunctionExpression(node) ||
      ts.isConstructorDeclaration(node) ||
      ts.isGetAccessorDeclaration(node) ||
      ts.isSetAccessorDeclaration(node)) &&
    node.body !== undefined
  );
}

/**
 * A browser script's `(function () { ... })();` as a file's top-level statement is that file's
 * module scope, not a function: the functions inside it are checked one by one.
 */
function isModuleWrapper(node: ts.Node): boolean {
  let callee: ts.Node = node;
  while (ts.isParenthesizedExpression(callee.parent)) callee = callee.parent;
  const call = callee.parent;
  if (!ts.isCallExpression(call) || call.expression !== callee) return false;
  let statement: ts.Node = call.parent;
  while (ts.isParenthesizedExpression(statement)) statement = statement.parent;
  return ts.isExpressionStatement(statement) && ts.isSourceFile(statement.parent);
}

/** What a reader calls the function: its own name, else the name it is bound to. */
function nameOf(node: FunctionNode, file: ts.SourceFile): string {
  if (node.name) return node.name.getText(file);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const p = node.parent;
  if ((ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) && p.name)
    return p.name.getText(file);
  return `(anonymous)`;
}

/**
 * The comments at the function's top: those above it (above the statement, property or class
 * member that holds it, so `/** ... *\/ export const f = () => {` counts) and those that open its
 * body.
 */
function topComments(node: FunctionNode, file: ts.SourceFile): string {
  const text = file.getFullText();
  const ranges: ts.CommentRange[] = [];
  for (let n: ts.Node = node; !ts.isSourceFile(n); n = n.parent) {
    ranges.push(...(ts.getLeadingCommentRanges(text, n.getFullStart()) ?? []));
    if (ts.isStatement(n) || ts.isClassElement(n) || ts.isObjectLiteralElement(n)) break;
  }
  const body = node.body;
  const first = ts.isBlock(body) ? body.statements[0] : body;
  if (first) ranges.push(...(ts.getLeadingCommentRanges(text, first.getFullStart()) ?? []));
  return ranges.map((r) => text.slice(r.pos, r.end)).join('\n');
}

/** Every function of one file over MAX_LINES lines whose top comments give no reason. */
function longFunctions(rel: string, text: string): LongFunction[] {
  const kind = /\.[cm]?js$/.test(rel) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const file = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true, kind);
  const out: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (isFunctionWithBody(node) && !isModuleWrapper(node)) {
      const start = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const end = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      if (lines > MAX_LINES && !topComments(node, file).includes(REASON))
        out.push({ file: rel, name: nameOf(node, file), line: start + 1, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

const describeLong = (f: LongFunction): string => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`;

/** A function of `lines` lines in all, from its first line to its closing brace. */
function planted(lines: number, head = 'export function planted(): number {'): string {
  const body = Array.from({ length: lines - 2 }, (_, i) => `  const v${i} = ${i};`);
  return [head, ...body, '}', ''].join('\n');
}

describe('function length', () => {
  const files = productFiles();
  const long = files.flatMap((f) => longFunctions(f.rel, f.text));

  it(`no product function is over ${MAX_LINES} lines without "${REASON}" at its top`, () => {
    expect(files.length).toBeGreaterThan(100);
    expect(long.map(describeLong)).toEqual([]);
  });

  it('the checker fails planted long functions and passes them once they are short or say why', () => {
    const names = (text: string): string[] => longFunctions('src/planted.ts', text).map((f) => f.name);
    expect(names(planted(MAX_LINES))).toEqual([]);
    expect(names(planted(MAX_LINES + 1))).toEqual(['planted']);
    // a comment that gives no reason is not enough
    expect(names(`/** Plants things. */\n${planted(MAX_LINES + 1)}`)).toEqual(['planted']);
    expect(names(`/** Long because: a planted loop. */\n${planted(MAX_LINES + 1)}`)).toEqual([]);
    expect(names(`// Long because: a planted loop.\n${planted(MAX_LINES + 1)}`)).toEqual([]);
    // the reason may open the body instead
    const opened = planted(MAX_LINES + 1).replace('{\n', '{\n  // Long because: a planted loop.\n');
    expect(names(opened)).toEqual([]);
    // arrow functions, function expressions, methods and nested functions count as much
    expect(names(planted(MAX_LINES + 1, 'export const arrow = (): number => {'))).toEqual(['arrow']);
    expect(
      names(`/** Long because: x. */\n${planted(MAX_LINES + 1, 'export const arrow = (): number => {')}`),
    ).toEqual([]);
    expect(names(planted(MAX_LINES + 1, 'const expr = function (): number {'))).toEqual(['expr']);
    expect(names(`class C {\n${planted(MAX_LINES + 1, 'method(): number {')}}\n`)).toEqual(['method']);
    expect(names(`const o = {\n${planted(MAX_LINES + 1, 'prop: (): number => {')}};\n`)).toEqual(['prop']);
    const nested = `function outer(): void {\n${planted(MAX_LINES + 1, 'function inner(): number {')}}\n`;
    expect(names(nested)).toEqual(['outer', 'inner']);
    // a reason given for the outer function does not cover the inner one
    expect(names(`// Long because: x.\n${nested}`)).toEqual(['inner']);
    // a callback has no name of its own
    expect(names(`run(${planted(MAX_LINES + 1, '() => {')});\n`)).toEqual(['(anonymous)']);
    // a browser script's top-level wrapper is its module scope, but what is inside it counts
    const wrapped = `(function () {\n${planted(MAX_LINES - 10, 'function small() {')}${planted(MAX_LINES - 10, 'function other() {')}})();\n`;
    expect(longFunctions('reports/x/client.js', wrapped)).toEqual([]);
    expect(
      longFunctions(
        'reports/x/client.js',
        `(function () {\n${planted(MAX_LINES + 1, 'function big() {')}})();\n`,
      ).map((f) => f.name),
    ).toEqual(['big']);
  });
});
