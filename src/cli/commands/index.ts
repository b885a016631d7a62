import type { AnyCommand } from '../command.js';
import { runCommand } from './run.js';
import { scoreCommand } from './score.js';
import { importCommand } from './import.js';
import { freezeCommand } from './freeze.js';
import { verifyCommand } from './verify.js';
import { reportCommand } from './report.js';
import { historyCommand } from './history.js';
import { diffCommand } from './diff.js';
import { baselineCommand } from './baseline.js';
import { compareCommand } from './compare.js';
import { closeoutCommand } from './closeout.js';
import { retrieveCommand } from './retrieve.js';

/** Every command, in the order --help lists them. Each lives in its own file in this folder. */
export const commands: AnyCommand[] = [
  runCommand,
  importCommand,
  freezeCommand,
  verifyCommand,
  scoreCommand,
  reportCommand,
  historyCommand,
  diffCommand,
  baselineCommand,
  compareCommand,
  closeoutCommand,
  retrieveCommand,
];
