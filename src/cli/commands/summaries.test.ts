import { describe, expect, it } from 'vitest';
import { commandEntries, loadCommands } from './index.js';
import { COMMAND_SUMMARIES } from './summaries.js';

describe('command summaries (rgate --help without loading the commands)', () => {
  it('name every command with the usage line and description its own file declares', async () => {
    for (const e of commandEntries) {
      const c = await e.load();
      expect(COMMAND_SUMMARIES[e.name], e.name).toEqual([c.command, c.describe]);
    }
    expect(Object.keys(COMMAND_SUMMARIES).sort()).toEqual(commandEntries.map((e) => e.name).sort());
  });

  it('top-level help lists every command; naming one loads that one', async () => {
    const listed = await loadCommands(['--help']);
    expect(listed.map((c) => c.command)).toEqual(commandEntries.map((e) => COMMAND_SUMMARIES[e.name]![0]));
    const one = await loadCommands(['score', '--help']);
    expect(one.map((c) => c.command)).toEqual(['score [files..]']);
  });
});
