import type { SystemSpec } from '../documents/index.js';
import { CONTRACT_NAMES, contractsReadAs } from '../systems/normalize/index.js';
import { configLocation } from '../systems/rgate-config.js';
import type { SystemDown } from '../../harness/run-suite.js';

/**
 * What `rgate run` says of a suite none of whose requests succeeded: the first line what happened,
 * then, when the failures point at the suite's config (every answer broke the contract it names, or
 * nothing answered at its url), a hint naming that place in rgate.config.json.
 * Example: systemDownLines('x', down, spec, '/p/rgate.config.json')
 */
export function systemDownLines(
  suite: string,
  d: SystemDown,
  system: SystemSpec,
  configFile: string,
): string[] {
  const { kind, message } = d.first_error;
  const counted = `${d.failed_requests} of ${d.planned_requests} requests`;
  const place = (key: string): string => {
    const pointer = `/suites/${suite}/system/${key}`;
    return `${configLocation(configFile, pointer)} ${pointer}`;
  };
  if (kind === 'contract_invalid' && d.same_kind && system.type !== 'builtin') {
    const contract = system.contract ?? 'context-pack';
    const named =
      system.contract === undefined ? `"${contract}" (the default, none is set)` : `"${contract}"`;
    const others = contractsReadAs(message);
    return [
      `rgate: suite ${suite}: no answer could be measured: ${counted} were answered and every answer broke contract ${named}, so the run stopped (first error: ${kind}: ${message})`,
      others.length > 0
        ? `  hint: ${place('contract')}: the answers read as ${others.join(' or ')}: set it to "${others[0]}"`
        : `  hint: ${place('contract')}: set the contract the system's answers follow (known: ${CONTRACT_NAMES.join(', ')}), or fix its answers`,
    ];
  }
  const lines = [
    `rgate: suite ${suite}: the system under test is down: ${counted} failed and none succeeded, so the run stopped (first error: ${kind}: ${message})`,
  ];
  if (kind === 'connection_failed' && system.type === 'http')
    lines.push(`  hint: ${place('url')}: nothing answered there: start the system, or fix the url`);
  return lines;
}
