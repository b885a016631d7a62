/**
 * The build's precompiled templates (scripts/write-templates.mjs) against the .hbs sources: the
 * manifest names every template on disk with its source's hash, a changed source makes the folder
 * stale (then every template is compiled at run time), and a page rendered by the compiled dist
 * modules, which use the precompiled templates and handlebars' runtime, is byte for byte the page
 * the source modules render by compiling the same templates.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledCli, REPO } from '../test/helpers/dist.js';
import { sampleGateCReport, sampleReport } from '../test/fixtures/sample-report.js';
import { renderHtml } from './run/html.js';
import { precompiledAreFresh, templateSourceHash, templateSources } from './templates.js';

type TemplatesModule = typeof import('./templates.js');
type HtmlModule = typeof import('./run/html.js');

const distReports = join(REPO, 'dist', 'reports');
const { version } = createRequire(import.meta.url)('handlebars/package.json') as { version: string };

describe('precompiled report templates', () => {
  let dist: TemplatesModule;
  let distHtml: HtmlModule;
  const scratch = mkdtempSync(join(tmpdir(), 'rgate-templates-'));
  beforeAll(async () => {
    compiledCli(); // dist/ is built (npm test builds first)
    dist = (await import(pathToFileURL(join(distReports, 'templates.js')).href)) as TemplatesModule;
    distHtml = (await import(pathToFileURL(join(distReports, 'run', 'html.js')).href)) as HtmlModule;
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('the manifest names every template on disk, each with the hash of its source', () => {
    const manifest = JSON.parse(
      readFileSync(join(dist.precompiledTemplatesDir(), 'manifest.json'), 'utf8'),
    ) as {
      version: string;
      sources: Record<string, string>;
    };
    expect(manifest.version).toBe(version);
    const sources = templateSources();
    expect(sources.map((s) => s.key)).toContain('run/report');
    expect(Object.keys(manifest.sources).sort()).toEqual(sources.map((s) => s.key).sort());
    for (const { key, file } of sources) {
      expect(manifest.sources[key], key).toBe(templateSourceHash(readFileSync(file, 'utf8'), version));
    }
    expect(dist.precompiledAreFresh()).toBe(true);
  });

  it('a template whose source changed, or one added, makes the folder stale', () => {
    const copy = join(scratch, 'precompiled');
    cpSync(dist.precompiledTemplatesDir(), copy, { recursive: true });
    expect(precompiledAreFresh(copy)).toBe(true);
    const file = join(copy, 'manifest.json');
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as { sources: Record<string, string> };
    const edited = { ...manifest.sources, 'run/report': templateSourceHash('{{changed}}', version) };
    writeFileSync(file, JSON.stringify({ version, sources: edited }));
    expect(precompiledAreFresh(copy)).toBe(false);
    const { ['run/errors']: _dropped, ...fewer } = manifest.sources;
    writeFileSync(file, JSON.stringify({ version, sources: fewer }));
    expect(precompiledAreFresh(copy)).toBe(false);
    expect(precompiledAreFresh(join(scratch, 'none'))).toBe(false);
  });

  it('renders the run report exactly as compiling the templates does', () => {
    // the source modules have no precompiled folder beside them: they compile
    expect(precompiledAreFresh()).toBe(false);
    for (const report of [sampleReport('pass'), sampleReport('fail'), sampleGateCReport()]) {
      const page = distHtml.renderHtml(report as Parameters<HtmlModule['renderHtml']>[0]);
      expect(page).toBe(renderHtml(report));
      expect(page).toContain('<html');
    }
  });
});
