import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportCommand } from '../src/cli/commands/report.js';
import type { CliIo } from '../src/cli/command.js';
import { runCli } from '../src/cli/program.js';
import { renderJson } from '../reports/run/json.js';
import { sampleReport } from './fixtures/sample-report.js';
import { SqliteRunStore } from '../src/store/sqlite-store.js';
import { ARTIFACTS, SETTINGS } from './helpers/run-rows.js';

function captureIo(cwd: string, color = false): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    out: (t) => stdout.push(t),
    err: (t) => stderr.push(t),
    color,
    isTty: color,
    cwd,
    env: {},
    stdout,
    stderr,
  };
}

/** A project dir holding two stored runs, as `rgate run` leaves them. */
function project(): string {
  const cwd = mkdtempSync(join(tmpdir(), 'rgate-report-cli-'));
  for (const v of ['fail', 'watch'] as const) {
    const dir = join(cwd, '.rgate', 'runs', `run-${v}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'report.json'), renderJson(sampleReport(v)));
  }
  return cwd;
}

const run = (argv: string[], io: CliIo) => runCli(argv, io, [reportCommand]);

describe('rgate report', () => {
  it('resolves a run id under .rgate/runs and exits by the verdict (FAIL 1, WATCH 0)', async () => {
    const cwd = project();
    const io = captureIo(cwd);
    expect(await run(['report', 'run-fail'], io)).toBe(1);
    expect(io.stdout.join('')).toContain(' FAIL  semantic-retrieval-v1 v1.1.0');
    expect(io.stdout.join('')).not.toContain('\u001b');
    const io2 = captureIo(cwd, true);
    expect(await run(['report', 'run-watch'], io2)).toBe(0);
    expect(io2.stdout.join('')).toContain('\u001b[33m');
  });

  it('re-renders the stored JSON byte for byte and writes --out files without colour', async () => {
    const cwd = project();
    const io = captureIo(cwd, true);
    expect(await run(['report', '.rgate/runs/run-watch/report.json', '--format', 'json'], io)).toBe(0);
    expect(io.stdout.join('')).toBe(readFileSync(join(cwd, '.rgate/runs/run-watch/report.json'), 'utf8'));
    for (const [format, file] of [
      ['html', 'out/r.html'],
      ['md', 'out/r.md'],
      ['junit', 'out/r.xml'],
      ['terminal', 'out/r.txt'],
    ] as const) {
      expect(await run(['report', 'run-fail', '--format', format, '--out', file], io)).toBe(1);
      const text = readFileSync(join(cwd, file), 'utf8');
      expect(text.length).toBeGreaterThan(500);
      // colour codes never go to a file (the HTML may carry the hostile query's raw ESC as inert text)
      if (format !== 'html') expect(text).not.toContain('\u001b[');
    }
    expect(readFileSync(join(cwd, 'out/r.xml'), 'utf8')).toMatch(/^<\?xml/);
  });

  it('mistakes exit 2 with the file and JSON path, never a stack', async () => {
    const cwd = project();
    const io = captureIo(cwd);
    expect(await run(['report', 'no-such-run'], io)).toBe(2);
    expect(io.stderr.join('\n')).toMatch(/report not found: .*\.rgate\/runs\/no-such-run\/report\.json/);
    const bad = JSON.parse(readFileSync(join(cwd, '.rgate/runs/run-fail/report.json'), 'utf8'));
    delete bad.gate.verdict;
    writeFileSync(join(cwd, 'bad.json'), JSON.stringify(bad));
    const io2 = captureIo(cwd);
    expect(await run(['report', 'bad.json'], io2)).toBe(2);
    expect(io2.stderr.join('\n')).toMatch(
      /bad\.json does not match the report schema: \/gate\/verdict: is required/,
    );
    expect(io2.stderr.join('\n')).not.toMatch(/\n\s+at /);
    const io3 = captureIo(cwd);
    expect(await run(['report', 'run-fail', '--format', 'pdf'], io3)).toBe(2);
  });
});

describe('rgate report of a run only the store kept', () => {
  /** A project whose history holds one finished run with `report` kept, and no report files. */
  function stored(report: unknown): string {
    const cwd = mkdtempSync(join(tmpdir(), 'rgate-report-cli-'));
    const store = new SqliteRunStore(join(cwd, '.rgate', 'history.sqlite'));
    store.beginRun({
      run_id: 'r-kept',
      suite: 'semantic',
      started_at: 't',
      artifacts: ARTIFACTS,
      settings: SETTINGS,
    });
    store.finishRun('r-kept', { status: 'complete', finished_at: 't2', metrics: [], report });
    store.close();
    return cwd;
  }

  it('renders a kept report that matches the schema', async () => {
    const io = captureIo(stored(JSON.parse(renderJson(sampleReport('fail')))));
    expect(await run(['report', 'r-kept'], io)).toBe(1);
    expect(io.stdout.join('')).toContain(' FAIL  semantic-retrieval-v1 v1.1.0');
  });

  it('refuses one that does not (never a cast): exit 2 naming the run and the store, no stack', async () => {
    const cwd = stored({ schema_version: 'rgate-report/1', suite: 'retrieval' });
    const io = captureIo(cwd);
    expect(await run(['report', 'r-kept'], io)).toBe(2);
    const err = io.stderr.join('\n');
    expect(err).toContain(
      `rgate: error: the report of run r-kept in ${join(cwd, '.rgate', 'history.sqlite')} does not match the report schema: /artifacts: is required`,
    );
    expect(err).toContain('hint: written by another rgate version or edited by hand');
    expect(err).not.toMatch(/\n\s+at /);
  });
});
