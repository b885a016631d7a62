import { describe, expect, it } from 'vitest';
import { hostileCloseout } from '../../test/compare-helpers.js';
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
});
