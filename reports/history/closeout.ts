/**
 * The Gate C closeout document (seed 000) as Markdown (for the review PR / wiki) and as one
 * self-contained HTML page, plus its JSON. Renderers return strings; `rgate closeout` writes them.
 */
import type { CloseoutDoc as CloseoutModel, MetricEntry, RuleResult } from '../../src/documents/index.js';
import { measureSummary, num, pct } from '../../gates/format.js';
import { mdCode, mdEscape } from '../escape.js';
import { barChart, chartBox, html, htmlPage, jsonDoc, type ChartSpec } from './shared.js';

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
    const b = r.baseline.value === null ? 'n/a' : num(r.baseline.value);
    return `${r.baseline.comparison === 'uplift' ? pct(r.observed) : num(r.observed)} (baseline ${b})`;
  }
  if (r.metric.startsWith('latency')) return `${num(r.observed)} ms${counted}`;
  return `${RATE_LIKE.test(r.metric) && r.observed <= 1 ? pct(r.observed, 2) : num(r.observed)}${counted}`;
}

function metricText(m: MetricEntry | null): string {
  return m ? measureSummary(m.value) : 'not measured';
}

export function renderCloseoutJson(c: CloseoutModel): string {
  return jsonDoc(c);
}

export function renderCloseoutMarkdown(c: CloseoutModel): string {
  const o: string[] = [];
  const push = (...l: string[]) => o.push(...l);
  push(`# Gate C closeout: ${mdEscape(c.suite)}`, '');
  push(
    `**Verdict: ${c.gate.verdict}** (${mdCode(c.gate.gate_id)} v${mdEscape(c.gate.version)}). ${c.ready ? 'Ready to close once signed off.' : '**Not ready to close**: see the failing rules below.'}`,
    '',
  );
  if (c.gate.source) push(`Policy source: ${mdEscape(c.gate.source)}`, '');

  push('## 1. Fixture freeze binding (verified)', '');
  push(
    `Artifact ${mdCode(c.freeze.artifact_id)} version ${mdCode(c.freeze.version)}, frozen on ${c.freeze.frozen_on}; freeze seal ${mdCode(c.freeze.seal)}.`,
  );
  push('Every file below was re-hashed when this closeout was written and matches freeze.json.', '');
  push('| part | file | id | sha256 |', '| --- | --- | --- | --- |');
  for (const f of c.freeze.files)
    push(`| ${f.part} | ${mdCode(f.file)} | ${mdCode(f.id)} | ${mdCode(f.sha256)} |`);
  push('', 'Version history:', '');
  for (const h of c.freeze.history)
    push(
      `- ${mdCode(h.version)} (${h.frozen_on})${h.reset_note ? `: reset note: ${mdEscape(h.reset_note)}` : ''}`,
    );
  push('', 'Freeze rules:', '', ...c.freeze.rules.map((r) => `- ${mdEscape(r)}`), '');

  push('## 2. Evaluated run and baseline', '');
  push(
    `Run ${mdCode(c.run.run_id)} started ${c.run.started_at}: system ${mdCode(c.run.system.name)} (${mdEscape(c.run.system.kind)}, contract ${mdEscape(c.run.system.contract)}), ${c.run.settings.replays} replays, seed ${c.run.settings.seed}, concurrency ${c.run.settings.concurrency}.`,
  );
  push(
    `Pinned: ${mdCode(c.run.artifacts.corpus_id)}, ${mdCode(c.run.artifacts.query_set_id)}, ${mdCode(c.run.artifacts.config_id)}.`,
    '',
  );
  if (c.baseline) {
    push(
      `Baseline run ${mdCode(c.baseline.run_id)}${c.baseline.started_at ? ` (started ${c.baseline.started_at})` : ''} on fixture version ${mdCode(c.baseline.version)}${c.baseline.note ? `: ${mdEscape(c.baseline.note)}` : ''}.`,
    );
    if (c.baseline.version_changed) {
      push(
        '',
        `**Baseline reset note** (fixture ${mdCode(c.baseline.version)} → ${mdCode(c.freeze.version)}): ${mdEscape(c.baseline.reset_note ?? '')}`,
      );
    } else {
      push('The baseline ran on the same frozen fixture version: no reset note required.');
    }
  } else {
    push('No baseline: this gate has no baseline rules.');
  }
  push('');

  push('## 3. Observed vs target', '');
  push('| rule | target | observed | status | reason |', '| --- | --- | --- | --- | --- |');
  for (const r of c.gate.rules) {
    push(
      `| ${mdCode(r.metric + (r.baseline ? ' vs baseline' : ''))} | ${mdEscape(target(r))} | ${mdEscape(observed(r))} | ${r.status.toUpperCase()} | ${mdEscape(r.reason)} |`,
    );
  }
  if (c.gate.checklist.length) {
    push('', 'QA checklist:', '');
    for (const i of c.gate.checklist)
      push(`- [${i.ok ? 'x' : ' '}] ${mdEscape(i.text)}: ${mdEscape(i.evidence)}`);
  }
  push('');

  push('## 4. Determinism proof', '');
  push(
    `${c.determinism.replays} replays (seed ${c.determinism.seed}): ${c.determinism.identical ? 'every query produced identical fingerprints in every replay' : `**${c.determinism.divergent.length} queries diverged**`}.`,
  );
  push(
    `Replay determinism: ${metricText(c.determinism.replay_determinism)}; fallback determinism: ${metricText(c.determinism.fallback_determinism)}.`,
    '',
  );
  push(
    'Rollup hash per replay:',
    '',
    ...c.determinism.rollups.map((h, i) => `- replay ${i + 1}: ${mdCode(h)}`),
    '',
  );
  for (const d of c.determinism.divergent) {
    push(
      `- ${mdCode(d.query_id)} first differs at ${mdCode(d.field)}: ${d.groups.map((g) => `replays ${g.replays.join(',')}`).join(' vs ')}`,
    );
  }
  if (c.determinism.divergent.length) push('');

  push('## 5. Budget compliance', '');
  push(
    `${metricText(c.budget.budget_compliance)}${c.budget.rule ? ` (rule: ${c.budget.rule.status.toUpperCase()}, ${mdEscape(c.budget.rule.reason)})` : ''}.`,
    '',
  );

  push(`## 6. Failing queries (${c.failing_queries.length})`, '');
  if (!c.failing_queries.length) push('None.');
  else {
    push('| query | text | top-1 | mode | selected |', '| --- | --- | --- | --- | --- |');
    for (const q of c.failing_queries) {
      push(
        `| ${mdCode(q.query_id)} | ${mdEscape(q.text)} | ${q.top1}${q.expectation_met === false ? ', expectation missed' : ''}${q.deterministic ? '' : ', nondeterministic'} | ${q.actual.selection_mode ?? '-'} | ${mdCode(q.actual.selected_id ?? '(none)')} |`,
      );
    }
  }
  push('');

  push(`## 7. Residual risks (${c.residuals.length})`, '');
  if (!c.residuals.length) push('None recorded.');
  else {
    push('| id | risk | owner | due | mitigation |', '| --- | --- | --- | --- | --- |');
    for (const r of c.residuals) {
      push(
        `| ${mdEscape(r.id)} | ${mdEscape(r.risk)}${r.severity ? ` (${mdEscape(r.severity)})` : ''} | ${mdEscape(r.owner)} | ${r.due} | ${mdEscape(r.mitigation ?? '')} |`,
      );
    }
  }
  push('');

  push('## 8. Sign-off', '');
  push('| role | name | date | decision |', '| --- | --- | --- | --- |');
  for (const s of c.sign_off)
    push(`| ${mdEscape(s.role)} | ____________________ | ____________ | ☐ approve ☐ reject |`);
  return o.join('\n') + '\n';
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
    },
  ];
}

export function renderCloseoutHtml(c: CloseoutModel): string {
  const charts = closeoutCharts(c);
  const body = html`<h1>Gate C closeout: ${c.suite}</h1>
    <div class="banner ${c.gate.verdict}">
      ${c.gate.verdict} · ${c.gate.gate_id} v${c.gate.version} ·
      ${c.ready ? 'ready to close once signed off' : 'not ready to close'}
    </div>
    <ul>
      ${c.gate.reasons.map((r) => html`<li>${r}</li>`)}
    </ul>
    <h2>1. Fixture freeze binding (verified)</h2>
    <p>
      Artifact <code>${c.freeze.artifact_id}</code> version <code>${c.freeze.version}</code>, frozen on
      ${c.freeze.frozen_on}; seal <code>${c.freeze.seal}</code>. Every file was re-hashed when this closeout
      was written and matches freeze.json.
    </p>
    <table>
      <thead>
        <tr>
          <th>part</th>
          <th>file</th>
          <th>id</th>
          <th>sha256</th>
        </tr>
      </thead>
      <tbody>
        ${c.freeze.files.map(
          (f) =>
            html`<tr>
              <td>${f.part}</td>
              <td><code>${f.file}</code></td>
              <td><code>${f.id}</code></td>
              <td><code>${f.sha256}</code></td>
            </tr>`,
        )}
      </tbody>
    </table>
    <p>Version history:</p>
    <ul>
      ${c.freeze.history.map((h) => html`<li><code>${h.version}</code> (${h.frozen_on})${h.reset_note ? html`: reset note: ${h.reset_note}` : ''}</li>`)}
    </ul>
    <h2>2. Evaluated run and baseline</h2>
    <p>
      Run <code>${c.run.run_id}</code> started ${c.run.started_at}: ${c.run.system.name}
      (${c.run.system.kind}, ${c.run.system.contract}), ${c.run.settings.replays} replays, seed
      ${c.run.settings.seed}.
    </p>
    ${
      c.baseline
        ? html`<p>
              Baseline run <code>${c.baseline.run_id}</code> on fixture version
              <code>${c.baseline.version}</code>${c.baseline.note ? html`: ${c.baseline.note}` : ''}.
            </p>
            ${c.baseline.version_changed ? html`<p class="watch">Baseline reset note (fixture ${c.baseline.version} → ${c.freeze.version}): ${c.baseline.reset_note ?? ''}</p>` : html`<p>Same frozen fixture version as the baseline: no reset note required.</p>`}`
        : html`<p>No baseline: this gate has no baseline rules.</p>`
    }
    <h2>3. Observed vs target</h2>
    <div class="charts">${charts.map(chartBox)}</div>
    <table>
      <thead>
        <tr>
          <th>rule</th>
          <th>target</th>
          <th>observed</th>
          <th>status</th>
          <th>reason</th>
        </tr>
      </thead>
      <tbody>
        ${c.gate.rules.map(
          (r) =>
            html`<tr>
              <td><code>${r.metric}${r.baseline ? ' vs baseline' : ''}</code></td>
              <td>${target(r)}</td>
              <td>${observed(r)}</td>
              <td class="${r.status}">${r.status.toUpperCase()}</td>
              <td>${r.reason}</td>
            </tr>`,
        )}
      </tbody>
    </table>
    ${
      c.gate.checklist.length
        ? html`<ul>
            ${c.gate.checklist.map((i) => html`<li class="${i.ok ? 'pass' : 'fail'}">${i.ok ? '☑' : '☐'} ${i.text}: <span class="muted">${i.evidence}</span></li>`)}
          </ul>`
        : ''
    }
    <h2>4. Determinism proof</h2>
    <p>
      ${c.determinism.replays} replays (seed ${c.determinism.seed}):
      ${c.determinism.identical ? 'identical fingerprints in every replay' : `${c.determinism.divergent.length} queries diverged`}.
      Replay determinism ${metricText(c.determinism.replay_determinism)}; fallback determinism
      ${metricText(c.determinism.fallback_determinism)}.
    </p>
    <ol>
      ${c.determinism.rollups.map((h) => html`<li><code>${h}</code></li>`)}
    </ol>
    ${
      c.determinism.divergent.length
        ? html`<ul>
            ${c.determinism.divergent.map((d) => html`<li><code>${d.query_id}</code> first differs at <code>${d.field}</code></li>`)}
          </ul>`
        : ''
    }
    <h2>5. Budget compliance</h2>
    <p>
      ${metricText(c.budget.budget_compliance)}${c.budget.rule ? ` (rule ${c.budget.rule.status.toUpperCase()}: ${c.budget.rule.reason})` : ''}
    </p>
    <h2>6. Failing queries (${c.failing_queries.length})</h2>
    ${
      c.failing_queries.length
        ? html`<table>
            <thead>
              <tr>
                <th>query</th>
                <th>text</th>
                <th>top-1</th>
                <th>mode</th>
                <th>selected</th>
              </tr>
            </thead>
            <tbody>
              ${c.failing_queries.map(
                (q) =>
                  html`<tr>
                    <td><code>${q.query_id}</code></td>
                    <td>${q.text}</td>
                    <td>
                      ${q.top1}${q.expectation_met === false ? ', expectation missed' : ''}${q.deterministic ? '' : ', nondeterministic'}
                    </td>
                    <td>${q.actual.selection_mode ?? '-'}</td>
                    <td><code>${q.actual.selected_id ?? '(none)'}</code></td>
                  </tr>`,
              )}
            </tbody>
          </table>`
        : html`<p>None.</p>`
    }
    <h2>7. Residual risks (${c.residuals.length})</h2>
    ${
      c.residuals.length
        ? html`<table>
            <thead>
              <tr>
                <th>id</th>
                <th>risk</th>
                <th>owner</th>
                <th>due</th>
                <th>mitigation</th>
              </tr>
            </thead>
            <tbody>
              ${c.residuals.map(
                (r) =>
                  html`<tr>
                    <td>${r.id}</td>
                    <td>${r.risk}${r.severity ? ` (${r.severity})` : ''}</td>
                    <td>${r.owner}</td>
                    <td>${r.due}</td>
                    <td>${r.mitigation ?? ''}</td>
                  </tr>`,
              )}
            </tbody>
          </table>`
        : html`<p>None recorded.</p>`
    }
    <h2>8. Sign-off</h2>
    <div class="sign">
      <strong>role</strong><strong>name</strong><strong>date</strong><strong>decision</strong>
      ${c.sign_off.map((s) => html`<span>${s.role}</span><span class="line"></span><span class="line"></span><span>☐ approve ☐ reject</span>`)}
    </div>`;
  return htmlPage(`Gate C closeout: ${c.suite}`, body, charts);
}
