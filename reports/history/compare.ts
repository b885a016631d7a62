/**
 * Comparison session renderings (`rgate compare`): terminal, JSON, Markdown and a self-contained
 * HTML page (per-metric delta chart; for a sweep, each gate metric charted over the grid).
 * The terminal shows every variant against the reference; JSON, Markdown and HTML have every pair.
 */
import type {
  CompareSession as CompareSessionModel,
  PairedTest as PairedTestView,
} from '../../src/documents/index.js';
import {
  barChart,
  chartBox,
  finish,
  fit,
  html,
  htmlPage,
  interval,
  jsonDoc,
  lineChart,
  n4,
  painter,
  pValue,
  safe,
  signed,
  table,
  WIDTH,
  type ChartSpec,
} from './shared.js';
import { mdCode, mdEscape } from '../escape.js';

export interface SessionRenderOpts {
  color?: boolean;
  /** most flipped queries listed per pair in the terminal */
  maxFlips?: number;
}

function labelOf(s: CompareSessionModel, id: string): string {
  return s.variants.find((v) => v.id === id)?.label ?? id;
}

function aggregate(s: CompareSessionModel, variantId: string, metric: string): number | null {
  return (
    s.variants.find((v) => v.id === variantId)?.aggregates.find((a) => a.metric === metric)?.value ?? null
  );
}

/** The metrics a sweep charts: the gate's, else every metric compared per query. */
function chartedMetrics(s: CompareSessionModel): string[] {
  const gate = s.gate_metrics.filter((m) => s.variants.some((v) => v.aggregates.some((a) => a.metric === m)));
  return gate.length ? gate : s.metrics.map((m) => m.id);
}

function vsReference(s: CompareSessionModel): PairedTestView[] {
  return s.tests.filter((t) => t.a === s.reference);
}

export function renderSessionTerminal(s: CompareSessionModel, opts: SessionRenderOpts = {}): string {
  const p = painter(opts.color ?? false);
  const out: string[] = [];
  out.push(p('bold', fit(`Comparison ${safe(s.environment.session_id)} · suite ${safe(s.suite)}`, WIDTH)));
  out.push(
    fit(
      `  ${s.variants.length} ${s.kind === 'sweep' ? `grid points of ${safe(s.sweep?.key ?? '?')}` : 'variants'} · same snapshot, seed ${s.settings.seed}, ${s.settings.replays} replays`,
      WIDTH,
    ),
  );
  out.push(fit(`  ${safe(s.artifacts.query_set_id)} · ${safe(s.artifacts.corpus_id)}`, WIDTH), '');

  const charted = chartedMetrics(s).slice(0, 3);
  const vt = table(
    ['id', 'variant', 'verdict', ...charted.map((m) => fit(m, 11))],
    [4, 30, 7, ...charted.map(() => 11)],
  );
  for (const v of s.variants) {
    const verdict = p(v.verdict === 'PASS' ? 'green' : v.verdict === 'WATCH' ? 'yellow' : 'red', v.verdict);
    vt.push([
      v.id + (v.id === s.reference ? '*' : ''),
      fit(safe(v.label), 30),
      verdict,
      ...charted.map((m) => n4(aggregate(s, v.id, m))),
    ]);
  }
  out.push(p('bold', 'Variants (* reference; aggregate values)'), vt.toString(), '');

  const tests = vsReference(s);
  out.push(
    p(
      'bold',
      fit(
        `Paired per-query tests vs ${s.reference} (Δ = variant - ${s.reference}; Holm over ${s.tests.length} tests)`,
        WIDTH,
      ),
    ),
  );
  const tt = table(
    ['metric', 'vs', 'n', 'Δ mean', '95% CI', 'p', 'Holm p', 'W/T/L'],
    [17, 4, 3, 8, 18, 7, 7, 9],
  );
  for (const t of tests) {
    const holm = t.significant ? p('green', pValue(t.p_holm)) : pValue(t.p_holm);
    tt.push([
      fit(safe(t.metric), 17),
      `${t.b}`,
      String(t.n),
      signed(t.mean_delta),
      interval(t.ci95),
      pValue(t.p_value),
      holm,
      `${t.wins}/${t.ties}/${t.losses}`,
    ]);
  }
  out.push(tt.toString(), '');

  out.push(p('bold', `Winners (alpha ${s.settings.alpha}, Holm-corrected)`));
  for (const w of s.winners) {
    const head = w.winner
      ? p('green', `${w.winner} ${labelOf(s, w.winner)}`)
      : p('yellow', 'no distinguishable winner');
    out.push(fit(`  ${safe(w.metric)}: ${safe(head)}`, WIDTH + (opts.color ? 9 : 0)));
    out.push(p('dim', fit(`    ${safe(w.reason)}`, WIDTH)));
  }
  out.push('');

  const max = opts.maxFlips ?? 10;
  for (const f of s.flips) {
    out.push(p('bold', `Top-1 flips ${f.a} -> ${f.b} (${f.queries.length})`));
    if (!f.queries.length) {
      out.push('  none', '');
      continue;
    }
    const ft = table(['query', `${f.a} top-1`, `${f.b} top-1`, 'dir'], [16, 27, 27, 6]);
    for (const q of f.queries.slice(0, max)) {
      ft.push([
        safe(q.query_id),
        safe(`${q.a.selected ?? '(none)'} ${q.a.top1}`),
        safe(`${q.b.selected ?? '(none)'} ${q.b.top1}`),
        q.direction === 'better' ? p('green', 'better') : q.direction === 'worse' ? p('red', 'worse') : '',
      ]);
    }
    out.push(ft.toString());
    if (f.queries.length > max) out.push(`  … and ${f.queries.length - max} more (JSON / HTML have all)`);
    out.push('');
  }
  return finish(out);
}

export function renderSessionJson(s: CompareSessionModel): string {
  return jsonDoc(s);
}

export function renderSessionMarkdown(s: CompareSessionModel): string {
  const out: string[] = [`## Comparison ${mdCode(s.environment.session_id)}: suite ${mdCode(s.suite)}`, ''];
  out.push(
    `${s.variants.length} ${s.kind === 'sweep' ? `grid points of ${mdCode(s.sweep?.key ?? '?')}` : 'variants'} on ${mdCode(s.artifacts.query_set_id)}, seed ${s.settings.seed}, ${s.settings.replays} replays. Paired per-query tests, bootstrap 95% interval (${s.settings.resamples} resamples), randomization test (${s.settings.permutations} permutations), Holm over ${s.tests.length} tests, alpha ${s.settings.alpha}.`,
    '',
  );
  out.push('| id | variant | verdict |', '| --- | --- | --- |');
  for (const v of s.variants)
    out.push(
      `| ${v.id}${v.id === s.reference ? ' (reference)' : ''} | ${mdEscape(v.label)} | ${v.verdict} |`,
    );
  out.push('', '### Winners', '');
  for (const w of s.winners)
    out.push(
      `- ${mdCode(w.metric)}: ${w.winner ? `**${w.winner}** ${mdEscape(labelOf(s, w.winner))}` : 'no distinguishable winner'}: ${mdEscape(w.reason)}`,
    );
  out.push(
    '',
    '### Paired tests',
    '',
    '| metric | A | B | n | Δ mean | 95% CI | p | Holm p | W/T/L |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  );
  for (const t of s.tests) {
    out.push(
      `| ${mdCode(t.metric)} | ${t.a} | ${t.b} | ${t.n} | ${signed(t.mean_delta)} | ${interval(t.ci95)} | ${pValue(t.p_value)} | ${t.significant ? `**${pValue(t.p_holm)}**` : pValue(t.p_holm)} | ${t.wins}/${t.ties}/${t.losses} |`,
    );
  }
  for (const f of s.flips) {
    out.push('', `### Top-1 flips ${f.a} → ${f.b} (${f.queries.length})`, '');
    if (!f.queries.length) out.push('none');
    else {
      out.push('| query | A top-1 | B top-1 | direction |', '| --- | --- | --- | --- |');
      for (const q of f.queries) {
        out.push(
          `| ${mdCode(q.query_id)} | ${mdCode(q.a.selected ?? '(none)')} ${q.a.top1} | ${mdCode(q.b.selected ?? '(none)')} ${q.b.top1} | ${q.direction} |`,
        );
      }
    }
  }
  return out.join('\n') + '\n';
}

export function sessionCharts(s: CompareSessionModel): ChartSpec[] {
  const charts: ChartSpec[] = [];
  if (s.kind === 'sweep' && s.sweep) {
    const labels = s.variants.map((v) => String(v.sweep_value ?? v.label));
    chartedMetrics(s).forEach((m, i) => {
      charts.push({
        id: `sweep-${i}`,
        title: `${m} over ${s.sweep!.key}`,
        config: lineChart(`${m} over ${s.sweep!.key}`, labels, [
          { label: m, data: s.variants.map((v) => aggregate(s, v.id, m)) },
        ]),
      });
    });
  }
  const tests = vsReference(s);
  const others = s.variants.filter((v) => v.id !== s.reference);
  charts.push({
    id: 'deltas',
    title: `mean per-query delta vs ${s.reference}`,
    config: barChart(
      `mean per-query delta vs ${s.reference}`,
      s.metrics.map((m) => m.id),
      others.map((v) => ({
        label: `${v.id} ${v.label}`,
        data: s.metrics.map((m) => tests.find((t) => t.metric === m.id && t.b === v.id)?.mean_delta ?? null),
      })),
    ),
  });
  return charts;
}

export function renderSessionHtml(s: CompareSessionModel): string {
  const charts = sessionCharts(s);
  const winners = s.winners.filter((w) => w.winner);
  const body = html`<h1>Comparison ${s.environment.session_id}</h1>
    <p class="muted">
      suite ${s.suite} · ${s.variants.length}
      ${s.kind === 'sweep' ? `grid points of ${s.sweep?.key ?? '?'}` : 'variants'} · seed ${s.settings.seed} ·
      ${s.settings.replays} replays · <code>${s.artifacts.query_set_id}</code> ·
      <code>${s.artifacts.corpus_id}</code>
    </p>
    <div class="banner ${winners.length ? 'PASS' : 'INFO'}">
      ${winners.length ? `${winners.length} metric(s) with a distinguishable winner` : 'No distinguishable winner on any metric'}
      (Holm-corrected, alpha ${s.settings.alpha})
    </div>
    <h2>Variants</h2>
    <table>
      <thead>
        <tr>
          <th>id</th>
          <th>variant</th>
          <th>verdict</th>
          <th>config id</th>
        </tr>
      </thead>
      <tbody>
        ${s.variants.map(
          (v) =>
            html`<tr>
              <td>${v.id}${v.id === s.reference ? ' (reference)' : ''}</td>
              <td><code>${v.label}</code></td>
              <td class="${v.verdict}">${v.verdict}</td>
              <td><code>${v.config_id}</code></td>
            </tr>`,
        )}
      </tbody>
    </table>
    <h2>Charts</h2>
    <div class="charts">${charts.map(chartBox)}</div>
    <h2>Winners</h2>
    <table>
      <thead>
        <tr>
          <th>metric</th>
          <th>best mean</th>
          <th>winner</th>
          <th>why</th>
        </tr>
      </thead>
      <tbody>
        ${s.winners.map(
          (w) =>
            html`<tr>
              <td><code>${w.metric}</code></td>
              <td>${w.best ?? '-'}</td>
              <td class="${w.winner ? 'sig' : ''}">${w.winner ?? 'none'}</td>
              <td>${w.reason}</td>
            </tr>`,
        )}
      </tbody>
    </table>
    <h2>Paired tests (all pairs, Holm over ${s.tests.length} tests)</h2>
    <table>
      <thead>
        <tr>
          <th>metric</th>
          <th>A</th>
          <th>B</th>
          <th>n</th>
          <th>mean A</th>
          <th>mean B</th>
          <th>Δ mean</th>
          <th>95% CI</th>
          <th>p</th>
          <th>Holm p</th>
          <th>W/T/L</th>
        </tr>
      </thead>
      <tbody>
        ${s.tests.map(
          (t) =>
            html`<tr>
              <td><code>${t.metric}</code></td>
              <td>${t.a}</td>
              <td>${t.b}</td>
              <td class="num">${t.n}</td>
              <td class="num">${n4(t.mean_a)}</td>
              <td class="num">${n4(t.mean_b)}</td>
              <td class="num">${signed(t.mean_delta)}</td>
              <td class="num">${interval(t.ci95)}</td>
              <td class="num">${pValue(t.p_value)}</td>
              <td class="num ${t.significant ? 'sig' : ''}">${pValue(t.p_holm)}</td>
              <td class="num">${t.wins}/${t.ties}/${t.losses}</td>
            </tr>`,
        )}
      </tbody>
    </table>
    ${s.flips.map(
      (f) =>
        html`<h2>Top-1 flips ${f.a} → ${f.b} (${f.queries.length})</h2>
          <table>
            <thead>
              <tr>
                <th>query</th>
                <th>text</th>
                <th>${f.a} top-1</th>
                <th>${f.b} top-1</th>
                <th>direction</th>
              </tr>
            </thead>
            <tbody>
              ${f.queries.map(
                (q) =>
                  html`<tr>
                    <td><code>${q.query_id}</code></td>
                    <td>${q.text}</td>
                    <td><code>${q.a.selected ?? '(none)'}</code> ${q.a.top1}</td>
                    <td><code>${q.b.selected ?? '(none)'}</code> ${q.b.top1}</td>
                    <td class="${q.direction === 'better' ? 'pass' : q.direction === 'worse' ? 'fail' : ''}">
                      ${q.direction}
                    </td>
                  </tr>`,
              )}
              ${
                f.queries.length
                  ? ''
                  : html`<tr>
                      <td colspan="5">none: every query kept its top-1</td>
                    </tr>`
              }
            </tbody>
          </table>`,
    )}`;
  return htmlPage(`rgate compare: ${s.suite}`, body, charts);
}

/** One line for `rgate compare --list`. */
export function sessionSummary(s: CompareSessionModel): string {
  return s.variants.map((v) => `${v.id} ${v.label}`).join(' | ');
}
