/**
 * The Gate C closeout document (seed 000) as Markdown (for the review PR / wiki) and as one
 * self-contained HTML page, plus its JSON. Renderers return strings; `rgate closeout` writes them.
 */
import type {
  CloseoutDoc as CloseoutModel,
  MetricEntry,
  RankingEvidence,
  RuleResult,
} from '../../src/documents/index.js';
import { measureSummary, num, pct, signedNum, testP } from '../../gates/format.js';
import { isGateC } from '../../gates/gate-c.js';
import { STATS_DEFAULTS } from '../../src/core/defaults.js';
import { mdCode, mdEscape, terminalSafe } from '../escape.js';
import { barChart, barChartSize, jsonDoc, renderPage, type ChartSpec } from './shared.js';

const RATE_LIKE =
  /rate|compliance|determinism|reporting|completeness|validity|recall|ndcg|map|P\.|recip|judged/;

function target(r: RuleResult): string {
  const op = r.op === 'min' ? '≥' : '≤';
  if (r.baseline)
    return r.baseline.comparison === 'uplift'
      ? `uplift ${op} ${pct(r.threshold)} vs baseline`
      : `delta ${op} ${num(r.threshold)} vs baseline`;
  if (r.metric === 'query_count') return `${op} ${r.threshold} queries`;
  if (r.metric.startsWith('latency')) return `${op} ${num(r.threshold)} ms`;
  return `${op} ${RATE_LIKE.test(r.metric) && r.threshold <= 1 ? pct(r.threshold) : num(r.threshold)}`;
}

function observed(r: RuleResult): string {
  if (r.observed === null) return 'not measured';
  const counted =
    r.numerator !== undefined && r.denominator !== undefined
      ? ` (${r.numerator}/${r.denominator})`
      : r.n !== undefined
        ? ` (n=${r.n})`
        : '';
  if (r.baseline) {
    // the n of this run's value, so a baseline comparison states what it counted too
    const b = r.baseline.value === null ? 'n/a' : num(r.baseline.value);
    const n = counted ? `${counted.slice(2, -1)}; ` : '';
    return `${r.baseline.comparison === 'uplift' ? pct(r.observed) : num(r.observed)} (${n}baseline ${b})`;
  }
  if (r.metric.startsWith('latency')) return `${num(r.observed)} ms${counted}`;
  return `${RATE_LIKE.test(r.metric) && r.observed <= 1 ? pct(r.observed, 2) : num(r.observed)}${counted}`;
}

function metricText(m: MetricEntry | null): string {
  return m ? measureSummary(m.value) : 'not measured';
}

/**
 * What the document is: a Gate C closeout only under a Gate C gate; under any other gate it says
 * which gate it applied, so a contract gate's PASS never reads as Gate C closed.
 */
function closeoutTitle(c: Pick<CloseoutModel, 'suite' | 'gate'>): string {
  return isGateC(c.gate.gate_id)
    ? `Gate C closeout: ${c.suite}`
    : `Closeout: ${c.suite} under ${c.gate.gate_id}`;
}

/** The verdict's consequence, in the words the document may claim. */
function readiness(c: CloseoutModel): string {
  if (!c.ready) return 'Not ready to close: see the failing rules below.';
  if (isGateC(c.gate.gate_id)) return 'Ready to close once signed off.';
  return 'This gate is not a Gate C gate: the document records its verdict and closes no Gate C review (name a Gate C gate with --gate, e.g. context-load-gate-c-v0).';
}

export function renderCloseoutJson(c: CloseoutModel): string {
  return jsonDoc(c);
}

export function renderCloseoutMarkdown(c: CloseoutModel): string {
  const o = [
    ...mdVerdict(c),
    ...mdFreeze(c),
    ...mdRunAndBaseline(c),
    ...mdObservedVsTarget(c),
    ...mdDeterminism(c),
    ...mdBudget(c),
    ...mdFailingQueries(c),
    ...mdRankingEvidence(c),
    ...mdResiduals(c),
    ...mdSignOff(c),
  ];
  return o.join('\n') + '\n';
}

/** The title, the verdict and what it means, warnings and the policy's source. */
function mdVerdict(c: CloseoutModel): string[] {
  const o = [
    `# ${mdEscape(closeoutTitle(c))}`,
    '',
    `**Verdict: ${c.gate.verdict}** (${mdCode(c.gate.gate_id)} v${mdEscape(c.gate.version)}). ${c.ready ? mdEscape(readiness(c)) : '**Not ready to close**: see the failing rules below.'}`,
    '',
  ];
  for (const w of c.warnings ?? []) o.push(`> **Warning:** ${mdEscape(w)}`, '');
  if (c.gate.source) o.push(`Policy source: ${mdEscape(c.gate.source)}`, '');
  return o;
}

function mdFreeze(c: CloseoutModel): string[] {
  const o = ['## 1. Fixture freeze binding (verified)', ''];
  o.push(
    `Artifact ${mdCode(c.freeze.artifact_id)} version ${mdCode(c.freeze.version)}, frozen on ${c.freeze.frozen_on}; freeze seal ${mdCode(c.freeze.seal)}.`,
  );
  o.push('Every file below was re-hashed when this closeout was written and matches freeze.json.', '');
  o.push('| part | file | id | sha256 |', '| --- | --- | --- | --- |');
  for (const f of c.freeze.files)
    o.push(`| ${f.part} | ${mdCode(f.file)} | ${mdCode(f.id)} | ${mdCode(f.sha256)} |`);
  o.push('', 'Version history:', '');
  for (const h of c.freeze.history)
    o.push(
      `- ${mdCode(h.version)} (${h.frozen_on})${h.reset_note ? `: reset note: ${mdEscape(h.reset_note)}` : ''}`,
    );
  o.push('', 'Freeze rules:', '', ...c.freeze.rules.map((r) => `- ${mdEscape(r)}`), '');
  return o;
}

function mdRunAndBaseline(c: CloseoutModel): string[] {
  const o = ['## 2. Evaluated run and baseline', ''];
  o.push(
    `Run ${mdCode(c.run.run_id)} started ${c.run.started_at}: system ${mdCode(c.run.system.name)} (${mdEscape(c.run.system.kind)}, contract ${mdEscape(c.run.system.contract)}), ${c.run.settings.replays} replays, seed ${c.run.settings.seed}, concurrency ${c.run.settings.concurrency}.`,
  );
  o.push(
    `Pinned: ${mdCode(c.run.artifacts.corpus_id)}, ${mdCode(c.run.artifacts.query_set_id)}, ${mdCode(c.run.artifacts.config_id)}.`,
  );
  o.push(`Overrides of the frozen config: ${overridesText(c, mdCode)}.`, '');
  if (c.baseline) {
    o.push(
      `Baseline run ${mdCode(c.baseline.run_id)}${c.baseline.started_at ? ` (started ${c.baseline.started_at})` : ''} on fixture version ${mdCode(c.baseline.version)}${c.baseline.note ? `: ${mdEscape(c.baseline.note)}` : ''}.`,
    );
    if (c.baseline.version_changed) {
      o.push(
        '',
        `**Baseline reset note** (fixture ${mdCode(c.baseline.version)} → ${mdCode(c.freeze.version)}): ${mdEscape(c.baseline.reset_note ?? '')}`,
      );
    } else {
      o.push('The baseline ran on the same frozen fixture version: no reset note required.');
    }
  } else {
    o.push('No baseline: this gate has no baseline rules.');
  }
  o.push('');
  return o;
}

function mdObservedVsTarget(c: CloseoutModel): string[] {
  const o = ['## 3. Observed vs target', ''];
  o.push('| rule | target | observed | status | reason |', '| --- | --- | --- | --- | --- |');
  for (const r of c.gate.rules) {
    o.push(
      `| ${mdCode(r.metric + (r.baseline ? ' vs baseline' : ''))} | ${mdEscape(target(r))} | ${mdEscape(observed(r))} | ${r.status.toUpperCase()} | ${mdEscape(r.reason)} |`,
    );
  }
  if (c.gate.checklist.length) {
    o.push('', 'QA checklist:', '');
    for (const i of c.gate.checklist)
      o.push(`- [${i.ok ? 'x' : ' '}] ${mdEscape(i.text)}: ${mdEscape(i.evidence)}`);
  }
  o.push('');
  return o;
}

function mdDeterminism(c: CloseoutModel): string[] {
  const d = c.determinism;
  const o = ['## 4. Determinism proof', ''];
  o.push(
    `${d.replays} replays (seed ${d.seed}): ${d.identical ? 'every query produced identical fingerprints in every replay' : `**${d.divergent.length} queries diverged**`}.`,
  );
  o.push(
    `Replay determinism: ${metricText(d.replay_determinism)}; fallback determinism: ${metricText(d.fallback_determinism)}.`,
    '',
  );
  o.push('Rollup hash per replay:', '', ...d.rollups.map((h, i) => `- replay ${i + 1}: ${mdCode(h)}`), '');
  for (const q of d.divergent) {
    o.push(
      `- ${mdCode(q.query_id)} first differs at ${mdCode(q.field)}: ${q.groups.map((g) => `replays ${g.replays.join(',')}`).join(' vs ')}`,
    );
  }
  if (d.divergent.length) o.push('');
  return o;
}

function mdBudget(c: CloseoutModel): string[] {
  return [
    '## 5. Budget compliance',
    '',
    `${metricText(c.budget.budget_compliance)}${c.budget.rule ? ` (rule: ${c.budget.rule.status.toUpperCase()}, ${mdEscape(c.budget.rule.reason)})` : ''}.`,
    '',
  ];
}

function mdFailingQueries(c: CloseoutModel): string[] {
  const o = [`## 6. Failing queries (${c.failing_queries.length})`, ''];
  if (!c.failing_queries.length) o.push(noFailingQueries(c, mdCode));
  else {
    o.push('| query | text | why | top-1 | mode | selected |', '| --- | --- | --- | --- | --- | --- |');
    for (const q of c.failing_queries) {
      o.push(
        `| ${mdCode(q.query_id)} | ${mdEscape(q.text)} | ${mdEscape((q.failure_reasons ?? []).join(', '))} | ${q.top1}${q.expectation_met === false ? ', expectation missed' : ''}${q.deterministic ? '' : ', nondeterministic'} | ${q.actual.selection_mode ?? '-'} | ${mdCode(q.actual.selected_id ?? '(none)')} |`,
      );
    }
  }
  o.push('');
  return o;
}

/** The queries behind each failing ranking rule: largest drops vs baseline, or lowest below the threshold. */
function mdRankingEvidence(c: CloseoutModel): string[] {
  if (!c.ranking_evidence?.length) return [];
  const o = ['### Queries behind the failing ranking rules', ''];
  const method = rankingPMethod(c);
  if (method) o.push(mdEscape(method), '');
  for (const e of c.ranking_evidence) {
    o.push(`${mdCode(e.rule)}${rankingTail(e, mdCode, mdEscape)}.`, '');
    if (!e.queries.length) continue;
    if (e.kind === 'vs_baseline') {
      o.push(
        'Largest drops:',
        '',
        '| query | text | run | baseline | delta |',
        '| --- | --- | --- | --- | --- |',
      );
      for (const q of e.queries)
        o.push(
          `| ${mdCode(q.query_id)} | ${mdEscape(q.text)} | ${num(q.value)} | ${num(q.baseline!)} | ${signedNum(q.delta!)} |`,
        );
    } else {
      o.push('Lowest below the threshold:', '', '| query | text | value |', '| --- | --- | --- |');
      for (const q of e.queries) o.push(`| ${mdCode(q.query_id)} | ${mdEscape(q.text)} | ${num(q.value)} |`);
    }
    o.push('');
  }
  return o;
}

function mdResiduals(c: CloseoutModel): string[] {
  const o = [`## 7. Residual risks (${c.residuals.length})`, ''];
  if (!c.residuals.length) o.push('None recorded.');
  else {
    o.push('| id | risk | owner | due | mitigation |', '| --- | --- | --- | --- | --- |');
    for (const r of c.residuals) {
      o.push(
        `| ${mdEscape(r.id)} | ${mdEscape(r.risk)}${r.severity ? ` (${mdEscape(r.severity)})` : ''} | ${mdEscape(r.owner)} | ${r.due} | ${mdEscape(r.mitigation ?? '')} |`,
      );
    }
  }
  o.push('');
  return o;
}

function mdSignOff(c: CloseoutModel): string[] {
  const o = ['## 8. Sign-off', '', '| role | name | date | decision |', '| --- | --- | --- | --- |'];
  for (const s of c.sign_off)
    o.push(`| ${mdEscape(s.role)} | ____________________ | ____________ | ☐ approve ☐ reject |`);
  return o;
}

/**
 * An empty failing-queries section under a failing gate must not read as "nothing failed": the rules
 * that failed are judged on a measure over all queries (nDCG, recall: a mean), which no one query fails.
 */
function noFailingQueries(c: CloseoutModel, code: (s: string) => string): string {
  const failed = c.gate.rules
    .filter((r) => r.status === 'fail')
    .map((r) => r.metric + (r.baseline ? ' vs baseline' : ''));
  if (!failed.length) return 'None.';
  const tail = c.ranking_evidence?.length
    ? 'the queries behind each ranking rule follow'
    : "the run's report has each query's values";
  return `None counted per query: the failing rules (${[...new Set(failed)].map(code).join(', ')}) are judged on a measure over all queries, not query by query; ${tail}.`;
}

/**
 * What one failing ranking rule comes to query by query, after its name, counts as n/d: `ndcg_cut.5
 * vs baseline` + " against baseline run b: dropped 25/40, tied 10/40, improved 5/40 (of the queries
 * both runs measured)".
 */
function rankingTail(e: RankingEvidence, code: (s: string) => string, text: (s: string) => string): string {
  if (e.unavailable !== undefined) return `: ${text(e.unavailable)}`;
  if (e.kind === 'threshold')
    return `: ${e.below}/${e.n} queries below ${num(e.threshold!)} (of the queries the run measured)`;
  const unpaired = e.unpaired ? `; ${e.unpaired} measured in one run only, not compared` : '';
  return ` against baseline run ${code(e.baseline_run_id ?? '')}: dropped ${e.dropped}/${e.n}, tied ${e.tied}/${e.n}, improved ${e.improved}/${e.n} (of the queries both runs measured${unpaired})${pairedP(e)}`;
}

/**
 * The closeout's ranking evidence for the terminal, a line each: its counts and the query that moved
 * it most (the rest is in closeout.md):
 * `ndcg_cut.5 vs baseline, per query: dropped 54/90, tied 30/90, improved 6/90; largest drop q029 -0.8262`
 */
export function rankingEvidenceLines(c: CloseoutModel): string[] {
  return (c.ranking_evidence ?? []).map((e) => {
    const head = `${terminalSafe(e.rule)}, per query: `;
    if (e.unavailable !== undefined) return head + terminalSafe(e.unavailable);
    const first = e.queries[0];
    if (e.kind === 'threshold')
      return `${head}${e.below}/${e.n} below ${num(e.threshold!)}${first ? `; lowest ${terminalSafe(first.query_id)} ${num(first.value)}` : ''}`;
    return `${head}dropped ${e.dropped}/${e.n}, tied ${e.tied}/${e.n}, improved ${e.improved}/${e.n}${pairedP(e)}${first ? `; largest drop ${terminalSafe(first.query_id)} ${signedNum(first.delta!)}` : ''}`;
  });
}

/**
 * How the vs-baseline p was made, once above the rules, so `~.0001` is read as the floor of an
 * estimate (the true p may be far smaller), not as a figure; '' when no rule carries a p.
 */
function rankingPMethod(c: CloseoutModel): string {
  const ps = (c.ranking_evidence ?? []).filter((e) => e.p_value !== undefined);
  if (!ps.length) return '';
  const estimated = ps.some((e) => e.p_exact === false);
  return (
    'p: two-sided paired sign-flip test of run minus baseline over the queries both runs measured, ' +
    'exact where every sign assignment could be counted' +
    (estimated
      ? `; ~ marks an estimate from ${STATS_DEFAULTS.permutations} seeded permutations, never below ` +
        `1/${STATS_DEFAULTS.permutations + 1} (~.0001: at most about that, possibly far smaller)`
      : '') +
    '. It says whether the change is more than chance; the rule judges the two means.'
  );
}

/** "; paired sign-flip p=.0231" (`~` an estimate); '' for a closeout written before it was recorded. */
function pairedP(e: RankingEvidence): string {
  return e.p_value === undefined
    ? ''
    : `; paired sign-flip p=${testP({ p_value: e.p_value, p_exact: e.p_exact })}`;
}

/** What the run changed from the frozen config, each pair as `code` makes it. */
function overridesText(c: CloseoutModel, code: (s: string) => string): string {
  const o = c.run.overrides;
  if (o === undefined) return 'not recorded (the run was stored before runs kept their plan)';
  return o.length ? o.map(code).join(', ') : 'none (the frozen config as it is)';
}

function closeoutCharts(c: CloseoutModel): ChartSpec[] {
  const rules = c.gate.rules.filter(
    (r) => r.observed !== null && r.metric !== 'query_count' && !r.metric.startsWith('latency'),
  );
  if (!rules.length) return [];
  return [
    {
      id: 'rules',
      title: 'observed vs target',
      config: barChart(
        'observed vs target',
        rules.map((r) => r.metric + (r.baseline ? ' vs baseline' : '')),
        [
          { label: 'observed', data: rules.map((r) => r.observed) },
          { label: 'target', data: rules.map((r) => r.threshold) },
        ],
      ),
      size: barChartSize(rules.length, 2),
    },
  ];
}

/** What closeout.hbs draws: every value already a display string. */
function closeoutHtmlView(c: CloseoutModel) {
  return {
    title: closeoutTitle(c),
    readiness: readiness(c),
    suite: c.suite,
    verdict: c.gate.verdict,
    gate_id: c.gate.gate_id,
    gate_version: c.gate.version,
    source: c.gate.source ?? '',
    ready: c.ready,
    reasons: c.gate.reasons,
    warnings: c.warnings ?? [],
    freeze: {
      artifact_id: c.freeze.artifact_id,
      version: c.freeze.version,
      frozen_on: c.freeze.frozen_on,
      seal: c.freeze.seal,
      files: c.freeze.files,
      rules: c.freeze.rules,
      history: c.freeze.history.map((h) => ({
        version: h.version,
        frozen_on: h.frozen_on,
        reset_note: h.reset_note ?? '',
      })),
    },
    run: {
      run_id: c.run.run_id,
      started_at: c.run.started_at,
      system_name: c.run.system.name,
      system_kind: c.run.system.kind,
      system_contract: c.run.system.contract,
      replays: c.run.settings.replays,
      seed: c.run.settings.seed,
      corpus_id: c.run.artifacts.corpus_id,
      query_set_id: c.run.artifacts.query_set_id,
      config_id: c.run.artifacts.config_id,
      overrides: c.run.overrides ?? [],
      overrides_text: c.run.overrides?.length ? '' : overridesText(c, (s) => s),
    },
    baseline: c.baseline
      ? {
          run_id: c.baseline.run_id,
          version: c.baseline.version,
          note: c.baseline.note ?? '',
          version_changed: c.baseline.version_changed,
          reset_note: c.baseline.reset_note ?? '',
        }
      : null,
    rules: c.gate.rules.map((r) => ({
      metric: r.metric,
      against_baseline: Boolean(r.baseline),
      target: target(r),
      observed: observed(r),
      status: r.status,
      status_text: r.status.toUpperCase(),
      reason: r.reason,
    })),
    checklist: c.gate.checklist.map((i) => ({ ok: i.ok, text: i.text, evidence: i.evidence })),
    determinism: {
      replays: c.determinism.replays,
      seed: c.determinism.seed,
      identical: c.determinism.identical,
      replay_determinism: metricText(c.determinism.replay_determinism),
      fallback_determinism: metricText(c.determinism.fallback_determinism),
      rollups: c.determinism.rollups,
      divergent: c.determinism.divergent.map((d) => ({ query_id: d.query_id, field: d.field })),
    },
    budget: {
      compliance: metricText(c.budget.budget_compliance),
      rule: c.budget.rule
        ? { status: c.budget.rule.status.toUpperCase(), reason: c.budget.rule.reason }
        : null,
    },
    no_failing_queries: noFailingQueries(c, (m) => m),
    ranking_p_method: rankingPMethod(c),
    ranking_evidence: (c.ranking_evidence ?? []).map((e) => ({
      rule: e.rule,
      tail: rankingTail(
        e,
        (m) => m,
        (m) => m,
      ),
      vs_baseline: e.kind === 'vs_baseline',
      queries: e.queries.map((q) => ({
        query_id: q.query_id,
        text: q.text,
        value: num(q.value),
        baseline: q.baseline === undefined ? '' : num(q.baseline),
        delta: q.delta === undefined ? '' : signedNum(q.delta),
      })),
    })),
    failing_queries: c.failing_queries.map((q) => ({
      query_id: q.query_id,
      text: q.text,
      why: (q.failure_reasons ?? []).join(', '),
      top1: q.top1,
      expectation_missed: q.expectation_met === false,
      deterministic: q.deterministic,
      mode: q.actual.selection_mode ?? '-',
      selected: q.actual.selected_id ?? '(none)',
    })),
    residuals: c.residuals.map((r) => ({
      id: r.id,
      risk: r.risk,
      severity: r.severity ?? '',
      owner: r.owner,
      due: r.due,
      mitigation: r.mitigation ?? '',
    })),
    sign_off: c.sign_off,
  };
}

export function renderCloseoutHtml(c: CloseoutModel): string {
  return renderPage('closeout', closeoutTitle(c), closeoutHtmlView(c), closeoutCharts(c));
}
