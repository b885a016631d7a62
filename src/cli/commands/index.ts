import type { AnyCommand } from '../command.js';

interface CommandEntry {
  name: string;
  load: () => Promise<AnyCommand>;
}

/**
 * Every command, in the order --help lists them; each lives in its own file in this folder. Loaded
 * lazily: `rgate score` should not pay for compiling the report schema or opening SQLite.
 */
export const commandEntries: readonly CommandEntry[] = [
  { name: 'run', load: async () => (await import('./run.js')).runCommand },
  { name: 'merge', load: async () => (await import('./merge.js')).mergeCommand },
  { name: 'import', load: async () => (await import('./import.js')).importCommand },
  { name: 'probes', load: async () => (await import('./probes.js')).probesCommand },
  { name: 'freeze', load: async () => (await import('./freeze.js')).freezeCommand },
  { name: 'verify', load: async () => (await import('./verify.js')).verifyCommand },
  { name: 'score', load: async () => (await import('./score.js')).scoreCommand },
  { name: 'retrieve', load: async () => (await import('./retrieve.js')).retrieveCommand },
  { name: 'report', load: async () => (await import('./report.js')).reportCommand },
  { name: 'history', load: async () => (await import('./history.js')).historyCommand },
  { name: 'diff', load: async () => (await import('./diff.js')).diffCommand },
  { name: 'baseline', load: async () => (await import('./baseline.js')).baselineCommand },
  { name: 'compare', load: async () => (await import('./compare.js')).compareCommand },
  { name: 'closeout', load: async () => (await import('./closeout.js')).closeoutCommand },
  { name: 'label', load: async () => (await import('./label.js')).labelCommand },
];

/** The command argv names (only that one is loaded), or all of them for top-level help and typos. */
export async function loadCommands(argv: readonly string[]): Promise<AnyCommand[]> {
  const first = argv.find((a) => !a.startsWith('-'));
  const hit = commandEntries.find((e) => e.name === first);
  return Promise.all((hit ? [hit] : commandEntries).map((e) => e.load()));
}
