import { describe, expect, it } from 'vitest';
import { decodeEntities, htmlToText, markdownTitle } from './html-text.js';

describe('html text', () => {
  it('takes <pre> content verbatim (raw < kept, as in CACM)', () => {
    expect(htmlToText('<html>\n<pre>\n\nsets (1 <= m <= n) &amp; more\n</pre>\n</html>\n')).toEqual({
      text: 'sets (1 <= m <= n) & more',
    });
  });
  it('strips tags, scripts and styles otherwise, and reads <title>', () => {
    expect(htmlToText('<title>A &lt;b&gt;</title><style>p{}</style><p>one</p><p>two&#33;</p>')).toEqual({
      title: 'A <b>',
      text: 'one\ntwo!',
    });
  });
  it('decodes entities but leaves a bare & alone', () => {
    expect(decodeEntities('a & b &amp; &#x41; &nosuch;')).toBe('a & b & A &nosuch;');
  });
  it('finds the first ATX heading of Markdown', () => {
    expect(markdownTitle('intro\n## Rules ##\n# Later')).toBe('Rules');
    expect(markdownTitle('no heading')).toBeUndefined();
  });
});
