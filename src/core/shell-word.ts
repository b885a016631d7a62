/**
 * A word as a POSIX shell reads it back, for the commands rgate prints for a user to run (hints,
 * PROVENANCE.md, init's next steps): left bare when it holds only characters no shell splits or
 * expands, else single-quoted. `~` is quoted: a bare one at a word's start would be expanded.
 */
export function shellWord(w: string): string {
  return /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}
