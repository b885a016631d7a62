/**
 * Escaping for each output medium. Query texts, ids and paths come from corpora and query sets and
 * are hostile input: they must never become markup, a terminal control sequence, a Markdown link or
 * mention, or break out of a JSON script block.
 */

/**
 * Terminal: C0/C1 controls (ANSI escapes could clear the screen or fake a verdict), line and
 * paragraph separators and bidi overrides (Trojan-source style reordering) shown as `\uXXXX`.
 */
export function terminalSafe(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => {
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

/**
 * Markdown (GitHub step summary / PR comment), inline in a table cell: HTML-escaped (GitHub renders
 * inline HTML), Markdown punctuation backslash-escaped (pipes included), line breaks shown as `\u`
 * escapes, and `@` neutralised so a query cannot ping people.
 */
export function mdEscape(s: string): string {
  return (
    terminalSafe(s)
      // punctuation that can start emphasis, code, links or cells anywhere in a line
      .replace(/([\\`*_[\]|~])/g, '\\$1')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      // a zero-width space after a mention-like @ (not inside words: ids such as corpus@v1 stay
      // copyable) keeps the text but stops GitHub from notifying anyone
      .replace(/(^|[^\w])@(?=\w)/g, '$1@\u200b')
  );
}

/** Markdown code span for ids and hashes: backticks removed (they would end the span), then escaped. */
export function mdCode(s: string): string {
  const t = terminalSafe(s).replace(/`/g, "'").replace(/\|/g, '\\|');
  return `\`${t}\``;
}

/**
 * XML 1.0 attribute/text: the five entities, and characters XML 1.0 cannot carry at all (most C0
 * controls, lone surrogates, U+FFFE/FFFF) replaced by U+FFFD so the file always parses.
 */
export function xmlEscape(s: string): string {
  return (
    s
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '\ufffd')
      .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
      // keep line breaks in attributes as breaks (attribute value normalisation would turn them into spaces)
      .replace(/\n/g, '&#10;')
      .replace(/\r/g, '&#13;')
      .replace(/\t/g, '&#9;')
  );
}

/**
 * JSON for a `<script type="application/json">` block: `<`, `>`, `&` and U+2028/2029 as \u escapes,
 * so `</script>` or `<!--` in the data cannot end or alter the block.
 */
export function jsonForScript(value: unknown): string {
  const json = JSON.stringify(value);
  // a trend page's charts are 1.5 MB of JSON with nothing to escape: the test is a plain scan,
  // where the replace with a callback cost five times the stringify itself
  return SCRIPT_UNSAFE.test(json)
    ? json.replace(SCRIPT_UNSAFE_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    : json;
}

const SCRIPT_UNSAFE = /[<>&\u2028\u2029]/;
const SCRIPT_UNSAFE_ALL = /[<>&\u2028\u2029]/g;
