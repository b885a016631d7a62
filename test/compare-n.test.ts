/**
 * One n everywhere: a real `rgate compare` (runCompare, the builtin engine on the Lumen set under
 * semantic-retrieval-v1) whose variants leave some counted queries' top-1 unjudged on one side
 * only. Every paired test runs over exactly the queries the gate counts, and says so.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeCompare, runCompare } from '../history/compare.js';
import type { VariantSpec } from '../history/compare-variants.js';
import { renderSessionMarkdown, renderSessionTerminal } from '../reports/history/compare.js';
import type { CompareSession, Report, SuiteSpec } from '../src/documents/index.js';
import { MemoryRunStore } from '../src/store/memory-store.js';

const REPO = resolve(import.meta.dirname, '..');
const spec = (
  JSON.parse(readFileSync(resolve(REPO, 'rgate.config.json'), 'utf8')) as {
    suites: Record<string, SuiteSpec>;
  }
).suites['semantic']!;
// the cosine gate (not the default hybrid one) leaves top-1s unjudged on one side only. Since the
// set's v2 pooled every builtin mode's top 5 at its 768 dimensions, those top-1s are all judged: a
// 64-dimension embedder ranks outside the pool (14 and 24 unjudged counted top-1s, partly different)
const variants: VariantSpec[] = [
  {
    label: 'cosine confidence_min=0.35 dims=64',
    overrides: { semantic: { method: 'cosine' }, embedding: { dimensions: 64 } },
  },
  {
    label: 'cosine confidence_min=0.05 k=3 dims=64',
    overrides: { semantic: { method: 'cosine', confidence_min: 0.05 }, k: 3, embedding: { dimensions: 64 } },
  },
];

let session: CompareSession;
let reports: Report[];

beforeAll(async () => {
  const store = new MemoryRunStore();
  session = await runCompare({
    suite: 'semantic',
    spec,
    root: REPO,
    variants,
    kind: 'variants',
    sessionId: 'cmp-n',
    createdAt: '2026-11-23T00:00:00Z',
    store,
    replays: 1,
    permutations: 2000,
    resamples: 500,
  });
  reports = session.variants.map((v) => store.getReport(v.run_id) as Report);
});

const gateDen = (r: Report, id: string) => {
  const v = r.metrics.find((m) => m.id === id)!.value;
  return v.kind === 'rate' ? v.denominator : v.n;
};

describe('compare: every paired test is over the queries the gate counts', () => {
  it('the variants really differ in which counted top-1s are unjudged', () => {
    const unjudged = reports.map(
      (r) => new Set(r.queries.filter((q) => q.judged && q.top1 === 'unjudged').map((q) => q.query_id)),
    );
    const oneSided =
      [...unjudged[0]!].filter((q) => !unjudged[1]!.has(q)).length +
      [...unjudged[1]!].filter((q) => !unjudged[0]!.has(q)).length;
    expect(oneSided).toBeGreaterThan(0);
  });

  it('n equals the gate denominator in both variants, for every metric, and the session says so', () => {
    expect(session.tests.length).toBeGreaterThan(0);
    for (const t of session.tests) {
      const dens = reports.map((r) => gateDen(r, t.metric));
      expect(t.gate_n, t.metric).toEqual(dens);
      expect(t.n, t.metric).toBe(dens[0]);
      expect(t.unpaired, t.metric).toEqual([]);
      expect(t.n_basis, t.metric).toBe(`n=${t.n} (gate denominator ${t.n})`);
    }
    const top1 = session.tests.find((t) => t.metric === 'top1_useful_rate')!;
    expect(top1.n).toBe(gateDen(reports[0]!, 'top1_useful_rate'));
    expect(renderSessionTerminal(session)).toContain("n: equal to the gate's denominator in every test");
    expect(renderSessionMarkdown(session)).toContain(`| n=${top1.n} (gate denominator ${top1.n}) |`);
  });

  it('reports without per-query judgments (older ones) pair fewer queries, and the test says which', () => {
    // as reports were written before `judged`: an unjudged top-1 then had no value on that side
    const old = reports.map((r) => ({ ...r, queries: r.queries.map(({ judged: _judged, ...q }) => q) }));
    const s = analyzeCompare({
      suite: 'semantic',
      kind: 'variants',
      variants: variants.map((v, i) => ({ spec: v, report: old[i]! })),
      settings: session.settings,
      environment: session.environment,
    });
    const t = s.tests.find((x) => x.metric === 'top1_useful_rate')!;
    const den = gateDen(reports[0]!, 'top1_useful_rate');
    expect(t.n).toBeLessThan(den);
    expect(t.unpaired!.length).toBeGreaterThan(0);
    expect(t.n_basis).toMatch(
      new RegExp(
        `^n=${t.n} \\(gate denominator ${den}\\): \\d+ quer(y has|ies have) no value for this measure in one variant: `,
      ),
    );
    expect(renderSessionTerminal(s)).toContain(`n top1_useful_rate v1->v2: n=${t.n}`);
  });
});
