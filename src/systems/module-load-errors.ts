import { relative } from 'node:path';
import { RgateError } from '../core/errors.js';
import type { LoadProblem } from './module-thread-protocol.js';

/**
 * A module that cannot be loaded and called, as one line naming the file as the user gave it.
 * `file` is the module's absolute path (a syntax error in it is named by `shown`, one in a file it
 * imports by that file's path from the working directory).
 */
export function loadError(
  problem: LoadProblem,
  shown: string,
  exportName: string,
  file?: string,
): RgateError {
  const what = shown || 'the module';
  switch (problem.kind) {
    case 'syntax': {
      const where = problem.file === file ? shown : relative(process.cwd(), problem.file) || problem.file;
      return new RgateError(
        'input_invalid',
        `${where}:${problem.line}:${problem.column}: syntax error: ${problem.message}`,
        'fix the syntax there; rgate loads TypeScript and ESM as they are (jiti), no build step needed',
        { at: 'system/path' },
      );
    }
    case 'threw':
      return new RgateError(
        'input_invalid',
        `${what} threw while loading: ${problem.message}`,
        'the module runs from the top in each worker thread; what it needs at import (an index, a file, an env var) must be there',
        { at: 'system/path' },
      );
    case 'no_export':
      return new RgateError(
        'config_invalid',
        `system/export: ${what} has no export "${exportName}" (its exports: ${problem.available.length ? problem.available.join(', ') : 'none'})`,
        'name the function in "export" (rgate init --system module ./file.ts#name)',
        { at: 'system/export' },
      );
    case 'not_callable':
      return new RgateError(
        'config_invalid',
        `system/export: ${what}'s export "${exportName}" is ${problem.what === 'object' ? 'an object' : problem.what === 'null' ? 'null' : `a ${problem.what}`}, not a function (nor a LangChain.js or LlamaIndex.TS retriever)`,
        'export a function (request) => answer, or a retriever object with invoke() (LangChain.js) or retrieve() (LlamaIndex.TS)',
        { at: 'system/export' },
      );
  }
}
