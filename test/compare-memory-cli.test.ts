/**
 * `rgate compare` on memory-cli classic vs hybrid, as issue 33 met it: the real CLI (dist/) in a
 * child process replays AthenaMind memory-cli's recorded answers (test/sut/memory-cli-replay.mjs) on
 * six judged queries. Both modes select the same entry for every query; classic labels it
 * fallback_path_priority, hybrid hybrid_rrf. top1_useful_rate moves 0/6 -> 6/6 with a sign-flip p of
 * 2/64 = .0313, every ranking measure tied: a label effect, never a winner. Hybrid's gate FAILs
 * fallback_determinism 0/0 (nothing fell back), and the variant row says so. Every format the
 * command writes (terminal, JSON, Markdown, HTML) is read.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompareSession } from '../src/documents/index.js';
import { writeFreeze } from '../src/snapshot/index.js';
import { compiledCli, REPO } from './helpers/dist.js';
import { tempDir } from './history-helpers.js';
import { memoryCliRetrieveArgv } from './helpers/memory-cli-argv.js';

const REVIEW = 'how are memory entries reviewed before promotion';
const FAIL_WHY = 'fallback_determinism: insufficient evidence: 0/0, nothing was counted';

let root: string;
let cleanup: () => void;
let terminal: string;
let session: CompareSession;
let md: string;
let html: string;

beforeAll(() => {
  ({ dir: root, cleanup } = tempDir('rgate-compare-mcli-'));
  const set = join(root, 'fixtures', 'mcli');
  mkdirSync(set, { recursive: true });
  for (const f of ['corpus.jsonl', 'config.json'])
    cpSync(join(REPO, 'fixtures', 'memory-cli-set', f), join(set, f));
  // the recorded benchmark query six times: one relevant entry each, judged by qrels
  const queries = Array.from({ length: 6 }, (_, i) => ({
    query_id: `q-review-${i}`,
    text: REVIEW,
    qrels: { 'cli-commands-4a43d031': 1, 'process-docs-publish-policy-8905bc38': 0 },
  }));
  writeFileSync(join(set, 'queries.jsonl'), queries.map((q) => JSON.stringify(q)).join('\n') + '\n');
  writeFreeze(set, { frozenOn: '2026-11-28' });
  cpSync(join(REPO, 'gates'), join(root, 'gates'), { recursive: true });
  const argv = [
    ...memoryCliRetrieveArgv(join(REPO, 'test', 'sut', 'memory-cli-replay.mjs')),
    '--mode',
    '{params.mode}',
  ];
  const system = { type: 'command', argv, params: { mode: 'classic' }, contract: 'memory-cli-v1' };
  const suite = { fixture: 'mcli', system, gate: 'memory-cli-nightly-v0', replays: 2 };
  writeFileSync(join(root, 'rgate.config.json'), JSON.stringify({ suites: { memory: suite } }));
  const r = spawnSync(
    process.execPath,
    [
      compiledCli(),
      'compare',
      'memory',
      '--set',
      'system.params.mode=classic',
      '--set',
      'system.params.mode=hybrid',
    ],
    { cwd: root, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', COLUMNS: '80' } },
  );
  if (r.status !== 0) throw new Error(`rgate compare exited ${r.status}: ${r.stderr}`);
  terminal = r.stdout;
  const dir = join(root, '.rgate', 'compare');
  const [id] = readdirSync(dir);
  const file = (ext: string) => readFileSync(join(dir, id!, `session.${ext}`), 'utf8');
  session = JSON.parse(file('json')) as CompareSession;
  md = file('md');
  html = file('html');
}, 120_000);
afterAll(() => cleanup());

describe('rgate compare, memory-cli classic vs hybrid', () => {
  it("is the issue's state: a significant top-1 move with 0 flips and every ranking measure tied", () => {
    const t = session.tests.find((x) => x.metric === 'top1_useful_rate')!;
    expect([t.mean_a, t.mean_b, t.p_value, t.significant]).toEqual([0, 1, 2 / 64, true]);
    expect(session.flips[0]!.queries).toEqual([]);
    expect(session.label_effects).toEqual([
      expect.objectContaining({ metric: 'top1_useful_rate', a: 'v1', b: 'v2' }),
    ]);
  });

  it('names no winner on a label effect, as data, and every format says so', () => {
    const w = session.winners.find((x) => x.metric === 'top1_useful_rate')!;
    expect(w).toMatchObject({ best: 'v2', winner: null, label_effect: true });
    expect(w.reason).toContain("v2's lead over v1 is a label effect");
    expect(w.reason).toContain('the test (Holm p=.0313) measures that labelling');
    expect(session.winners.filter((x) => x.winner !== null)).toEqual([]);
    const flat = terminal.replace(/\n +/g, ' ');
    expect(flat).toContain(
      "top1_useful_rate: no retrieval winner (a label effect) v2's lead over v1 is a label effect",
    );
    expect(terminal).not.toContain('beats every other variant');
    expect(md).toContain(
      "- `top1_useful_rate`: no retrieval winner (a label effect): v2's lead over v1 is a label effect",
    );
    expect(md).not.toContain('**v2**');
    expect(html).toContain('No retrieval winner on any metric (1 moved by labelling only: a label effect)');
    expect(html).toMatch(
      /<td><code>top1_useful_rate<\/code><\/td>\s*<td>v2<\/td>\s*<td class="">none \(a label effect\)<\/td>/,
    );
  });

  it("gives a FAIL row its reason: the gate's first failing rule, in every format", () => {
    const [classic, hybrid] = session.variants;
    expect(hybrid).toMatchObject({ verdict: 'FAIL' });
    expect(hybrid!.verdict_reason).toMatch(new RegExp(`^${FAIL_WHY}; add fallback probes`));
    // classic WATCHes (top-1 needs 50 queries); its row says why too
    expect(classic).toMatchObject({ verdict: 'WATCH' });
    expect(classic!.verdict_reason).toMatch(/^top1_useful_rate: insufficient evidence: 0\/6/);
    const flat = terminal.replace(/\n +/g, ' ');
    expect(flat).toContain(`v2 FAIL system.params.mode=hybrid FAIL: ${FAIL_WHY}`);
    expect(flat).toContain(
      'v1* WATCH system.params.mode=classic WATCH: top1_useful_rate: insufficient evidence',
    );
    for (const line of terminal.split('\n')) expect([...line].length).toBeLessThanOrEqual(80);
    expect(md).toContain(`| v2 | system.params.mode=hybrid | FAIL: ${FAIL_WHY.replace(/_/g, '\\_')}`);
    expect(html).toContain(`<td class="FAIL">FAIL<br><span class="muted">${FAIL_WHY}`);
  });
});
