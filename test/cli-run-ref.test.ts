/**
 * Every command that takes a run id takes a unique prefix of one too (issue #14): ids are 23
 * characters and used to wrap in a terminal. Real CLI in-process, real SQLite history.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/program.js';
import { SqliteRunStore } from '../src/store/index.js';
import { captureIo } from './helpers/cli-io.js';
import { outcome, report, storeRun, tempDir } from './history-helpers.js';

const tmp = tempDir('rgate-run-ref-');
afterAll(() => tmp.cleanup());
const db = join(tmp.dir, 'history.sqlite');
{
  const store = new SqliteRunStore(db);
  for (const [id, at] of [
    ['20261123T100000Z-aaa111', '2026-11-23T10:00:00Z'],
    ['20261123T100000Z-aab222', '2026-11-23T10:00:01Z'],
    ['20261124T090000Z-ccc333', '2026-11-24T09:00:00Z'],
    ...[1, 2, 3, 4, 5, 6, 7, 8].map(
      (i) => [`20261125T00000${i}Z-ddd00${i}`, `2026-11-25T00:00:0${i}Z`] as const,
    ),
  ] as const) {
    storeRun(store, report({ runId: id, queries: [outcome('q1', { top1: 'useful' })] }), { startedAt: at });
  }
  store.close();
}

async function cli(...argv: string[]) {
  const io = captureIo(tmp.dir);
  const code = await runCli([...argv, '--store', db, '--out-dir', tmp.dir], io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

describe('run id prefixes', () => {
  it('diff, report, baseline set accept a unique prefix', async () => {
    const d = await cli('diff', '20261123T100000Z-aaa', '20261124');
    expect(d.err).toBe('');
    expect(d.out).toContain('Diff 20261123T100000Z-aaa111 -> 20261124T090000Z-ccc333');
    const r = await cli('report', '20261124', '--format', 'json');
    expect(JSON.parse(r.out).environment.run_id).toBe('20261124T090000Z-ccc333');
    const b = await cli('baseline', 'set', 'ctx', '20261123T100000Z-aab');
    expect(b.code).toBe(0);
    expect(b.out).toContain('20261123T100000Z-aab222');
  });

  it('an ambiguous prefix is refused with its candidates (exit 2)', async () => {
    const d = await cli('diff', '20261123T1000', '20261124');
    expect(d.code).toBe(2);
    expect(d.err).toContain(
      'run id prefix "20261123T1000" matches 2 runs: 20261123T100000Z-aab222, 20261123T100000Z-aaa111',
    );
    expect(d.err).toContain('hint: type more of the id');
  });

  it('names the newest five of many candidates and counts the rest', async () => {
    const d = await cli('diff', '20261125', '20261124');
    expect(d.code).toBe(2);
    expect(d.err).toContain(
      'run id prefix "20261125" matches 8 runs: 20261125T000008Z-ddd008, 20261125T000007Z-ddd007, 20261125T000006Z-ddd006, 20261125T000005Z-ddd005, 20261125T000004Z-ddd004 and 3 more',
    );
  });

  it('reads `_` and `%` in a prefix as themselves, not as wildcards', async () => {
    for (const prefix of ['2026112_T', '20261124%', '20261124t']) {
      const d = await cli('report', prefix, '--format', 'json');
      expect(d.code, prefix).toBe(2);
      expect(d.err, prefix).not.toContain('matches');
      expect(d.out, prefix).toBe('');
    }
  });
});
