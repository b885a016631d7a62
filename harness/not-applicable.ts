/**
 * Probes the suite's system cannot take: decided once from the system's spec (its request template),
 * before measuring, so the measures leave them out and the report says why and how to fix it.
 */
import type { QueryRecord, Report, SystemSpec } from '../src/documents/index.js';
import { exactKeyChannel, isExactKeyProbe } from '../src/systems/probe-inputs.js';

export interface NotApplicable {
  /** query id -> reason, for the measures */
  byQuery: Map<string, string>;
  /** the report's section; empty when the system can take every probe */
  section: NonNullable<Report['not_applicable']>;
}

export function notApplicableProbes(
  queries: readonly QueryRecord[],
  system: SystemSpec,
  builtinMode: string,
): NotApplicable {
  const probes = queries.filter(isExactKeyProbe);
  const channel = exactKeyChannel(system, builtinMode);
  if (probes.length === 0 || channel.receives) return { byQuery: new Map(), section: [] };
  const reason = `exact-key probe: ${channel.reason}`;
  return {
    byQuery: new Map(probes.map((q) => [q.query_id, reason])),
    section: [
      {
        input: 'exact_key',
        query_ids: probes.map((q) => q.query_id),
        reason: channel.reason,
        fix: channel.fix,
      },
    ],
  };
}
