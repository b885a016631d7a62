import type { MeasureValue } from '../../documents/index.js';
import type { GateContext } from './_context.js';
import { quantiles } from './_values.js';

/**
 * Latency quantiles overall and per profile (keys "all", "profile:<name>"): p50/p95/p99 of latency_ms
 * over requests (all replays, errored and timed-out ones included), nearest-rank method; n = requests.
 * Timing-dependent, so kept apart from the byte-stable report body.
 */
export function latencyQuantiles(ctx: GateContext): Record<string, MeasureValue> {
  const out: Record<string, MeasureValue> = { all: quantiles(ctx.observations.map((o) => o.latency_ms)) };
  const byProfile = new Map<string, number[]>();
  for (const q of ctx.queries) {
    for (const o of ctx.all(q)) {
      const p = o.profile ?? q.profile;
      if (!p) continue;
      const list = byProfile.get(p) ?? [];
      list.push(o.latency_ms);
      byProfile.set(p, list);
    }
  }
  for (const p of [...byProfile.keys()].sort()) out[`profile:${p}`] = quantiles(byProfile.get(p)!);
  return out;
}
