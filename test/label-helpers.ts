/**
 * A small real project for the labeling-queue tests: `fixtures/mini` cut from the bundled Cranfield
 * set (its first 300 documents, the first 6 queries that keep a judgment among them, qrels limited to
 * those documents), a BM25 suite on it, and the CLI run in this process.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../src/cli/program.js';
import { captureIo } from './helpers/cli-io.js';
import { REPO } from './helpers/dist.js';

export function makeMiniProject(dir: string): void {
  const src = join(REPO, 'fixtures', 'cranfield');
  const set = join(dir, 'fixtures', 'mini');
  mkdirSync(set, { recursive: true });
  const docs = readFileSync(join(src, 'corpus.jsonl'), 'utf8').split('\n').filter(Boolean).slice(0, 300);
  const ids = new Set(docs.map((l) => (JSON.parse(l) as { id: string }).id));
  const queries: string[] = [];
  for (const line of readFileSync(join(src, 'queries.jsonl'), 'utf8').split('\n').filter(Boolean)) {
    const q = JSON.parse(line) as { qrels?: Record<string, number> };
    const qrels = Object.fromEntries(Object.entries(q.qrels ?? {}).filter(([d]) => ids.has(d)));
    if (Object.keys(qrels).length) queries.push(JSON.stringify({ ...q, qrels }));
    if (queries.length === 6) break;
  }
  writeFileSync(join(set, 'corpus.jsonl'), docs.join('\n') + '\n');
  writeFileSync(join(set, 'queries.jsonl'), queries.join('\n') + '\n');
  writeFileSync(join(set, 'config.json'), JSON.stringify({ mode: 'bm25', k: 20 }));
  const suite = {
    fixture: 'mini',
    system: { type: 'builtin', mode: 'bm25' },
    config: { mode: 'bm25', k: 20 },
    replays: 2,
    relevance_level: 1,
    ranking_measures: ['map', 'P.5'],
    gate: null,
  };
  writeFileSync(
    join(dir, 'rgate.config.json'),
    JSON.stringify({ suites: { mini: suite }, default_suites: ['mini'] }, null, 2),
  );
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The CLI in this process, in `cwd`, colour off: what the labeling tests check is what the commands
 * print and write, not a process's life (the real-process tests do that), and a child process per
 * call cost the label tests about half their CPU.
 */
export async function rgate(args: readonly string[], cwd: string): Promise<CliResult> {
  const io = captureIo(cwd, { ...process.env, NO_COLOR: '1' });
  const code = await runCli([...args], io);
  const text = (lines: string[]) => (lines.length ? lines.join('\n') + '\n' : '');
  return { code, stdout: text(io.stdout), stderr: text(io.stderr) };
}

/** Freeze the mini set and compare two BM25 settings on it; the session id. */
export async function miniSession(dir: string): Promise<string> {
  const f = await rgate(['freeze', 'mini', '--date', '2026-11-01'], dir);
  if (f.code !== 0) throw new Error(f.stderr);
  const c = await rgate(
    [
      'compare',
      'mini',
      '--set',
      'bm25.k1=0.9',
      '--set',
      'bm25.k1=1.6 bm25.b=0.9',
      '--replays',
      '1',
      '--resamples',
      '200',
      '--permutations',
      '200',
      '--json',
    ],
    dir,
  );
  if (c.code !== 0) throw new Error(c.stderr);
  return (JSON.parse(c.stdout) as { environment: { session_id: string } }).environment.session_id;
}
