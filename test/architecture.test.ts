import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative, resolve, sep, posix } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The layer table of docs/ARCHITECTURE.md, enforced. The table is read from that file, so the
 * document and the check cannot disagree. Every .ts/.cts/.mts/.js/.mjs/.cjs file is read with the
 * TypeScript parser, so a CommonJS entry's require() counts as surely as an import. Node built-ins
 * are allowed everywhere; test files (*.test.ts) are exempt: they may reach anything.
 */
const root = resolve(import.meta.dirname, '..');
const ANY = '*';

interface Rule {
  layers: string[];
  packages: string[];
}
type Rules = Map<string, Rule>;

/** The rows between the layers markers: `| \`layer\` | holds | may import | packages |`. */
function parseLayerTable(markdown: string): Rules {
  const begin = markdown.indexOf('<!-- layers:begin -->');
  const end = markdown.indexOf('<!-- layers:end -->');
  if (begin < 0 || end < begin)
    throw new Error('docs/ARCHITECTURE.md has no <!-- layers:begin/end --> table');
  const rules: Rules = new Map();
  const names = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
  for (const line of markdown.slice(begin, end).split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    // a row is `| layer | holds | may import | packages |`: 6 cells around the 5 pipes
    if (cells.length !== 6 || !cells[1]!.startsWith('`')) continue;
    const [layer] = names(cells[1]!);
    rules.set(layer!, { layers: names(cells[3]!), packages: names(cells[4]!) });
  }
  return rules;
}

function layerOf(rel: string): string {
  const parts = rel.split('/');
  return parts[0] === 'src' ? `src/${parts[1]}` : parts[0]!;
}

/** The createRequire of node:module under the names this file gives it. */
function createRequireNames(file: ts.SourceFile): Set<string> {
  const names = new Set(['createRequire']);
  for (const st of file.statements) {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier)) continue;
    if (!['node:module', 'module'].includes(st.moduleSpecifier.text)) continue;
    const bindings = st.importClause?.namedBindings;
    if (bindings && ts.isNamedImports(bindings)) {
      for (const el of bindings.elements) {
        if ((el.propertyName ?? el.name).text === 'createRequire') names.add(el.name.text);
      }
    }
  }
  return names;
}

const stringValue = (e: ts.Node | undefined): string | undefined =>
  e && (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) ? e.text : undefined;

/**
 * Every module a file names, read from its syntax tree (so comments and strings that look like imports
 * are not): `import` and `export ... from`, `import x = require()`, `typeof import()`, dynamic
 * `import()`, `require()` and `require.resolve()`, and the same through a require made by
 * `createRequire` (bound to a name, or called at once). A specifier computed at run time
 * (`require(bundle)`) names no module and is not checked.
 */
function moduleSpecifiers(rel: string, text: string): string[] {
  const kind = /\.[cm]?js$/.test(rel) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const file = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, false, kind);
  const makers = createRequireNames(file);
  const requires = new Set(['require']);
  const isCreateRequire = (e: ts.Expression): boolean =>
    (ts.isIdentifier(e) && makers.has(e.text)) ||
    (ts.isPropertyAccessExpression(e) && e.name.text === 'createRequire');
  const isRequire = (e: ts.Expression): boolean => {
    if (ts.isParenthesizedExpression(e)) return isRequire(e.expression);
    if (ts.isIdentifier(e)) return requires.has(e.text);
    return ts.isCallExpression(e) && isCreateRequire(e.expression);
  };
  // names bound to a require of createRequire's: `const load = createRequire(import.meta.url)`
  const bind = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      const init = node.initializer;
      if (ts.isCallExpression(init) && isCreateRequire(init.expression)) requires.add(node.name.text);
    }
    ts.forEachChild(node, bind);
  };
  bind(file);

  const specs: string[] = [];
  const visit = (node: ts.Node): void => {
    let spec: string | undefined;
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node))
      spec = stringValue(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      spec = stringValue(node.moduleReference.expression);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument))
      spec = stringValue(node.argument.literal);
    else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const loads =
        callee.kind === ts.SyntaxKind.ImportKeyword ||
        isRequire(callee) ||
        (ts.isPropertyAccessExpression(callee) &&
          callee.name.text === 'resolve' &&
          isRequire(callee.expression));
      if (loads) spec = stringValue(node.arguments[0]);
    }
    if (spec !== undefined) specs.push(spec);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return specs;
}

/** Pure: every import of `files` (repo-relative posix paths with their text) checked against `rules`. */
function checkImports(files: readonly { rel: string; text: string }[], rules: Rules): string[] {
  const bad: string[] = [];
  for (const { rel, text } of files) {
    const layer = layerOf(rel);
    const rule = rules.get(layer);
    if (!rule) {
      bad.push(`${rel}: folder ${layer} is not in the layer table of docs/ARCHITECTURE.md`);
      continue;
    }
    for (const spec of moduleSpecifiers(rel, text)) {
      if (spec.startsWith('node:') || builtinModules.includes(spec)) continue;
      if (spec.startsWith('.')) {
        const target = posix.normalize(posix.join(posix.dirname(rel), spec));
        const tl = layerOf(target);
        if (tl === layer || rule.layers.includes(ANY) || rule.layers.includes(tl)) continue;
        bad.push(
          `${rel}: imports ${target} (layer ${tl}); ${layer} may import only ${rule.layers.join(', ') || 'node built-ins'}`,
        );
      } else {
        const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
        if (rule.packages.includes(ANY) || rule.packages.includes(pkg)) continue;
        bad.push(
          `${rel}: imports package ${pkg}; ${layer} may import only ${rule.packages.join(', ') || 'no packages'}`,
        );
      }
    }
  }
  return bad;
}

/**
 * Pure: every permission of `rules` that no file of `files` uses, one line each. A row that allows
 * `*` is not checked (it states no arrow); every other layer and package a row names must be
 * imported by at least one file of that layer, so the table states only arrows that exist.
 */
function unusedPermissions(files: readonly { rel: string; text: string }[], rules: Rules): string[] {
  const used = new Map<string, Set<string>>();
  const use = (layer: string, name: string): void => {
    const set = used.get(layer) ?? new Set<string>();
    set.add(name);
    used.set(layer, set);
  };
  for (const { rel, text } of files) {
    const layer = layerOf(rel);
    for (const spec of moduleSpecifiers(rel, text)) {
      if (spec.startsWith('node:') || builtinModules.includes(spec)) continue;
      if (spec.startsWith('.')) use(layer, layerOf(posix.normalize(posix.join(posix.dirname(rel), spec))));
      else use(layer, spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
    }
  }
  const unused: string[] = [];
  for (const [layer, rule] of rules) {
    const names = used.get(layer) ?? new Set<string>();
    for (const l of rule.layers)
      if (l !== ANY && !names.has(l))
        unused.push(`${layer} may import ${l}, but no file of ${layer} imports it: drop it from the row`);
    for (const p of rule.packages)
      if (p !== ANY && !names.has(p))
        unused.push(
          `${layer} may import package ${p}, but no file of ${layer} imports it: drop it from the row`,
        );
  }
  return unused;
}

/**
 * Pure: the import cycles among `files`, each as its files in sorted order (a strongly connected
 * component of more than one file, or a file importing itself). Type-only imports count: a cycle
 * of types is still two modules that cannot be understood one without the other.
 */
function importCycles(files: readonly { rel: string; text: string }[]): string[][] {
  const known = new Set(files.map((f) => f.rel));
  // `./x.js` names x.ts (and .cjs a .cts, .mjs a .mts) when that is the file there
  const target = (rel: string, spec: string): string | undefined => {
    const t = posix.normalize(posix.join(posix.dirname(rel), spec));
    const ts = t.replace(/\.([cm]?)js$/, '.$1ts');
    return known.has(ts) ? ts : known.has(t) ? t : undefined;
  };
  const edges = new Map<string, string[]>();
  for (const { rel, text } of files) {
    const to = moduleSpecifiers(rel, text)
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => target(rel, spec))
      .filter((t): t is string => t !== undefined);
    edges.set(rel, [...new Set(to)].sort());
  }
  // Tarjan's strongly connected components, iteration in sorted order so the answer is stable
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)!) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || edges.get(v)!.includes(v)) cycles.push(component.sort());
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) connect(v);
  return cycles.sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
}

/** A source file the table governs: TypeScript or JavaScript of any module kind; not a test or a declaration. */
function isProductSource(name: string): boolean {
  return /\.[cm]?[jt]s$/.test(name) && !/\.test\.[cm]?[jt]s$/.test(name) && !/\.d\.[cm]?ts$/.test(name);
}

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (isProductSource(name)) out.push(p);
  }
  return out;
}

/** Every product source file: the top folders that hold code, except tests, fixtures and config. */
function productFiles(): { rel: string; text: string }[] {
  const top = readdirSync(root)
    .filter((n) => !n.startsWith('.') && !['node_modules', 'dist', 'fixtures', 'test', 'docs'].includes(n))
    .filter((n) => statSync(join(root, n)).isDirectory())
    .sort();
  return top
    .flatMap((d) => walk(join(root, d)))
    .map((file) => ({ rel: relative(root, file).split(sep).join('/'), text: readFileSync(file, 'utf8') }));
}

const rules = parseLayerTable(readFileSync(join(root, 'docs', 'ARCHITECTURE.md'), 'utf8'));

describe('architecture', () => {
  it('reads a layer table with a row for every layer of the code', () => {
    expect(rules.get('src/core')).toEqual({ layers: ['src/documents'], packages: [] });
    expect(rules.get('reports')!.packages).toEqual(['handlebars', 'chart.js', 'cli-table3']);
    expect(rules.get('src/cli')).toEqual({ layers: [ANY], packages: [ANY] });
    // every layer a row names as importable is itself a row
    for (const [layer, rule] of rules) {
      for (const l of rule.layers) if (l !== ANY) expect(rules.has(l), `${layer} -> ${l}`).toBe(true);
    }
  });

  it('every import respects the layer table of docs/ARCHITECTURE.md', () => {
    const files = productFiles();
    expect(files.length).toBeGreaterThan(100);
    expect(checkImports(files, rules)).toEqual([]);
  });

  it('every permission of the layer table is used by some import', () => {
    expect(unusedPermissions(productFiles(), rules)).toEqual([]);
  });

  it('no module imports itself through others (no import cycles, type-only imports counted)', () => {
    expect(importCycles(productFiles())).toEqual([]);
  });

  it('the cycle check finds a cycle through a type-only import and a .cts file', () => {
    const planted = [
      { rel: 'src/metrics/a.ts', text: "import { b } from './b.js';\n" },
      { rel: 'src/metrics/b.ts', text: "import type { C } from '../metrics/c.js';\n" },
      { rel: 'src/metrics/c.ts', text: "export { a } from './a.js';\nimport { d } from './d.cjs';\n" },
      { rel: 'src/metrics/d.cts', text: "const d = require('./d.cjs');\n" },
      { rel: 'src/metrics/e.ts', text: "import { a } from './a.js';\n" },
    ];
    expect(importCycles(planted)).toEqual([
      ['src/metrics/a.ts', 'src/metrics/b.ts', 'src/metrics/c.ts'],
      ['src/metrics/d.cts'],
    ]);
  });

  it('the permission check names a layer or package no import uses, and leaves `*` rows alone', () => {
    const planted: Rules = new Map([
      ['src/metrics', { layers: ['src/core', 'src/stats'], packages: ['ajv', 'tar'] }],
      ['src/cli', { layers: [ANY], packages: [ANY] }],
    ]);
    const files = [
      {
        rel: 'src/metrics/a.ts',
        text: "import { x } from '../core/x.js';\nimport Ajv from 'ajv/dist/2020.js';\n",
      },
      { rel: 'src/metrics/b.ts', text: "import { y } from './gate/y.js';\n" },
    ];
    expect(unusedPermissions(files, planted)).toEqual([
      'src/metrics may import src/stats, but no file of src/metrics imports it: drop it from the row',
      'src/metrics may import package tar, but no file of src/metrics imports it: drop it from the row',
    ]);
  });

  it('the checker fails planted violations (layer, package, unlisted folder) and passes their fixes', () => {
    const planted = [
      // metrics must stay pure: the engine is not in its row
      { rel: 'src/metrics/planted.ts', text: "import { search } from '../engine/index.js';\n" },
      // core imports no packages at all
      { rel: 'src/core/planted.ts', text: "import Ajv from 'ajv';\n" },
      // reports may not reach the run store, even by a dynamic import
      { rel: 'reports/run/planted.ts', text: "const s = await import('../../src/store/index.js');\n" },
      { rel: 'newfolder/planted.ts', text: 'export const x = 1;\n' },
    ];
    const found = checkImports(planted, rules);
    expect(found).toHaveLength(4);
    expect(found[0]).toMatch(
      /^src\/metrics\/planted\.ts: imports src\/engine\/index\.js \(layer src\/engine\)/,
    );
    expect(found[1]).toMatch(/^src\/core\/planted\.ts: imports package ajv/);
    expect(found[2]).toMatch(/^reports\/run\/planted\.ts: imports src\/store\/index\.js/);
    expect(found[3]).toMatch(/newfolder is not in the layer table/);

    const allowed = [
      {
        rel: 'src/metrics/planted.ts',
        text: "import { createPrng } from '../core/prng.js';\nimport { x } from './gate/y.js';\n",
      },
      {
        rel: 'src/core/planted.ts',
        text: "import { createHash } from 'node:crypto';\nimport { join } from 'path';\n",
      },
      {
        rel: 'reports/run/planted.ts',
        text: "import Handlebars from 'handlebars';\nimport { pct } from '../../gates/format.js';\n",
      },
    ];
    expect(checkImports(allowed, rules)).toEqual([]);
  });

  it('reads .cts and .mts files, and every way a module is loaded: require, createRequire, import types', () => {
    // the walk takes CommonJS and ES module TypeScript (bin.cts is the rgate entry), not tests or declarations
    for (const name of ['a.ts', 'a.cts', 'a.mts', 'a.js', 'a.mjs', 'a.cjs'])
      expect(isProductSource(name)).toBe(true);
    for (const name of ['a.test.ts', 'a.d.ts', 'a.d.cts', 'a.d.mts', 'a.json', 'a.wat', 'a.hbs'])
      expect(isProductSource(name)).toBe(false);
    const rels = productFiles().map((f) => f.rel);
    expect(rels).toContain('src/cli/bin.cts');
    expect(rels).toContain('src/cli/score-route.cts');

    const planted = [
      // CommonJS TypeScript: a plain require
      { rel: 'src/core/planted.cts', text: "const Ajv = require('ajv');\n" },
      // a re-export is an import too
      { rel: 'src/metrics/planted.mts', text: "export { search } from '../engine/index.js';\n" },
      { rel: 'src/stats/planted.ts', text: "import ajv = require('ajv');\n" },
      // a require made by createRequire, under another name, bound and called later
      {
        rel: 'src/engine/planted.ts',
        text: "import { createRequire as cr } from 'node:module';\nconst load = cr(import.meta.url);\nconst h = load('handlebars');\n",
      },
      // ... and called at once, and its resolve()
      { rel: 'src/trec/planted.ts', text: "const t = createRequire(import.meta.url)('tar');\n" },
      {
        rel: 'src/documents/planted.ts',
        text: "const p = module.createRequire(__filename).resolve('../store/index.js');\n",
      },
      // a type reaches the store as surely as a value does
      { rel: 'gates/planted.ts', text: "type Store = typeof import('../src/store/index.js');\n" },
      { rel: 'src/core/planted.js', text: "const { x } = require('../engine/bm25.js');\n" },
    ];
    expect(checkImports(planted, rules)).toEqual([
      'src/core/planted.cts: imports package ajv; src/core may import only no packages',
      'src/metrics/planted.mts: imports src/engine/index.js (layer src/engine); src/metrics may import only src/core, src/documents, src/stats, src/trec',
      'src/stats/planted.ts: imports package ajv; src/stats may import only no packages',
      'src/engine/planted.ts: imports package handlebars; src/engine may import only stemmer',
      'src/trec/planted.ts: imports package tar; src/trec may import only no packages',
      'src/documents/planted.ts: imports src/store/index.js (layer src/store); src/documents may import only node built-ins',
      'gates/planted.ts: imports src/store/index.js (layer src/store); gates may import only src/core, src/documents, src/contracts, src/metrics',
      'src/core/planted.js: imports src/engine/bm25.js (layer src/engine); src/core may import only src/documents',
    ]);

    // what only looks like an import is none: comments, strings, a require computed at run time
    const lookalikes = [
      {
        rel: 'src/core/planted.cts',
        text: [
          "// import Ajv from 'ajv'; require('ajv')",
          "/* export * from '../engine/index.js' */",
          "const help = \"load it with require('ajv') or import('tar')\";",
          "const mod = require(process.env.X ?? './x.js');",
          "const r = { require: (s: string) => s }.require('ajv');",
          "const m = require('node:fs');",
        ].join('\n'),
      },
    ];
    expect(checkImports(lookalikes, rules)).toEqual([]);
  });
});
