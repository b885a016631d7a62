import { describe, expect, it } from 'vitest';
import { buildHistory } from '../history/trends.js';
import { diffReports } from '../history/diff.js';
import {
  renderDiffMarkdown,
  renderDiffTerminal,
  renderHistoryHtml,
  renderHistoryMarkdown,
  renderHistoryTerminal,
} from '../reports/history/trends.js';
import {
  renderSessionHtml,
  renderSessionJson,
  renderSessionMarkdown,
  renderSessionTerminal,
} from '../reports/history/compare.js';
import { renderCloseoutHtml, renderCloseoutMarkdown } from '../reports/history/closeout.js';
import { artifacts, outcome, rate, report } from './history-helpers.js';
import { EVIL, hostileCloseout, hostileSession } from './compare-helpers.js';
import { SETTINGS } from './helpers/run-rows.js';

function visibleWidth(line: string): number {
  return [...line].length;
}

describe('comparison renderers', () => {
  const s = hostileSession();

  it('terminal: 80 columns, control characters neutralised, winner named', () => {
    const text = renderSessionTerminal(s);
    for (const line of text.split('\n')) expect(visibleWidth(line)).toBeLessThanOrEqual(80);
    expect(text).not.toContain('\u001b');
    expect(text).toContain('top1_useful_rate: v2');
    expect(text).toMatch(/Top-1 flips v1 -> v2 \(20\)/);
  });

  it("states the test behind p in every format: sign-flip, or Student's t with --test t", () => {
    const t = { ...s, settings: { ...s.settings, test: 't' as const } };
    for (const render of [renderSessionTerminal, renderSessionMarkdown, renderSessionHtml]) {
      expect(render(s).replace(/\s+/g, ' ')).toContain('paired sign-flip randomization test');
      const text = render(t).replace(/\s+/g, ' ').replaceAll('&#x27;', "'");
      expect(text).toContain("paired Student's t-test, two-sided");
      expect(text).not.toContain('sign-flip');
    }
  });

  it('JSON is deterministic: the same inputs give the same bytes', () => {
    expect(renderSessionJson(hostileSession())).toBe(renderSessionJson(s));
  });

  it('HTML: hostile text is escaped everywhere, including the chart data; no external script', () => {
    const page = renderSessionHtml(s);
    expect(page).not.toContain('<script>alert(1)');
    expect(page).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.match(/<script/g)!.length).toBe(3); // data block, chart.js, client
    expect(page).not.toMatch(/<script[^>]+src=/);
    expect(page).toContain('script-src &#x27;sha256-');
    expect(page).toContain('<canvas id="deltas"');
  });

  it('Markdown: no raw HTML, no live mention, no link', () => {
    const md = renderSessionMarkdown(s);
    expect(md).not.toContain('<script>');
    expect(md).not.toContain('@here');
    expect(md).not.toMatch(/[^\\]\[x\]\(http/);
    expect(md).toContain('\\[x\\](http://evil)');
  });
});

describe('history and diff renderers', () => {
  const runs = [1, 2, 3].map((i) => ({
    row: {
      run_id: `r${i}`,
      suite: 'ctx',
      started_at: `2026-11-0${i}T00:00:00Z`,
      artifacts: artifacts(),
      settings: SETTINGS,
      status: 'complete' as const,
      finished_at: null,
      gate_id: 'g',
      verdict: (i === 3 ? 'FAIL' : 'PASS') as 'PASS' | 'FAIL',
      observation_count: 1,
    },
    metrics: [rate('top1_useful_rate', i === 3 ? 30 : 45, 50, [0.78, 0.96])],
  }));
  const h = buildHistory('ctx', [...runs].reverse(), {
    gateRules: [{ metric: 'top1_useful_rate', op: 'min' }],
  });

  it('terminal shows the sparkline, the delta and the alarms within 80 columns', () => {
    const text = renderHistoryTerminal(h);
    for (const line of text.split('\n')) expect(visibleWidth(line)).toBeLessThanOrEqual(80);
    expect(text).toContain('██▁');
    expect(text).toContain('-0.3');
    expect(text).toContain('verdict worsened: PASS (r2) -> FAIL (r3)');
    expect(renderHistoryMarkdown(h)).toContain('**Regression alarms**');
    expect(renderHistoryHtml(h)).toContain('<canvas id="trend-0"');
  });

  it('diff escapes hostile query ids and texts', () => {
    const a = report({ runId: 'A', queries: [{ ...outcome('<q>', { top1: 'useful' }), text: EVIL }] });
    const b = report({
      runId: 'B',
      queries: [{ ...outcome('<q>', { top1: 'not_useful', selected: '\u001b[31mx' }), text: EVIL }],
    });
    const d = diffReports(a, b);
    expect(renderDiffTerminal(d)).not.toContain('\u001b');
    expect(renderDiffMarkdown(d)).not.toMatch(/[^`]<q>/);
    expect(renderDiffMarkdown(d)).toContain('`<q>`');
  });
});

describe('closeout renderers', () => {
  const c = hostileCloseout();

  it('Markdown has every section, the reset note, the residual owner and a sign-off line, all escaped', () => {
    const md = renderCloseoutMarkdown(c);
    for (const h of [
      '## 1. Fixture freeze binding',
      '## 2. Evaluated run and baseline',
      '## 3. Observed vs target',
      '## 4. Determinism proof',
      '## 5. Budget compliance',
      '## 6. Failing queries',
      '## 7. Residual risks',
      '## 8. Sign-off',
    ]) {
      expect(md).toContain(h);
    }
    expect(md).toContain('**Baseline reset note**');
    expect(md).toContain('| Retrieval owner | ____________________ | ____________ |');
    // hostile text is escaped, or shown literally inside a code span (mdCode drops backticks, so
    // none can end the span early): outside code spans no tag and no mention survive
    const outsideCode = md.replace(/`[^`\n]*`/g, '');
    expect(outsideCode).not.toContain('<script>');
    expect(outsideCode).not.toMatch(/(^|[^\w])@here/);
    expect(md).toContain('`note=</script><script>alert(1)</script> @here [x](http://evil) \\u001b[2J`');
    expect(md).not.toContain('@mara');
    expect(md).toContain('| uplift ≥ 10.0% vs baseline | 20.0% (baseline 0.5) | PASS |');
  });

  it('HTML escapes hostile text and draws the observed-vs-target chart', () => {
    const page = renderCloseoutHtml(c);
    expect(page).not.toContain('<script>alert(1)');
    expect(page).toContain('<canvas id="rules"');
  });
});
