/**
 * A gate metric that moves between variants whose rankings are identical is a label effect (issue
 * 24: memory-cli classic vs hybrid, top-1 useful +0.333 with 0 top-1 flips because hybrid labels every
 * answer hybrid_rrf). Every format says so; a real ranking change is never called one.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { checkSession, saveSession } from '../history/compare.js';
import { labelEffects } from '../history/compare-labels.js';
import {
  renderSessionHtml,
  renderSessionJson,
  renderSessionMarkdown,
  renderSessionTerminal,
} from '../reports/history/compare.js';
import { runCli } from '../src/cli/program.js';
import { SqliteRunStore } from '../src/store/index.js';
import { labelEffectSession } from './compare-helpers.js';
import { captureIo } from './helpers/cli-io.js';
import { tempDir } from './history-helpers.js';

const session = labelEffectSession;

describe('label effects in rgate compare', () => {
  it('names a gate metric that moved with 0 top-1 flips and every ranking measure tied', () => {
    const s = session((i) => `doc-${i}`);
    expect(s.flips[0]!.queries).toEqual([]);
    // part of the session's data, as built: the JSON carries them
    expect(s.label_effects).toEqual([
      {
        metric: 'top1_useful_rate',
        a: s.reference,
        b: 'v2',
        mean_delta: -2 / 3,
        tied_measures: ['top1_useful_any_mode', 'replay_determinism', 'ndcg_cut.5'],
      },
    ]);
    expect(JSON.parse(renderSessionJson(s)).label_effects).toEqual(s.label_effects);
    const t = renderSessionTerminal(s);
    expect(t).toContain('Label effects (a gate metric moved, the rankings did not)');
    // the report's semantic-win modes here are semantic only: hybrid_rrf answers are not wins
    expect(t.replace(/\n +/g, ' ')).toContain(
      'top1_useful_rate moved -0.6667 (v1 -> v2) with no ranking change: 0 top-1 flips, every other measure tied on every query (top1_useful_any_mode, replay_determinism, ndcg_cut.5)',
    );
    for (const line of t.split('\n')) expect([...line].length).toBeLessThanOrEqual(80);
    // per-variant values and selection-mode rates, in every format
    expect(s.variants.map((v) => v.selection_modes)).toEqual([
      { semantic: 12, fallback_path_priority: 6 },
      { hybrid_rrf: 18 },
    ]);
    expect(t).toContain('modes: semantic 12/18 (66.7%), fallback_path_priority 6/18 (33.3%)');
    expect(t).toContain('modes: hybrid_rrf 18/18 (100.0%)');
    expect(t).toContain('top1_useful_rate 0.6667 (12/18)');
    const md = renderSessionMarkdown(s);
    expect(md).toContain('### Label effects');
    expect(md).toContain(
      '| v2 | mode=hybrid | PASS | top1\\_useful\\_rate 1 (18/18) | hybrid\\_rrf 18/18 (100.0%) |',
    );
    const html = renderSessionHtml(s);
    expect(html).toContain('<h2 id="label-effects">');
    expect(html).toContain('hybrid_rrf 18/18 (100.0%)');
  });

  it('names no winner on the moved metric: best mean kept, winner withheld, in every format', () => {
    const s = session((i) => `doc-${i}`);
    const w = s.winners.find((x) => x.metric === 'top1_useful_rate')!;
    // p = 2/4096: significant, yet what it measured is the labelling
    expect(s.tests.find((t) => t.metric === 'top1_useful_rate')!.significant).toBe(true);
    expect(w).toMatchObject({ best: 'v1', winner: null, label_effect: true });
    expect(w.reason).toBe(
      "v1's lead over v2 is a label effect (0 top-1 flips, every ranking measure tied on every query): it comes from how the answers are labelled (e.g. their selection mode), not from what was retrieved; the test (Holm p=.0005) measures that labelling",
    );
    expect(JSON.parse(renderSessionJson(s)).winners).toEqual(s.winners);
    expect(renderSessionTerminal(s)).toContain('top1_useful_rate: no retrieval winner (a label effect)');
    expect(renderSessionMarkdown(s)).toContain(
      '- `top1_useful_rate`: no retrieval winner (a label effect): ',
    );
    expect(renderSessionHtml(s)).toContain('No retrieval winner on any metric (1 moved by labelling only');
    // a real ranking change keeps its winner
    const changed = session((i) => (i === 4 ? 'other-doc' : `doc-${i}`));
    expect(changed.winners.find((x) => x.metric === 'top1_useful_rate')!.winner).toBe('v1');
  });

  it('is silent when the rankings changed', () => {
    const s = session((i) => (i === 4 ? 'other-doc' : `doc-${i}`));
    expect(s.flips[0]!.queries).toHaveLength(1);
    expect(s.label_effects).toEqual([]);
    expect(renderSessionTerminal(s)).not.toContain('Label effects');
  });

  it('wraps a long variant label to the width instead of cutting it', () => {
    const s = session((i) => `doc-${i}`);
    s.variants[1]!.label = 'weighting_mode=evidence_outcome_bias retrieval_profile=strict_contract k=25';
    const t = renderSessionTerminal(s);
    for (const line of t.split('\n')) expect([...line].length).toBeLessThanOrEqual(80);
    expect(t.replace(/\n +/g, ' ')).toContain(s.variants[1]!.label);
  });
});

describe('label effects of a session stored before they were part of it', () => {
  it('are computed when it is read back, and every format shows them', () => {
    const built = session((i) => `doc-${i}`);
    const { label_effects, ...old } = built;
    const read = checkSession(JSON.parse(JSON.stringify(old)), 'cmp-labels', 'test store');
    expect(read.label_effects).toEqual(label_effects);
    expect(labelEffects(old)).toEqual(label_effects);
    expect(renderSessionMarkdown(read)).toContain('### Label effects');
    // a session that has them keeps them as stored
    expect(checkSession(built, 'cmp-labels', 'test store')).toBe(built);
  });

  it('a session stored naming a winner on a label effect is read back without it', () => {
    const built = session((i) => `doc-${i}`);
    const named = built.winners.map((w) =>
      w.metric === 'top1_useful_rate'
        ? {
            metric: w.metric,
            best: 'v1',
            winner: 'v1',
            reason: 'v1 beats every other variant (Holm-corrected p <= alpha)',
          }
        : w,
    );
    const read = checkSession({ ...built, winners: named }, 'cmp-labels', 'test store');
    expect(read.winners).toEqual(built.winners);
    expect(renderSessionTerminal(read)).not.toContain('beats every other variant');
  });

  it('rgate compare --show <id> --json prints them for a session stored without them', async () => {
    const t = tempDir('rgate-labels-');
    try {
      const { label_effects, ...old } = labelEffectSession((i) => `doc-${i}`);
      const store = new SqliteRunStore(join(t.dir, 'history.sqlite'));
      saveSession(store, old);
      store.close();
      const io = captureIo(t.dir);
      const args = ['compare', '--show', 'cmp-labels', '--json', '--store', join(t.dir, 'history.sqlite')];
      expect(await runCli(args, io)).toBe(0);
      expect(JSON.parse(io.stdout.join('\n')).label_effects).toEqual(label_effects);
    } finally {
      t.cleanup();
    }
  });
});
