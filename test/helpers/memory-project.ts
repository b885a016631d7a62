/**
 * A small project on disk for the system-params and probes tests: one fixture set `notes` (6 records
 * in three folders, 4 judged queries that all pass the SUT's confidence gate, so nothing falls back),
 * a gate that asks for fallback evidence, and a suite running test/sut/memory-modes.mjs, a real
 * command whose `--mode` comes from `system.params.mode`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const MEMORY_SUT = resolve(import.meta.dirname, '..', 'sut', 'memory-modes.mjs');

const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

export function writeMemoryProject(dir: string, modeLog: string): void {
  const set = join(dir, 'fixtures', 'notes');
  mkdirSync(set, { recursive: true });
  const doc = (id: string, path: string, text: string) => ({ id, source_path: path, title: id, text });
  writeFileSync(
    join(set, 'corpus.jsonl'),
    jsonl([
      doc('alpha', 'docs/ops/alpha.md', 'deploy freeze holiday calendar'),
      doc('bravo', 'docs/ops/bravo.md', 'deploy freeze holiday calendar'),
      doc('charlie', 'docs/dev/charlie.md', 'database migration rollback plan'),
      doc('delta', 'docs/dev/delta.md', 'database migration rollback plan'),
      doc('echo', 'notes/echo.md', 'oncall paging escalation policy'),
      doc('foxtrot', 'notes/foxtrot.md', 'release checklist and sign off'),
    ]),
  );
  writeFileSync(
    join(set, 'queries.jsonl'),
    jsonl([
      { query_id: 'q1', text: 'deploy freeze', qrels: { alpha: 1 } },
      { query_id: 'q2', text: 'database rollback', qrels: { charlie: 1 } },
      { query_id: 'q3', text: 'oncall paging', qrels: { echo: 1 } },
      { query_id: 'q4', text: 'release checklist', qrels: { foxtrot: 1 } },
    ]),
  );
  writeFileSync(join(set, 'config.json'), JSON.stringify({ mode: 'semantic', k: 5 }, null, 2) + '\n');
  writeFileSync(
    join(dir, 'fallback.gate.json'),
    JSON.stringify({
      gate_id: 'fallback-evidence',
      version: '1.0.0',
      description: 'fallback outcome identical in every replay, over at least one fallback',
      min_queries: 1,
      rules: [{ metric: 'fallback_determinism', min: 1, min_denominator: 1 }],
    }),
  );
  writeFileSync(
    join(dir, 'rgate.config.json'),
    JSON.stringify({
      suites: {
        memory: {
          fixture: 'notes',
          system: {
            type: 'command',
            argv: [
              'node',
              MEMORY_SUT,
              '--root',
              '{corpus_dir}',
              '--query',
              '{query}',
              '--mode',
              '{params.mode}',
              '--top-k',
              '{k}',
            ],
            env: { SUT_MODE: '{params.mode}', SUT_MODE_LOG: modeLog },
            params: { mode: 'classic' },
            contract: 'rgate',
          },
          gate: 'fallback.gate.json',
          replays: 2,
        },
      },
    }),
  );
}
