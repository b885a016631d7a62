import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative, resolve, dirname, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * DESIGN.md's layer table, enforced. A layer is the first one or two path segments of a file.
 * Node built-ins are allowed everywhere. Test files (*.test.ts) are exempt: they may reach anything.
 * Third-party packages are listed per layer.
 */
const root = resolve(import.meta.dirname, '..');

interface Layer {
  layers: string[];
  packages: string[];
}
const ALL = ['*'];
const RULES: Record<string, Layer> = {
  // every document's schema and type, declared once: the bottom layer everyone may read
  'src/documents': { layers: [], packages: ['@sinclair/typebox'] },
  'src/core': { layers: ['src/documents'], packages: [] },
  'src/trec': { layers: ['src/documents', 'src/core'], packages: [] },
  'src/contracts': { layers: ['src/documents', 'src/core'], packages: ['ajv', 'ajv-formats'] },
  // tar: importing .tar.gz document collections (DESIGN.md amended: a well-kept library beats a hand parser)
  'src/snapshot': { layers: ['src/documents', 'src/core', 'src/contracts'], packages: ['tar'] },
  // stemmer: the Porter stemmer package the engine issue allows
  'src/engine': { layers: ['src/documents', 'src/core'], packages: ['stemmer'] },
  'src/systems': { layers: ['src/documents', 'src/core', 'src/contracts', 'src/engine'], packages: [] },
  // stats: rates and means carry Wilson / bootstrap intervals (DESIGN.md amended)
  'src/metrics': { layers: ['src/documents', 'src/core', 'src/stats', 'src/trec'], packages: [] },
  'src/stats': { layers: ['src/documents', 'src/core'], packages: [] },
  'src/store': { layers: ['src/documents', 'src/core'], packages: ['better-sqlite3'] },
  'src/cli': { layers: ALL, packages: ALL },
  'src/index.ts': { layers: ALL, packages: ALL },
  harness: {
    layers: [
      'src/documents',
      'src/core',
      'src/contracts',
      'src/snapshot',
      'src/engine',
      'src/systems',
      'src/metrics',
      'src/stats',
      'src/store',
      'gates',
    ],
    packages: [],
  },
  history: {
    layers: [
      'src/documents',
      'src/core',
      'src/contracts',
      'src/snapshot',
      'src/engine',
      'src/systems',
      'src/metrics',
      'src/stats',
      'src/store',
      'gates',
      'harness',
    ],
    packages: [],
  },
  gates: { layers: ['src/documents', 'src/core', 'src/metrics', 'src/contracts'], packages: [] },
  reports: {
    layers: ['src/documents', 'src/core', 'gates'],
    packages: ['handlebars', 'chart.js', 'cli-table3'],
  },
  benchmarks: { layers: ALL, packages: ALL },
  test: { layers: ALL, packages: ALL },
};

function layerOf(rel: string): string | undefined {
  const parts = rel.split(sep);
  if (parts[0] === 'src') {
    if (parts.length === 2) return `src/${parts[1]}`;
    return `src/${parts[1]}`;
  }
  return parts[0] && RULES[parts[0]] ? parts[0] : undefined;
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

const IMPORT_RE =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;

function violations(): string[] {
  const bad: string[] = [];
  const files = ['src', 'harness', 'history', 'gates', 'reports'].flatMap((d) => {
    try {
      return walk(join(root, d));
    } catch {
      return [];
    }
  });
  for (const file of files) {
    const rel = relative(root, file);
    const layer = layerOf(rel);
    if (!layer) continue;
    const rule = RULES[layer];
    if (!rule) {
      bad.push(`${rel}: folder is not in DESIGN.md's layer table`);
      continue;
    }
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(IMPORT_RE)) {
      const spec = m[1] ?? m[2] ?? m[3];
      if (!spec) continue;
      if (spec.startsWith('node:') || builtinModules.includes(spec)) continue;
      if (spec.startsWith('.')) {
        const target = relative(root, resolve(dirname(file), spec));
        const tl = layerOf(target);
        if (!tl || tl === layer || rule.layers === ALL || rule.layers.includes(tl)) continue;
        bad.push(
          `${rel}: imports ${target} (layer ${tl}); ${layer} may import only ${rule.layers.join(', ') || 'node stdlib'}`,
        );
      } else {
        const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
        if (rule.packages === ALL || rule.packages.includes(pkg)) continue;
        bad.push(
          `${rel}: imports package ${pkg}; ${layer} may import only ${rule.packages.join(', ') || 'no packages'}`,
        );
      }
    }
  }
  return bad;
}

describe('architecture', () => {
  it('every import respects the layer table of DESIGN.md', () => {
    expect(violations()).toEqual([]);
  });

  it('the checker itself catches a forbidden import', () => {
    const rel = `src${sep}metrics${sep}x.ts`;
    expect(layerOf(rel)).toBe('src/metrics');
    expect(RULES['src/metrics']!.layers).not.toContain('src/engine');
    expect(RULES['src/core']!.packages).toEqual([]);
  });
});
