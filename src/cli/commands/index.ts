import type { AnyCommand } from '../command.js';
import { COMMAND_SUMMARIES } from './summaries.js';

interface CommandEntry {
  name: string;
  load: () => Promise<AnyCommand>;
}

/**
 * Every command, in the order --help lists them; each lives in its own file in this folder. Loaded
 * lazily: `rgate score` should not pay for compiling the report schema or opening SQLite.
 */
export const commandEntries: readonly CommandEntry[] = [
  { name: 'init', load: async () => (await import('./init.js')).initCommand },
  { name: 'run', load: async () => (await import('./run-entry.js')).loadRunCommand() },
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
  { name: 'plan', load: async () => (await import('./plan.js')).planCommand },
  { name: 'baseline', load: async () => (await import('./baseline.js')).baselineCommand },
  { name: 'compare', load: async () => (await import('./compare.js')).compareCommand },
  { name: 'closeout', load: async () => (await import('./closeout.js')).closeoutCommand },
  { name: 'label', load: async () => (await import('./label.js')).labelCommand },
  { name: 'upload', load: async () => (await import('./upload.js')).uploadCommand },
  { name: 'server', load: async () => (await import('./server.js')).serverCommand },
];

/**
 * The command argv names (only that one is loaded), or all of them. When no argument names a command
 * (`rgate --help`, bare `rgate`, a typo) they are listed from their summaries without being loaded:
 * no handler can run then, so a listed command needs only its usage line and description.
 */
export async function loadCommands(argv: readonly string[]): Promise<AnyCommand[]> {
  const first = argv.find((a) => !a.startsWith('-'));
  const hit = commandEntries.find((e) => e.name === first);
  if (hit) return [await hit.load()];
  if (argv.some((a) => commandEntries.some((e) => e.name === a))) {
    return Promise.all(commandEntries.map((e) => e.load()));
  }
  return Promise.all(
    commandEntries.map(async (e) => {
      const summary = COMMAND_SUMMARIES[e.name];
      if (!summary) return e.load();
      const listed: AnyCommand = {
        command: summary[0],
        describe: summary[1],
        builder: (y) => y,
        handler: async (args, io) => (await e.load()).handler(args, io),
      };
      return listed;
    }),
  );
}
