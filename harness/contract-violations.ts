import type { ContractViolations, Observation, QueryRecord } from '../src/documents/index.js';

/** A violation line as a rule: array indices in its JSON path become `*` (`/files/3/x: m` -> `/files/*\/x: m`). */
export function violationRule(line: string): string {
  const at = line.indexOf(': ');
  const path = at < 0 ? line : line.slice(0, at);
  return path.replace(/\/\d+(?=\/|$)/g, '/*') + (at < 0 ? '' : line.slice(at));
}

/**
 * The run's measured answers that break their contract, by rule, most frequent first (ties by rule).
 * Undefined when none does, so a run of valid answers reports exactly what it did before.
 */
export function contractViolations(
  queries: readonly QueryRecord[],
  observations: readonly Observation[],
): ContractViolations | undefined {
  const order = new Map(queries.map((q, i) => [q.query_id, i]));
  const measured = observations
    .filter((o) => o.ok)
    .sort((a, b) => (order.get(a.query_id) ?? 0) - (order.get(b.query_id) ?? 0) || a.replay - b.replay);
  const violating = measured.filter((o) => !o.contract.valid);
  if (violating.length === 0) return undefined;
  const rules = new Map<
    string,
    {
      requests: number;
      /** in first-seen order, which is query set order (the observations are sorted so) */
      queries: Set<string>;
      first: { query_id: string; replay: number; line: string };
    }
  >();
  for (const o of violating) {
    const seen = new Set<string>();
    for (const line of o.contract.errors) {
      const rule = violationRule(line);
      let r = rules.get(rule);
      if (!r) {
        r = { requests: 0, queries: new Set(), first: { query_id: o.query_id, replay: o.replay, line } };
        rules.set(rule, r);
      }
      if (seen.has(rule)) continue; // a rule counts once per request, however many entries break it
      seen.add(rule);
      r.requests++;
      r.queries.add(o.query_id);
    }
  }
  return {
    contract: violating[0]!.contract.name,
    measured: measured.length,
    violating: violating.length,
    rules: [...rules.entries()]
      .map(([rule, r]) => ({
        rule,
        requests: r.requests,
        queries: r.queries.size,
        first: r.first,
        examples: [...r.queries].slice(0, 5),
      }))
      .sort((a, b) => b.requests - a.requests || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0)),
  };
}
