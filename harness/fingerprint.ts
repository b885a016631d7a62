import { canonicalJson } from '../src/core/canonical-json.js';
import { sha256 } from '../src/core/hash.js';
import type { Observation } from '../src/documents/index.js';

/**
 * The deterministic part of an Observation: what must be identical when the same query is replayed
 * against the same snapshots and config. Latency, telemetry and error text (which may carry pids or
 * timings) are left out; the error kind stays, since "timed out on replay 3 only" is a divergence.
 */
export function fingerprintInput(o: Omit<Observation, 'fingerprint' | 'replay'>): unknown {
  return {
    query_id: o.query_id,
    ok: o.ok,
    error_kind: o.error?.kind ?? null,
    selection_mode: o.selection_mode ?? null,
    selected_id: o.selected_id ?? null,
    source_path: o.source_path ?? null,
    ranked: o.ranked.map((r) => ({ id: r.id, source_path: r.source_path, score: r.score })),
    fallback: {
      triggered: o.fallback.triggered,
      stage: o.fallback.stage ?? null,
      attempts: o.fallback.attempts ?? [],
    },
    usage: o.usage,
    contract_valid: o.contract.valid,
    // a resolved-intent answer: the whole ResolvedIntent, not only its kbUnits ranking, must replay identically
    ...(o.ku ? { ku_response: o.ku.response_sha256 } : {}),
  };
}

export function fingerprint(o: Omit<Observation, 'fingerprint' | 'replay'>): string {
  return sha256(canonicalJson(fingerprintInput(o)));
}

/**
 * JSON path of the first field where two values differ, in canonical key order, e.g. "/ranked/3/id".
 * Returns undefined when they are equal.
 */
export function firstDifference(a: unknown, b: unknown, path = ''): string | undefined {
  if (a === b) return undefined;
  if (Array.isArray(a) && Array.isArray(b)) {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) {
      const d = firstDifference(a[i], b[i], `${path}/${i}`);
      if (d !== undefined) return d;
    }
    return a.length === b.length ? undefined : `${path}/length`;
  }
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const k of keys) {
      const d = firstDifference(a[k], b[k], `${path}/${k}`);
      if (d !== undefined) return d;
    }
    return undefined;
  }
  return path || '/';
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
