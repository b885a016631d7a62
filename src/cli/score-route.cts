/**
 * Whether argv is `rgate score ...` (optionally after --debug), and its arguments without the word
 * `score`. A help or version request is not: yargs lays those out. No imports: bin.cts decides with
 * this before loading anything else.
 */
export function scoreArgv(argv: readonly string[]): string[] | undefined {
  const at = argv.findIndex((a) => !a.startsWith('-') || a === '-');
  if (at < 0 || argv[at] !== 'score') return undefined;
  const end = argv.indexOf('--');
  const options = end < 0 ? argv : argv.slice(0, end);
  if (options.some((a) => a === '--help' || a === '-h' || a === '--version')) return undefined;
  return [...argv.slice(0, at), ...argv.slice(at + 1)];
}
