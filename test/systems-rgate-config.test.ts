// rgate.config.json: discovery from the cwd upward, --config / --no-config, schema errors with file and
// JSON path, and the repository's own rgate.config.json.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isRgateError } from '../src/core/errors.js';
import { createSystem, loadRgateConfig, resolveFixtureDir, resolveGatePath } from '../src/systems/index.js';
import { resolveConfig } from '../src/core/resolve-config.js';
import { PACKAGE_ROOT } from '../src/core/package-root.js';
import { loadGatePolicy } from '../gates/index.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rgate-config-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const suite = {
  fixture: 'cacm',
  system: {
    type: 'command',
    argv: ['my-retriever', '--q', '{query}'],
    contract: 'memory-cli-v1',
    timeout_ms: 5000,
  },
};

function write(text: string, at = dir): string {
  const p = join(at, 'rgate.config.json');
  writeFileSync(p, text);
  return p;
}

function failure(f: () => unknown): { code: string; message: string } {
  try {
    f();
  } catch (e) {
    if (isRgateError(e)) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('expected an RgateError');
}

describe('rgate.config.json', () => {
  it('is discovered from a nested cwd upward, and paths resolve against its folder', () => {
    const p = write(
      JSON.stringify({
        suites: { a: suite, b: { ...suite, fixture: './sets/b', gate: 'semantic-retrieval-v1' } },
        default_suites: ['a'],
      }),
    );
    const nested = join(dir, 'x', 'y');
    mkdirSync(nested, { recursive: true });
    const loaded = loadRgateConfig(nested);
    expect(loaded?.path).toBe(p);
    expect(loaded?.config.default_suites).toEqual(['a']);
    const a = loaded!.config.suites['a']!;
    const b = loaded!.config.suites['b']!;
    // a bare name the project does not have is the set (or gate) bundled with rgate
    expect(resolveFixtureDir(loaded!, a)).toBe(join(PACKAGE_ROOT, 'fixtures', 'cacm'));
    expect(resolveFixtureDir(loaded!, b)).toBe(join(dir, 'sets', 'b'));
    expect(resolveGatePath(loaded!, b)).toBe(join(PACKAGE_ROOT, 'gates', 'semantic-retrieval-v1.gate.json'));
    expect(resolveGatePath(loaded!, a)).toBeUndefined();
    // ... and the project's own, once it has one, comes first
    mkdirSync(join(dir, 'fixtures', 'cacm'), { recursive: true });
    mkdirSync(join(dir, 'gates'), { recursive: true });
    writeFileSync(join(dir, 'gates', 'semantic-retrieval-v1.gate.json'), '{}');
    expect(resolveFixtureDir(loaded!, a)).toBe(join(dir, 'fixtures', 'cacm'));
    expect(resolveGatePath(loaded!, b)).toBe(join(dir, 'gates', 'semantic-retrieval-v1.gate.json'));
  });

  it('a gate id resolves in the project first, then among the bundled gates; neither names both places', () => {
    expect(loadGatePolicy('semantic-retrieval-v1', dir).gate_id).toBe('semantic-retrieval-v1');
    const e = failure(() => loadGatePolicy('no-such-gate', dir));
    expect(e.code).toBe('file_not_found');
    expect(e.message).toBe(
      `gate policy not found: no-such-gate (looked for ${join(dir, 'gates', 'no-such-gate.gate.json')} and ${join(PACKAGE_ROOT, 'gates', 'no-such-gate.gate.json')})`,
    );
  });

  it('--config names a file explicitly; --no-config (false) skips it; none found is undefined', () => {
    const other = join(dir, 'other.json');
    writeFileSync(other, JSON.stringify({ suites: { only: suite } }));
    expect(Object.keys(loadRgateConfig(dir, 'other.json')!.config.suites)).toEqual(['only']);
    write(JSON.stringify({ suites: {} }));
    expect(loadRgateConfig(dir, false)).toBeUndefined();
    expect(failure(() => loadRgateConfig(dir, 'missing.json'))).toEqual({
      code: 'file_not_found',
      message: 'missing.json: no such config file',
    });
    const empty = mkdtempSync(join(tmpdir(), 'rgate-noconfig-'));
    try {
      // tmpdir has no rgate.config.json above it on a sane machine
      expect(loadRgateConfig(empty)).toBeUndefined();
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('a command system written for the retired spawn servers still loads, whatever its launcher', () => {
    const launchers = ['auto', 'python', 'perl', 'node'];
    write(
      JSON.stringify({
        suites: Object.fromEntries(
          launchers.map((l) => [l, { ...suite, system: { ...suite.system, launcher: l } }]),
        ),
      }),
    );
    const loaded = loadRgateConfig(dir)!;
    expect(Object.keys(loaded.config.suites).sort()).toEqual([...launchers].sort());
    for (const l of launchers) {
      const spec = loaded.config.suites[l]!.system;
      expect(spec).toMatchObject({ launcher: l });
      expect(() => createSystem(spec, { corpus: [], config: resolveConfig({}), dir })).not.toThrow();
    }
  });

  it('bad JSON names the file, line and column', () => {
    const p = write('{\n  "suites": {\n    "a": { "fixture": "cacm", }\n  }\n}\n');
    const f = failure(() => loadRgateConfig(dir));
    expect(f.code).toBe('config_invalid');
    expect(f.message).toMatch(
      new RegExp(`^${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3:\\d+: not valid JSON`),
    );
  });

  it('a BOM is named (not "Unexpected token"), and a trailing comma in an array has its line too', () => {
    const p = write('\uFEFF{ "suites": {} }\n');
    const bom = failure(() => loadRgateConfig(dir));
    expect(bom.code).toBe('config_invalid');
    expect(bom.message).toBe(
      `${p}:1: starts with a UTF-8 byte order mark (bytes EF BB BF): JSON text has none, and rgate does not read a file as if it were not there`,
    );
    write('{\n  "default_suites": [\n    "a",\n  ],\n  "suites": {}\n}\n');
    expect(failure(() => loadRgateConfig(dir)).message).toMatch(/:4:3: not valid JSON/);
  });

  it('schema mistakes name the file, the line and the JSON path', () => {
    const cases: Array<[unknown, string]> = [
      [{ suites: { a: { ...suite, replays: 0 } } }, '/suites/a/replays: must be >= 1'],
      [{ suites: { a: { ...suite, replay: 3 } } }, '/suites/a/replay: is not a known field'],
      [
        { suites: { a: { ...suite, system: { ...suite.system, contract: 'json' } } } },
        '/suites/a/system/contract: must be one of',
      ],
      [{ suites: { a: { ...suite, system: { type: 'http' } } } }, '/suites/a/system/url: is required'],
      [
        { suites: { a: { ...suite, system: { type: 'grpc' } } } },
        '/suites/a/system/type: must be one of "builtin", "command", "http"',
      ],
      [{ suites: { a: { ...suite, config: { k: -1 } } } }, '/suites/a/config/k: must be >= 1'],
      [
        { suites: { a: { ...suite, ranking_measures: ['map', 'P@30'] } } },
        '/suites/a/ranking_measures/1: must match pattern',
      ],
      [{ suites: { a: suite }, default_suites: ['b'] }, '/default_suites/0: no suite named "b"'],
    ];
    for (const [value, expected] of cases) {
      const p = write(JSON.stringify(value));
      const f = failure(() => loadRgateConfig(dir));
      expect(f.code).toBe('config_invalid');
      expect(f.message.startsWith(`${p}:1 ${expected}`), `${f.message} should start with ${expected}`).toBe(
        true,
      );
    }
    // written out over several lines, the line is the offending field's
    const p = write(JSON.stringify({ suites: { a: { ...suite, replays: 0 } } }, null, 2));
    const line =
      readFileSync(p, 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('"replays": 0')) + 1;
    expect(line).toBeGreaterThan(1);
    expect(failure(() => loadRgateConfig(dir)).message).toBe(`${p}:${line} /suites/a/replays: must be >= 1`);
  });

  it("the repository's rgate.config.json is valid and declares cacm and cranfield on the builtin bm25 engine", () => {
    const root = resolve(import.meta.dirname, '..');
    const loaded = loadRgateConfig(root, join(root, 'rgate.config.json'))!;
    for (const name of ['cacm', 'cranfield']) {
      const s = loaded.config.suites[name]!;
      expect(s).toMatchObject({
        fixture: name,
        system: { type: 'builtin', mode: 'bm25' },
        config: { mode: 'bm25', k: 1000 },
        replays: 2,
        relevance_level: 1,
        ranking_measures: ['map', 'P.30', 'ndcg_cut.10', 'recall.1000'],
        gate: null,
      });
      const system = createSystem(s.system, { corpus: [], config: resolveConfig(s.config), dir: '.' });
      expect(system.contract).toBe('rgate');
    }
  });

  it('createSystem refuses an unknown contract and a bad argv template before anything runs', () => {
    const config = resolveConfig({});
    expect(
      failure(() =>
        createSystem({ type: 'command', argv: ['x'], contract: 'nope' }, { corpus: [], config, dir: '.' }),
      ).message,
    ).toBe('system/contract: unknown response contract "nope"');
    expect(
      failure(() =>
        createSystem(
          { type: 'command', argv: ['x', '{qeury}'], contract: 'rgate' },
          { corpus: [], config, dir: '.' },
        ),
      ).message,
    ).toBe('system/argv/1: unknown placeholder {qeury}');
  });
});
