/**
 * The validators the build precompiles (scripts/write-validators.mjs, ajv standalone) against the
 * schemas they were made from: one file per named schema, made from this very schema (its hash), and
 * judging the repository's fixtures (and each fixture against every other validator, and with an
 * unknown field, for rejections) exactly as ajv's run-time compile of the same schema does, errors
 * included.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAjv, namedSchemas, precompiledFile, schemaHash } from './ajv.js';
import { compiledCli, REPO } from '../../test/helpers/dist.js';
import { sampleGateCReport, sampleReport } from '../../test/fixtures/sample-report.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const distDir = pathToFileURL(join(REPO, 'dist', 'src', 'contracts', 'precompiled/'));
const requireHere = createRequire(import.meta.url);

/** every contract module, imported so that each declares its named validators */
async function declareAll(dir: string): Promise<void> {
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (e.isDirectory()) await declareAll(join(dir, e.name));
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts'))
      await import(pathToFileURL(join(dir, e.name)).href);
  }
}

const jsonl = (file: string): unknown[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .slice(0, 40)
    .map((l) => JSON.parse(l) as unknown);
const json = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8')) as unknown;
const filesIn = (dir: string, ext: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith(ext))
        .sort()
        .map((f) => join(dir, f))
    : [];

/** The repository's documents, each with the validator that is meant to accept it (if any). */
function samples(): { name: string; what: string; value: unknown }[] {
  const out: { name: string; what: string; value: unknown }[] = [];
  const fixtures = join(REPO, 'fixtures');
  for (const set of readdirSync(fixtures).sort()) {
    const d = join(fixtures, set);
    if (!existsSync(join(d, 'freeze.json'))) continue; // a source in another format (BEIR, a recording)
    if (existsSync(join(d, 'corpus.jsonl')))
      jsonl(join(d, 'corpus.jsonl')).forEach((v, i) =>
        out.push({ name: 'corpus-line', what: `${set}/corpus:${i + 1}`, value: v }),
      );
    if (existsSync(join(d, 'queries.jsonl')))
      jsonl(join(d, 'queries.jsonl')).forEach((v, i) =>
        out.push({ name: 'query-record', what: `${set}/queries:${i + 1}`, value: v }),
      );
    if (existsSync(join(d, 'config.json')))
      out.push({ name: 'config', what: `${set}/config`, value: json(join(d, 'config.json')) });
    if (existsSync(join(d, 'freeze.json')))
      out.push({ name: 'freeze', what: `${set}/freeze`, value: json(join(d, 'freeze.json')) });
  }
  for (const f of filesIn(join(fixtures, 'cortex-coach', 'responses'), '.json'))
    out.push({ name: 'recorded response', what: f, value: json(f) }); // recorded as answered: some break the contract
  for (const f of filesIn(join(fixtures, 'memory-cli', 'responses'), '.json'))
    out.push({ name: 'recorded response', what: f, value: json(f) });
  for (const f of filesIn(join(REPO, 'gates'), '.gate.json'))
    out.push({ name: 'gate-policy', what: f, value: json(f) });
  out.push({ name: 'rgate-config', what: 'rgate.config.json', value: json(join(REPO, 'rgate.config.json')) });
  for (const v of ['pass', 'watch', 'fail'] as const)
    out.push({
      name: 'report',
      what: `sample report ${v}`,
      value: JSON.parse(JSON.stringify(sampleReport(v))),
    });
  out.push({ name: 'report', what: 'gate C report', value: JSON.parse(JSON.stringify(sampleGateCReport())) });
  return out;
}

describe('precompiled validators (ajv standalone, written by the build)', () => {
  beforeAll(async () => {
    compiledCli(); // dist/ is built (npm test builds first)
    await declareAll(here);
  });

  it('exist for every named schema, each made from the schema as it is now', () => {
    const named = [...namedSchemas()];
    expect(named.length).toBeGreaterThan(15);
    const stale = named.filter(([name, schema]) => {
      const file = fileURLToPath(precompiledFile(name, distDir));
      if (!existsSync(file)) return true;
      return (requireHere(file) as { schemaHash?: string }).schemaHash !== schemaHash(schema);
    });
    expect(
      stale.map(([n]) => n),
      'stale or missing: run `npm run build`',
    ).toEqual([]);
    const files = readdirSync(fileURLToPath(distDir)).sort();
    expect(files).toEqual(named.map(([n]) => `${n}.cjs`).sort());
  });

  it('accept and reject the fixtures exactly as a run-time compile does, errors included', () => {
    const ajv = createAjv();
    const pairs = [...namedSchemas()].map(([name, schema]) => ({
      name,
      compiled: ajv.compile(schema),
      pre: requireHere(fileURLToPath(precompiledFile(name, distDir))) as ValidateFunction,
    }));
    const docs = samples();
    let accepted = 0;
    let rejected = 0;
    for (const doc of docs) {
      const variants: unknown[] = [doc.value];
      if (doc.value && typeof doc.value === 'object' && !Array.isArray(doc.value))
        variants.push({ ...doc.value, not_a_field: 1 });
      for (const p of pairs) {
        for (const value of variants) {
          const a = p.compiled(value);
          const b = p.pre(value);
          expect({ ok: b, errors: p.pre.errors }, `${p.name} on ${doc.what}`).toEqual({
            ok: a,
            errors: p.compiled.errors,
          });
          if (a) accepted++;
          else rejected++;
        }
        // each document is valid for the validator meant for it
        if (p.name === doc.name) expect(p.pre(doc.value), `${p.name} accepts ${doc.what}`).toBe(true);
      }
    }
    expect(accepted).toBeGreaterThan(100);
    expect(rejected).toBeGreaterThan(1000);
  });
});
