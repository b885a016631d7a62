/** Systems under test: adapters (builtin, command, http, module), response normalizers, rgate.config.json. */
import { BuiltinAdapter } from './builtin-adapter.js';
import { CommandAdapter } from './command-adapter.js';
import { HttpAdapter } from './http-adapter.js';
import { ModuleAdapter } from './module-adapter.js';
import { FunctionAdapter } from './function-adapter.js';
import { RgateError } from '../core/errors.js';
import { CONTRACT_NAMES, isKnownContract } from './normalize/index.js';
import type { SystemSpec } from '../documents/index.js';
import type { SuiteContext, SystemAdapter } from './types.js';

export * from './types.js';
export { BuiltinAdapter } from './builtin-adapter.js';
export { CommandAdapter } from './command-adapter.js';
export { HttpAdapter } from './http-adapter.js';
export { ModuleAdapter } from './module-adapter.js';
export { FunctionAdapter, functionName } from './function-adapter.js';
export { checkSystemTemplates, expandArgv } from './placeholders.js';
export {
  CONTRACT_NAMES,
  normalizeResponse,
  normalizeText,
  type NormalizedResponse,
} from './normalize/index.js';
export {
  loadRgateConfig,
  findRgateConfig,
  resolveFixtureDir,
  resolveGatePath,
  type LoadedRgateConfig,
} from './rgate-config.js';

/**
 * Build the adapter a suite declares. Throws RgateError('config_invalid') for an unknown contract or a
 * bad argv template, before anything runs.
 * Example: createSystem({type: 'command', argv: ['my-retriever', '--q', '{query}'], contract: 'rgate'}, suite)
 */
export function createSystem(spec: SystemSpec, suite: SuiteContext, name?: string): SystemAdapter {
  if (spec.type !== 'builtin') {
    const contract =
      spec.contract ?? (spec.type === 'module' || spec.type === 'function' ? 'rgate' : 'context-pack');
    if (!isKnownContract(contract)) {
      throw new RgateError(
        'config_invalid',
        `system/contract: unknown response contract "${contract}"`,
        `known contracts: ${CONTRACT_NAMES.join(', ')}`,
        { at: 'system/contract' },
      );
    }
  }
  switch (spec.type) {
    case 'builtin':
      return new BuiltinAdapter(suite.corpus, suite.config, spec.mode);
    case 'command':
      return new CommandAdapter(spec, suite.config, suite.baseDir, name);
    case 'http':
      return new HttpAdapter(spec, name, suite.config);
    case 'module':
      return new ModuleAdapter(spec, suite.config, suite.baseDir, name);
    case 'function':
      return new FunctionAdapter(spec, suite.config, name);
  }
}
