/**
 * `rgate diff <runA> <runB>`: what changed per query between two stored reports. A query regresses
 * when its top-1 stops being useful, a probe stops meeting its expectation, it stops being
 * deterministic, or its ranking measures only went down; improvements are the mirror image.
 */
import { compareCodeUnits } from '../src/core/canonical-json.js';
import type {
  MeasureDelta,
  QueryChange,
  QueryOutcome,
  Report,
  RunDiff,
  Top1Judgment,
} from '../src/documents/index.js';
import { top1IdOf } from '../src/metrics/index.js';
import { snapshotKey } from './snapshot.js';
import { headline } from './trends.js';

/** Differences smaller than this are float noise, not a change. */
export const EPS = 1e-9;

const RANK: Record<Top1Judgment, number> = { useful: 2, not_useful: 1, unjudged: 1, no_answer: 0, error: 0 };

function top1Of(q: QueryOutcome): string | null {
  return top1IdOf(q) ?? null;
}

/** Compare one query across two runs; undefined when nothing observable changed. */
export function diffQuery(a: QueryOutcome, b: QueryOutcome): QueryChange | undefined {
  let worse = 0;
  let better = 0;
  const changes: string[] = [];
  if (a.top1 !== b.top1) {
    changes.push(`top-1 ${a.top1} -> ${b.top1}`);
    if (a.top1 === 'useful') worse++;
    else if (b.top1 === 'useful') better++;
    else if (RANK[b.top1] < RANK[a.top1]) worse++;
    else if (RANK[b.top1] > RANK[a.top1]) better++;
  }
  const selA = top1Of(a);
  const selB = top1Of(b);
  if (selA !== selB) changes.push(`selected ${selA ?? '(none)'} -> ${selB ?? '(none)'}`);
  const modeA = a.actual.selection_mode ?? null;
  const modeB = b.actual.selection_mode ?? null;
  if (modeA !== modeB) changes.push(`selection mode ${modeA ?? '(none)'} -> ${modeB ?? '(none)'}`);
  if (
    a.expectation_met !== b.expectation_met &&
    a.expectation_met !== undefined &&
    b.expectation_met !== undefined
  ) {
    changes.push(
      `expectation ${a.expectation_met ? 'met' : 'missed'} -> ${b.expectation_met ? 'met' : 'missed'}`,
    );
    if (a.expectation_met) worse++;
    else better++;
  }
  if (a.deterministic !== b.deterministic) {
    changes.push(a.deterministic ? 'became nondeterministic' : 'became deterministic');
    if (a.deterministic) worse++;
    else better++;
  }
  const leakA = a.leaked_tags?.length ?? 0;
  const leakB = b.leaked_tags?.length ?? 0;
  if (leakA > 0 !== leakB > 0) {
    changes.push(leakB > 0 ? `leaks ${b.leaked_tags!.join(', ')}` : 'no longer leaks excluded tags');
    if (leakB > 0) worse++;
    else better++;
  }
  const measures = measureDeltas(a.measures ?? {}, b.measures ?? {});
  let mUp = 0;
  let mDown = 0;
  for (const m of measures) {
    if (m.delta === null) continue;
    if (m.delta > EPS) mUp++;
    if (m.delta < -EPS) mDown++;
  }
  const moved = measures.filter((m) => m.delta !== null && Math.abs(m.delta) > EPS);
  if (moved.length) changes.push(moved.map((m) => `${m.measure} ${fmtSigned(m.delta!)}`).join(', '));
  // ranking measures decide only when the judged outcomes did not move
  if (worse === 0 && better === 0) {
    if (mDown > 0 && mUp === 0) worse++;
    if (mUp > 0 && mDown === 0) better++;
  }
  if (changes.length === 0) return undefined;
  const cls = worse && better ? 'mixed' : worse ? 'regression' : better ? 'improvement' : 'neutral';
  return {
    query_id: a.query_id,
    text: b.text,
    class: cls,
    changes,
    top1: [a.top1, b.top1],
    selected_id: [selA, selB],
    selection_mode: [modeA, modeB],
    measures: moved,
  };
}

function measureDeltas(a: Record<string, number>, b: Record<string, number>): MeasureDelta[] {
  const ids = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort(compareCodeUnits);
  return ids.map((id) => {
    const x = a[id] ?? null;
    const y = b[id] ?? null;
    return { measure: id, a: x, b: y, delta: x !== null && y !== null ? y - x : null };
  });
}

function fmtSigned(x: number): string {
  const s = Math.abs(x)
    .toFixed(4)
    .replace(/\.?0+$/, '');
  return (x >= 0 ? '+' : '-') + s;
}

/** Diff two reports (a = older / reference, b = newer / candidate). Pure. */
export function diffReports(a: Report, b: Report): RunDiff {
  const byId = (r: Report) => new Map(r.queries.map((q) => [q.query_id, q]));
  const qa = byId(a);
  const qb = byId(b);
  const ids = [...new Set([...qa.keys(), ...qb.keys()])].sort(compareCodeUnits);
  const changes: QueryChange[] = [];
  const onlyA: string[] = [];
  const onlyB: string[] = [];
  for (const id of ids) {
    const x = qa.get(id);
    const y = qb.get(id);
    if (!x) onlyB.push(id);
    else if (!y) onlyA.push(id);
    else {
      const c = diffQuery(x, y);
      if (c) changes.push(c);
    }
  }
  const metricIds = [...new Set([...a.metrics, ...b.metrics].map((m) => m.id))].sort(compareCodeUnits);
  const metrics = metricIds.map((id) => {
    const x = a.metrics.find((m) => m.id === id);
    const y = b.metrics.find((m) => m.id === id);
    const va = x ? headline(x.value) : null;
    const vb = y ? headline(y.value) : null;
    return { measure: id, a: va, b: vb, delta: va !== null && vb !== null ? vb - va : null };
  });
  return {
    a: { run_id: a.environment.run_id, artifacts: a.artifacts, verdict: a.gate.verdict },
    b: { run_id: b.environment.run_id, artifacts: b.artifacts, verdict: b.gate.verdict },
    same_snapshot: snapshotKey(a.artifacts) === snapshotKey(b.artifacts),
    metrics,
    regressions: changes.filter((c) => c.class === 'regression'),
    improvements: changes.filter((c) => c.class === 'improvement'),
    changed_top1: changes.filter((c) => c.selected_id[0] !== c.selected_id[1]),
    changed_selection_mode: changes.filter((c) => c.selection_mode[0] !== c.selection_mode[1]),
    other_changes: changes.filter((c) => c.class === 'mixed' || c.class === 'neutral'),
    only_in_a: onlyA,
    only_in_b: onlyB,
    unchanged: ids.length - onlyA.length - onlyB.length - changes.length,
  };
}
