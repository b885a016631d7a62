import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { madeFrom } from '../src/cli/bundle-stamp.cjs';
import { compiledCli, REPO } from './helpers/dist.js';

/**
 * `rgate run` loads from the one-file bundle the build writes beside run.js
 * (scripts/bundle-run.mjs), compiled with the V8 code cache the build writes beside it. These hold a run through the bundle (the CLI) to the same run through
 * the ES modules it is made from: its output, exit code and every report file, a per-query command
 * system's failures included, and a config error's exit code (RgateError crosses from the bundle
 * to the program's error report).
 */
const commands = join(REPO, 'dist', 'src', 'cli', 'commands');
const bundle = join(commands, 'run-bundle.cjs');
type RunEntry = typeof import('../src/cli/commands/run-entry.js');

/** What differs between two runs of the same suite whatever loads them: ids, clocks, latencies. */
function masked(text: string): string {
  return text
    .replace(/\b\d{8}T\d{6}Z-[0-9a-f]{6}\b/g, 'RUN')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, 'TIME')
    .replace(/("(?:p50|p95|p99|latency_ms|wall_ms)"\s*:\s*)(\[[^\]]*\]|[0-9.e+-]+)/g, '$1N')
    .replace(/wall time [0-9,]+ ms/g, 'wall time N ms')
    .replace(/[0-9.]+\/s eta \S+/g, 'N/s')
    .replace(/out-(?:bundle|modules)/g, 'out');
}

describe('the run bundle', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rgate-run-bundle-'));
  beforeAll(() => {
    compiledCli();
    const set = join(dir, 'fixtures', 'tiny');
    mkdirSync(set, { recursive: true });
    const corpus = join(set, 'corpus.jsonl');
    const docs = [1, 2, 3, 4].map((i) => ({
      id: `doc-${i}`,
      source_path: `docs/${i}.md`,
      text: `document ${i} about topic${i}`,
      kind: 'canonical',
      captured_at: '2026-01-01T00:00:00Z',
    }));
    writeFileSync(corpus, docs.map((d) => JSON.stringify(d)).join('\n') + '\n');
    const queries = [1, 2, 3, 4].map((i) => ({
      query_id: `q${i}`,
      text: `where is topic${i}`,
      qrels: { [`doc-${i}`]: 1 },
    }));
    writeFileSync(join(set, 'queries.jsonl'), queries.map((q) => JSON.stringify(q)).join('\n') + '\n');
    writeFileSync(join(set, 'config.json'), JSON.stringify({ mode: 'bm25' }));
    // answers q1 and q2, warns on stderr for q2, crashes on q3, prints garbage for q4
    const sut = join(dir, 'sut.sh');
    writeFileSync(
      sut,
      [
        '#!/bin/bash',
        'case "$1" in',
        '  q3) echo "broken" >&2; exit 7 ;;',
        '  q4) echo "not json" ;;',
        '  *) [ "$1" = q2 ] && echo "slow index" >&2',
        `     printf '{"selection_mode":"semantic","ranked":[{"id":"doc-%s","source_path":"docs/%s.md","score":1}]}' "\${1#q}" "\${1#q}" ;;`,
        'esac',
        '',
      ].join('\n'),
    );
    chmodSync(sut, 0o755);
    writeFileSync(
      join(dir, 'rgate.config.json'),
      JSON.stringify({
        suites: {
          tiny: {
            fixture: 'tiny',
            system: { type: 'command', argv: [sut, '{query_id}'], contract: 'rgate' },
            gate: null,
            replays: 2,
          },
        },
        default_suites: ['tiny'],
      }),
    );
    const frozen = spawnSync(process.execPath, [compiledCli(), 'freeze', 'tiny', '--date', '2026-11-26'], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(frozen.status, frozen.stderr).toBe(0);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A run through the CLI (the bundle) or through runCli given run.js's own command. */
  function run(via: 'bundle' | 'modules', argv: string[]): { out: string; files: Record<string, string> } {
    const out = join(dir, `out-${via}`);
    rmSync(out, { recursive: true, force: true });
    const args = [...argv, '--out-dir', out];
    const p =
      via === 'bundle'
        ? spawnSync(process.execPath, [compiledCli(), ...args], { cwd: dir, encoding: 'utf8' })
        : spawnSync(
            process.execPath,
            [
              '--input-type=module',
              '-e',
              `const { runCli } = await import(${JSON.stringify(pathToFileURL(join(commands, '..', 'program.js')).href)});` +
                `const { runCommand } = await import(${JSON.stringify(pathToFileURL(join(commands, 'run.js')).href)});` +
                `process.exitCode = await runCli(${JSON.stringify(args)}, undefined, [runCommand]);`,
            ],
            { cwd: dir, encoding: 'utf8' },
          );
    const files: Record<string, string> = {};
    const runs = join(out, 'runs');
    for (const id of statSync(runs, { throwIfNoEntry: false }) ? readdirSync(runs) : []) {
      for (const f of readdirSync(join(runs, id)).sort())
        files[f] = masked(readFileSync(join(runs, id, f), 'utf8'));
    }
    return { out: masked(`${p.stdout}--- stderr\n${p.stderr}--- exit ${p.status}\n`), files };
  }

  it('is written by the build, and current, with a code cache this node accepts', async () => {
    expect(madeFrom(bundle, join(commands, 'run.js'))).toBe(true);
    const entry = (await import(pathToFileURL(join(commands, 'run-entry.js')).href)) as RunEntry;
    const loaded = entry.loadWithCodeCache(bundle, readFileSync(join(commands, 'run-bundle.v8cache')));
    expect(loaded.cacheRejected).toBe(false);
    expect(loaded.exports.runCommand.command).toBe('run [suites..]');
    // a cache of another source is refused, and the bundle still loads (compiled in full)
    const other = entry.loadWithCodeCache(bundle, Buffer.from('not a code cache'));
    expect(other.cacheRejected).toBe(true);
    expect(other.exports.runCommand.command).toBe('run [suites..]');
  });

  it('runs a suite as the ES modules do: output, exit code, every report file', () => {
    const viaBundle = run('bundle', ['run', 'tiny']);
    const viaModules = run('modules', ['run', 'tiny']);
    expect(Object.keys(viaBundle.files)).toEqual(['report.html', 'report.json', 'report.md', 'report.xml']);
    expect(viaBundle.files['report.json']).toContain('process exited with code 7');
    expect(viaBundle.files['report.json']).toContain('response is not JSON');
    expect(viaBundle.out).toBe(viaModules.out);
    expect(viaBundle.files).toEqual(viaModules.files);
  });

  it("reports a config error as the ES modules do (exit 2, the error's own message)", () => {
    const viaBundle = run('bundle', ['run', 'no-such-suite']);
    expect(viaBundle.out).toMatch(/rgate: error: .*no-such-suite[\s\S]*--- exit 2\n$/);
    expect(viaBundle.out).toBe(run('modules', ['run', 'no-such-suite']).out);
  });
});
