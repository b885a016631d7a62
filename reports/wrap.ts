/** Word wrap for the terminal renderers: prose lines and the text cells of fitted tables. */

/** Greedy word wrap of plain text to `width` code units; the first line starts with `firstIndent`, the rest with `indent`. */
export function wrap(text: string, width: number, indent = '', firstIndent = ''): string[] {
  const lines: string[] = [];
  let line = firstIndent;
  const blank = () => line === firstIndent || line === indent;
  for (const word of text.split(' ')) {
    let w = word;
    for (;;) {
      const candidate = blank() ? line + w : `${line} ${w}`;
      if (candidate.length <= width) {
        line = candidate;
        break;
      }
      if (!blank()) {
        lines.push(line);
        line = indent;
        continue;
      }
      // a word longer than a whole line: split it
      const room = width - line.length;
      lines.push(line + w.slice(0, room));
      line = indent;
      w = w.slice(room);
    }
  }
  if (!blank()) lines.push(line);
  return lines;
}
