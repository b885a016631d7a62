import type { AnyCommand } from '../command.js';

/** Every command, in the order --help lists them. Each lives in its own file in this folder. */
export const commands: AnyCommand[] = [];
