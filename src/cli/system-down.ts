import type { SystemSpec } from '../documents/index.js';
import { CONTRACT_NAMES, contractsReadAs } from '../systems/normalize/index.js';
import { configLocation } from '../systems/rgate-config.js';
import type { SystemDown } from '../../harness/run-suite.js';

/**
 * What `rgate run` says of a suite none of whose requests succeeded: the first line what happened,
 * then, when the failures point at the suite's config (answers the contract it names cannot measure,
 * or nothing answering at its url), a hint naming that place in rgate.config.json.
 * Example: systemDownLines('x', down, spec, '/p/rgate.config.json')
 */
export function systemDownLines(
  suite: string,
  d: SystemDown,
  system: SystemSpec,
  configFile: string,
): string[] {
  // the requests made, not the ones planned: the run stopped before the rest were made
  const counted =
    d.failed_requests === d.planned_requests
      ? `all ${d.planned_requests} requests`
      : `all ${d.failed_requests} requests made (of ${d.planned_requests} planned)`;
  const place = (key: string): string => {
    const pointer = `/suites/${suite}/system/${key}`;
    return `${configLocation(configFile, pointer)} ${pointer}`;
  };
  const u = d.unmeasurable;
  if (u && system.type !== 'builtin') {
    const contract = system.contract ?? 'context-pack';
    const named =
      system.contract === undefined ? `"${contract}" (the default, none is set)` : `"${contract}"`;
    const others = contractsReadAs(u.first_message);
    const which = u.requests === d.failed_requests ? 'all' : `${u.requests}`;
    return [
      `rgate: suite ${suite}: no answer could be measured: ${counted} failed and none succeeded, ${which} of them answers that broke contract ${named}, so the run stopped (first: ${u.first_message})`,
      others.length > 0
        ? `  hint: ${place('contract')}: the answers read as ${others.join(' or ')}: set it to "${others[0]}"`
        : `  hint: ${place('contract')}: set the contract the system's answers follow (known: ${CONTRACT_NAMES.join(', ')}), or fix its answers`,
    ];
  }
  const lines = [
    `rgate: suite ${suite}: the system under test is down: ${counted} failed and none succeeded, so the run stopped (first error: ${d.first_error.kind}: ${d.first_error.message})`,
  ];
  if (d.first_error.kind === 'connection_failed' && system.type === 'http')
    lines.push(
      // a reset means something is listening: it took the connection and dropped it unanswered
      /\b(?:ECONNRESET|EPIPE)\b/.test(d.first_error.message)
        ? `  hint: ${place('url')}: something there accepted the connection and closed it without an answer: check that it is the system (and its log: it may have crashed on the request)`
        : `  hint: ${place('url')}: nothing answered there: start the system, or fix the url`,
    );
  return lines;
}
