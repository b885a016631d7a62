import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative, resolve, sep, posix } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layer table of docs/ARCHITECTURE.md, enforced. The table is read from that file, so the
 * document and the check cannot disagree. Node built-ins are allowed everywhere; test files
 * (*.test.ts) are exempt: they may reach anything.
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

const IMPORT_RE =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;

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
    for (const m of text.matchAll(IMPORT_RE)) {
      const spec = m[1] ?? m[2] ?? m[3];
      if (!spec) continue;
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

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.(ts|js|mjs)$/.test(name) && !/\.test\.ts$/.test(name) && !name.endsWith('.d.ts')) out.push(p);
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
});
