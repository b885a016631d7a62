import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/program.js';
import { SqliteRunStore } from '../src/store/index.js';
import { captureIo } from './helpers/cli-io.js';
import { until } from './helpers/clock.js';
import { compiledCli } from './helpers/dist.js';
import { calls, deterministicPart, loggedProject, storedObservations } from './helpers/logged-project.js';

/**
 * A run killed with SIGKILL part-way, through the real CLI and a real signal to its process group:
 * shown as abandoned, reported as partial, resumed with only its missing requests, and then
 * reporting exactly what an uninterrupted run reports. (Ctrl-C and SIGTERM: run-sigint.test.ts.)
 */
const tmp = mkdtempSync(join(tmpdir(), 'rgate-sigkill-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('a run killed with SIGKILL', () => {
  it('shows as abandoned, reports as partial (never PASS), and --resume makes only the missing requests', async () => {
    // 12 requests answered, the 13th held: killed there, the run has stored exactly 12 (observations
    // are committed in batches: the held request leaves the batch's time bound to commit the 12)
    const { dir, log, hold } = loggedProject(tmp, 'killed', 12, 12);
    const child = spawn(process.execPath, [compiledCli(), 'run', 'tiny'], {
      cwd: dir,
      stdio: 'ignore',
      detached: true,
    });
    const exited = new Promise((r) => child.once('exit', r));
    const storePath = join(dir, '.rgate', 'history.sqlite');
    await until(
      () => calls(log) === 13,
      () => `the 13th request (${calls(log)} made)`,
    );
    await until(
      () => storedObservations(storePath) === 12,
      () => `12 observations committed (${storedObservations(storePath)} are)`,
    );
    process.kill(-child.pid!, 'SIGKILL');
    await exited;
    // the held system answers into the closed pipe and ends (it is not in the run's process group)
    rmSync(hold);

    const store = new SqliteRunStore(storePath);
    const [row] = store.listRuns({ suite: 'tiny' });
    const kept = store.getObservations(row!.run_id).length;
    store.close();
    expect(row!.status).toBe('abandoned');
    expect(kept).toBe(12);

    const h = captureIo(dir);
    expect(await runCli(['history', 'tiny'], h)).toBe(0);
    expect(h.stdout.join('\n')).toContain(`${row!.run_id} (abandoned)`);

    const partial = captureIo(dir);
    expect(await runCli(['report', row!.run_id, '--format', 'md'], partial)).toBe(1);
    expect(partial.stdout.join('\n')).toContain(
      `partial run (abandoned): ${kept} of 36 planned requests made`,
    );

    const before = calls(log);
    const resumed = captureIo(dir);
    expect(await runCli(['run', '--resume', row!.run_id], resumed)).toBe(0);
    expect(calls(log) - before).toBe(36 - kept);
    const again = new SqliteRunStore(storePath);
    expect(again.getRun(row!.run_id)?.status).toBe('complete');
    expect(again.getObservations(row!.run_id)).toHaveLength(36);
    again.close();
    expect(await runCli(['run', '--resume', row!.run_id], captureIo(dir))).toBe(2);

    // the resumed run reports exactly what an uninterrupted run of the same suite reports
    const clean = captureIo(dir);
    expect(await runCli(['run', 'tiny', '--out-dir', 'clean'], clean)).toBe(0);
    const [cleanRun] = readdirSync(join(dir, 'clean', 'runs'));
    expect(deterministicPart(join(dir, '.rgate', 'runs', row!.run_id, 'report.json'))).toBe(
      deterministicPart(join(dir, 'clean', 'runs', cleanRun!, 'report.json')),
    );
  });
});
