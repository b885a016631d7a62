const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Decode the common named entities and numeric references; anything unknown (a bare `&`) stays. */
export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-zA-Z]+);/g, (m, e: string) => {
    if (e[0] === '#') {
      const cp = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(cp) && cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

/**
 * Plain text of an HTML document. When it has `<pre>` blocks their content is the text, taken
 * verbatim (CACM's `<pre>` bodies hold raw `<` characters such as `1 <= m <= n`, so no tag
 * stripping there); otherwise scripts/styles are dropped and tags removed.
 */
export function htmlToText(html: string): { title?: string; text: string } {
  const t = /<title[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html);
  const title = t ? decodeEntities(t[1]!.replace(/\s+/g, ' ').trim()) : undefined;
  const pres = [...html.matchAll(/<pre[^>]*>([\s\S]*?)<\/pre\s*>/gi)].map((m) => m[1]!);
  let text: string;
  if (pres.length > 0) text = pres.join('\n');
  else
    text = html
      .replace(/<(script|style|title)[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ')
      .replace(/<!--[\s\S]*?-->/g, ' ')
      .replace(/<(br|\/p|\/div|\/h\d|\/li|\/tr)[^>]*>/gi, '\n')
      .replace(/<[^>]+>/g, ' ')
      .replace(/[ \t]+/g, ' ')
      .replace(/ *\n */g, '\n');
  text = decodeEntities(text).replace(/\r\n?/g, '\n').trim();
  return title ? { title, text } : { text };
}

/** Title of a Markdown document: its first ATX heading (`#` to `######`). */
export function markdownTitle(md: string): string | undefined {
  const m = /^#{1,6}[ \t]+(.+?)[ \t#]*$/m.exec(md);
  return m ? m[1] : undefined;
}
