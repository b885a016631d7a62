import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { captureIo } from './helpers/cli-io.js';
import { writeTinySet } from './helpers/tiny-set.js';
import { runCli } from '../src/cli/program.js';
import { compiledCli, REPO } from './helpers/dist.js';

/** Where the CLI meets a closed pipe, a broken history file, or a subfolder of the project. */
const tmp = mkdtempSync(join(tmpdir(), 'rgate-edges-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Run the compiled CLI, read one chunk of stdout and close the pipe, as `| head -1` does. */
function readOneChunkThenClose(
  args: string[],
): Promise<{ code: number | null; stderr: string; first: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [compiledCli(), ...args], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let first = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.once('data', (d: Buffer) => {
      first = d.toString();
      child.stdout.destroy();
    });
    child.on('error', fail);
    child.on('close', (code) => done({ code, stderr, first }));
  });
}

describe('a closed stdout pipe', () => {
  it('`rgate score ... | head` ends without an EPIPE stack trace and with its normal exit code', async () => {
    // a run large enough that the reader is gone long before rgate is done writing
    const qrels = join(tmp, 'big.qrels');
    const run = join(tmp, 'big.run');
    const q: string[] = [];
    const r: string[] = [];
    for (let t = 1; t <= 400; t++) {
      for (let d = 1; d <= 50; d++) {
        q.push(`${t} 0 d${d} ${d % 3 === 0 ? 1 : 0}`);
        r.push(`${t} Q0 d${d} ${d} ${100 - d} run`);
      }
    }
    writeFileSync(qrels, q.join('\n') + '\n');
    writeFileSync(run, r.join('\n') + '\n');
    const res = await readOneChunkThenClose(['score', '-q', '-m', 'all_trec', qrels, run]);
    expect(res.first).toMatch(/^\S+\s+\d+\s+/);
    expect(res.stderr).not.toMatch(/EPIPE|\n\s+at .+:\d+:\d+/);
    expect(res.code).toBe(0);
  });
});

describe('a history file that is not one', () => {
  it('is an input error naming the file (exit 2), for reading and for running', async () => {
    const bad = join(tmp, 'corrupt.sqlite');
    writeFileSync(bad, 'this is not a database, just text that happens to be here\n'.repeat(200));
    const before = readFileSync(bad);
    for (const argv of [
      ['history', '--store', bad],
      ['run', 'context-load', '--replays', '1', '--store', bad],
    ]) {
      const o = captureIo(REPO);
      expect(await runCli(argv, o)).toBe(2);
      expect(o.stderr.join('\n')).toContain(`run history ${bad} is not an SQLite database`);
      expect(o.stderr.join('\n')).toContain('hint: point --store at another file');
    }
    expect(readFileSync(bad)).toEqual(before);
  });
});

describe('.rgate/ lives beside rgate.config.json', () => {
  it('a run from a subfolder writes to, and history reads from, the config folder', async () => {
    const proj = join(tmp, 'proj');
    mkdirSync(join(proj, 'deep', 'er'), { recursive: true });
    const config = JSON.parse(readFileSync(join(REPO, 'rgate.config.json'), 'utf8')) as {
      suites: Record<string, { fixture: string; gate?: string | null }>;
      default_suites?: string[];
    };
    const suite = config.suites['context-load']!;
    // the fixture and gate are copied in, so their relative names resolve beside this config
    cpSync(join(REPO, 'fixtures', suite.fixture), join(proj, 'fixtures', suite.fixture), { recursive: true });
    cpSync(join(REPO, 'gates', `${suite.gate}.gate.json`), join(proj, 'gates', `${suite.gate}.gate.json`));
    writeFileSync(
      join(proj, 'rgate.config.json'),
      JSON.stringify({ suites: { 'context-load': suite } }, null, 2),
    );
    const sub = join(proj, 'deep', 'er');
    const o = captureIo(sub);
    expect(await runCli(['run', 'context-load', '--replays', '1'], o)).toBe(0);
    expect(existsSync(join(proj, '.rgate', 'history.sqlite'))).toBe(true);
    expect(existsSync(join(sub, '.rgate'))).toBe(false);
    const h = captureIo(join(proj, 'deep'));
    expect(await runCli(['history', 'context-load'], h)).toBe(0);
    expect(h.stdout.join('\n')).toContain('1 complete run(s)');
    // an explicit --out-dir is still relative to the cwd
    const o2 = captureIo(sub);
    expect(await runCli(['run', 'context-load', '--replays', '1', '--out-dir', 'here'], o2)).toBe(0);
    expect(existsSync(join(sub, 'here', 'history.sqlite'))).toBe(true);
  });
});

describe('exit codes as documented', () => {
  it('a system that is down: the run stops early, says so, and exits 3 (not a gate FAIL of 1)', async () => {
    const proj = join(tmp, 'down');
    mkdirSync(proj, { recursive: true });
    const config = {
      suites: {
        dead: {
          fixture: join(REPO, 'fixtures', 'context-load'),
          system: { type: 'command', argv: [join(proj, 'missing-retriever'), '{query}'], contract: 'rgate' },
          gate: null,
          replays: 5,
        },
      },
    };
    writeFileSync(join(proj, 'rgate.config.json'), JSON.stringify(config));
    const o = captureIo(proj);
    expect(await runCli(['run', 'dead'], o)).toBe(3);
    const err = o.stderr.join('\n');
    expect(err).toContain(
      'suite dead: the system under test is down: all 10 requests made (of 630 planned) failed and none succeeded',
    );
    expect(err).toContain('missing-retriever');
    expect(o.stdout.join('\n')).toContain('system under test down');
  });
});

describe('a run that measured nothing names the config place to fix', () => {
  let n = 0;
  async function runAgainst(system: Record<string, unknown>) {
    const proj = join(tmp, `unmeasured-${++n}`);
    writeTinySet(join(proj, 'fixtures', 'set'), { queries: 2, frozenOn: '2026-11-26' });
    const config = { suites: { x: { fixture: 'set', system, gate: null, replays: 1 } } };
    writeFileSync(join(proj, 'rgate.config.json'), JSON.stringify(config, null, 2) + '\n');
    const o = captureIo(proj);
    const code = await runCli(['run', 'x', '--no-store'], o);
    const lines = readFileSync(join(proj, 'rgate.config.json'), 'utf8').split('\n');
    const at = (text: string): string =>
      `${join(proj, 'rgate.config.json')}:${lines.findIndex((l) => l.includes(text)) + 1}`;
    return { code, err: o.stderr.join('\n'), at };
  }
  /**
   * A real server on 127.0.0.1 answering every request 200 with `body`; with `failing`, the query
   * that ends in it gets a 500 instead.
   */
  async function serving(
    body: unknown,
    failing?: string,
  ): Promise<{ url: string; close: () => Promise<void> }> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const { query } = JSON.parse(Buffer.concat(chunks).toString()) as { query: string };
        if (failing !== undefined && query.endsWith(failing)) res.writeHead(500).end('oops');
        else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}/retrieve`,
      close: () => new Promise((r) => server.close(() => r())),
    };
  }
  const retrievalResult = {
    schema_version: '1.0',
    query_embedding_dimensions: 768,
    k_requested: 10,
    k_returned: 1,
    results: [
      {
        chunk_id: 'doc-a',
        document_id: 'doc-a',
        text_content: 'a',
        page: null,
        section: null,
        coordinates: null,
        rank: 1,
        score: 0.9,
      },
    ],
  };

  for (const [what, failing, which] of [
    ['every answer of another contract than the (default) one configured', undefined, 'all'],
    ['some requests failing otherwise (an HTTP 500) too', 'x', '1'],
  ] as const) {
    it(`${what}: the contract to set, at its place, not "down"`, async () => {
      const s = await serving(retrievalResult, failing);
      try {
        const r = await runAgainst({ type: 'http', url: s.url });
        expect(r.code).toBe(3);
        expect(r.err).toContain(
          `rgate: suite x: no answer could be measured: all 2 requests failed and none succeeded, ${which} of them answers that broke contract "context-pack" (the default, none is set), so the run stopped (first: response breaks context-pack and cannot be measured: /context_text: is required; /items: is required; the answer reads as retrieval-result-v1)`,
        );
        expect(r.err).toContain(
          `  hint: ${r.at('"system"')} /suites/x/system/contract: the answers read as retrieval-result-v1: set it to "retrieval-result-v1"`,
        );
        expect(r.err).not.toContain('is down');
      } finally {
        await s.close();
      }
    });
  }

  it('answers no contract rgate knows can measure: the contract line, and the contracts known', async () => {
    const s = await serving({ hits: [] });
    try {
      const r = await runAgainst({ type: 'http', url: s.url, contract: 'rgate' });
      expect(r.code).toBe(3);
      expect(r.err).toContain('all of them answers that broke contract "rgate", so the run stopped');
      expect(r.err).toContain(
        `  hint: ${r.at('"contract"')} /suites/x/system/contract: set the contract the system's answers follow (known: rgate, `,
      );
    } finally {
      await s.close();
    }
  });

  it('nothing listening at the url: still down, with the place of the url as the hint', async () => {
    const s = await serving({});
    await s.close();
    const r = await runAgainst({ type: 'http', url: s.url, contract: 'rgate' });
    expect(r.code).toBe(3);
    expect(r.err).toContain('rgate: suite x: the system under test is down: all 2 requests failed');
    expect(r.err).toContain('ECONNREFUSED');
    expect(r.err).toContain(
      `  hint: ${r.at('"url"')} /suites/x/system/url: nothing answered there: start the system, or fix the url`,
    );
  });

  it('a server that accepts and drops every connection: not "nothing answered there"', async () => {
    const server = createNetServer((socket) => socket.destroy());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    try {
      const r = await runAgainst({
        type: 'http',
        url: `http://127.0.0.1:${port}/retrieve`,
        contract: 'rgate',
      });
      expect(r.code).toBe(3);
      expect(r.err).toContain('rgate: suite x: the system under test is down: all 2 requests failed');
      expect(r.err).toMatch(/first error: connection_failed: .*ECONNRESET/);
      expect(r.err).not.toContain('nothing answered there');
      expect(r.err).toContain(
        `  hint: ${r.at('"url"')} /suites/x/system/url: something there accepted the connection and closed it without an answer`,
      );
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

describe('usage mistakes are named', () => {
  it('bare `rgate` lists its commands; a number that is not one is named as typed, never NaN', async () => {
    const bare = captureIo(REPO);
    expect(await runCli([], bare)).toBe(2);
    const text = bare.stderr.join('\n');
    for (const c of ['rgate run', 'rgate merge', 'rgate score', 'rgate report']) expect(text).toContain(c);
    expect(text).toContain('Name a command (see the list above).');
    for (const [argv, message] of [
      [['run', '--replays', 'abc'], '--replays "abc": not a number'],
      [['score', '-l', 'x', 'q', 'r'], '-l "x": not an integer'],
      [['run', '--concurrency=1.5x'], '--concurrency "1.5x": not a number'],
    ] as const) {
      const o = captureIo(REPO);
      expect(await runCli([...argv], o)).toBe(2);
      expect(o.stderr.join('\n')).toContain(message);
      expect(o.stderr.join('\n')).not.toContain('NaN');
    }
  });

  it('an unknown command is an error (exit 2), with or without --help; a near one is suggested', () => {
    for (const [argv, message] of [
      [['qzxv'], 'rgate: unknown command qzxv\n'],
      [['qzxv', '--help'], 'rgate: unknown command qzxv\n'],
      [['rnu', '--help'], 'rgate: unknown command rnu; did you mean run?\n'],
      [['verfy', 'cacm'], 'rgate: unknown command verfy; did you mean verify?\n'],
    ] as const) {
      const r = spawnSync(process.execPath, [compiledCli(), ...argv], { cwd: REPO, encoding: 'utf8' });
      expect(r.status, argv.join(' ')).toBe(2);
      expect(r.stdout, argv.join(' ')).toBe('');
      expect(r.stderr, argv.join(' ')).toContain(message);
    }
    // the help of rgate and of a known command are as they were
    for (const argv of [['--help'], ['run', '--help'], ['help']]) {
      const r = spawnSync(process.execPath, [compiledCli(), ...argv], { cwd: REPO, encoding: 'utf8' });
      expect(r.status, argv.join(' ')).toBe(0);
      expect(r.stdout).toMatch(/^rgate /);
    }
  });
});
