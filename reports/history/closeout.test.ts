import { describe, expect, it } from 'vitest';
import { EVIL, hostileCloseout } from '../../test/compare-helpers.js';
import type { CloseoutDoc } from '../../src/documents/index.js';
import { renderCloseoutHtml, renderCloseoutMarkdown } from './closeout.js';

/** The page's text as a reader sees it: tags dropped, the entities handlebars writes decoded. */
function pageText(html: string): string {
  const body = html.slice(html.indexOf('<body'), html.lastIndexOf('</body>'));
  return body
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x3D;/g, '=')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

/**
 * What the Markdown is made of: its headings, and each labelled block ("Freeze rules:", "Pinned:",
 * "Overrides of the frozen config:"), named by the words before its colon.
 */
function markdownSections(md: string): string[] {
  const out: string[] = [];
  for (const line of md.split('\n')) {
    const heading = /^#+ (.*)$/.exec(line);
    if (heading) out.push(heading[1]!);
    const label = /^([A-Z][A-Za-z ]*):/.exec(line);
    if (label) out.push(`${label[1]}:`);
  }
  return out;
}

/** A failing Gate C closeout whose failing rules are ranking means, with the queries behind them. */
function withRankingEvidence(): CloseoutDoc {
  const c = hostileCloseout();
  c.ready = false;
  c.gate.verdict = 'FAIL';
  for (const r of c.gate.rules) r.status = 'fail';
  c.failing_queries = [];
  c.ranking_evidence = [
    {
      metric: 'ndcg_cut.5',
      rule: 'ndcg_cut.5 vs baseline',
      kind: 'vs_baseline',
      baseline_run_id: 'base',
      n: 3,
      improved: 1,
      tied: 0,
      dropped: 2,
      unpaired: 1,
      queries: [
        { query_id: 'q<1>', text: EVIL, value: 0, baseline: 0.8262, delta: -0.8262 },
        { query_id: 'q2', text: 'two', value: 0.25, baseline: 0.5, delta: -0.25 },
      ],
    },
    {
      metric: 'recall.10',
      rule: 'recall.10',
      kind: 'threshold',
      threshold: 0.8,
      n: 3,
      below: 1,
      queries: [{ query_id: 'q3', text: 'three', value: 0.5 }],
    },
    {
      metric: 'recall.10',
      rule: 'recall.10 vs baseline',
      kind: 'vs_baseline',
      baseline_run_id: 'base',
      n: 0,
      unavailable: 'the stored report of baseline run base cannot be read',
      queries: [],
    },
  ];
  return c;
}

describe('closeout HTML and Markdown', () => {
  it('every section and labelled block of the Markdown has its counterpart in the HTML', () => {
    const variants = [hostileCloseout()];
    const bare = hostileCloseout();
    bare.baseline = null;
    bare.run.overrides = [];
    bare.ready = false;
    bare.gate.verdict = 'FAIL';
    bare.gate.checklist = [{ id: 'pinned_artifacts', text: 'pinned', ok: false, evidence: 'e' }];
    bare.gate.source = 'seed 000';
    variants.push(bare);
    const sameVersion = hostileCloseout();
    sameVersion.baseline = { ...sameVersion.baseline!, version_changed: false, reset_note: null };
    variants.push(sameVersion);
    variants.push(withRankingEvidence());
    for (const c of variants) {
      const md = renderCloseoutMarkdown(c);
      const text = pageText(renderCloseoutHtml(c));
      const sections = markdownSections(md);
      expect(sections).toContain('Freeze rules:');
      const missing = sections.filter((s) => !text.includes(s.replace(/\s+/g, ' ')));
      expect(missing).toEqual([]);
    }
  });

  it('the HTML lists the freeze rules as the Markdown does', () => {
    const c = hostileCloseout();
    c.freeze.rules = ['queries change only with a version bump', 'a reset note names what moved'];
    const text = pageText(renderCloseoutHtml(c));
    expect(text).toContain(
      'Freeze rules: queries change only with a version bump a reset note names what moved',
    );
  });

  it('section 6 shows the queries behind the failing ranking rules in both, counts as n/d', () => {
    const c = withRankingEvidence();
    const md = renderCloseoutMarkdown(c);
    // a closing tag before punctuation reads as a space in pageText; the page shows none
    const text = pageText(renderCloseoutHtml(c)).replace(/ ([:.,])/g, '$1');
    const section = md.slice(md.indexOf('## 6.'), md.indexOf('## 7.'));
    expect(section).toContain('the queries behind each ranking rule follow.');
    expect(section).toContain(
      '`ndcg_cut.5 vs baseline` against baseline run `base`: dropped 2/3, tied 0/3, improved 1/3 (of the queries both runs measured; 1 measured in one run only, not compared).',
    );
    expect(section).toContain('| `q2` | two | 0.25 | 0.5 | -0.25 |');
    expect(section).toContain('`recall.10`: 1/3 queries below 0.8 (of the queries the run measured).');
    expect(section).toContain('| `q3` | three | 0.5 |');
    expect(section).toContain(
      '`recall.10 vs baseline`: the stored report of baseline run base cannot be read.',
    );
    // the hostile text stays text in both
    expect(section).not.toContain('<script>');
    expect(text).toContain(
      'ndcg_cut.5 vs baseline against baseline run base: dropped 2/3, tied 0/3, improved 1/3',
    );
    expect(text).toContain('Largest drops: query text run baseline delta q<1>');
    expect(text).toContain('q2 two 0.25 0.5 -0.25');
    expect(text).toContain('Lowest below the threshold: query text value q3 three 0.5');
    expect(text).toContain('recall.10 vs baseline: the stored report of baseline run base cannot be read.');
  });
});
