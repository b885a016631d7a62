/**
 * Pieces shared by the history, diff, comparison and closeout renderers: a borderless cli-table3,
 * ANSI paint that is a no-op without colour, and an HTML page shell with chart.js inlined under a
 * Content-Security-Policy that allows exactly its inline scripts (by hash). HTML is built with the
 * `html` tag, which escapes every interpolated value unless it is already `SafeHtml`: hostile query
 * text cannot become markup by a forgotten escape.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import Handlebars from 'handlebars';
import { RgateError } from '../../src/core/errors.js';
import { jsonForScript, terminalSafe } from '../escape.js';
import { chartJsPath } from '../run/html.js';
import { borderlessTable } from '../borderless-table.js';

/** A borderless table with fixed widths, one space between columns. */
export const table = borderlessTable;

export const WIDTH = 80;

const ANSI = { red: 31, green: 32, yellow: 33, bold: 1, dim: 2 } as const;
export type Paint = (code: keyof typeof ANSI, s: string) => string;

export function painter(color: boolean): Paint {
  return (code, s) => (color ? `\u001b[${ANSI[code]}m${s}\u001b[0m` : s);
}

export const safe = terminalSafe;

/** Lines joined, trailing blanks stripped (tables pad every cell), one final newline. */
export function finish(lines: string[]): string {
  return (
    lines
      .map((l) => l.replace(/[ ]+$/, ''))
      .join('\n')
      .replace(/\n*$/, '') + '\n'
  );
}

export function fit(s: string, width: number): string {
  return s.length > width ? s.slice(0, width - 1) + '…' : s;
}

/** A plain number: 0.6300 -> "0.63"; null -> "n/a". */
export function n4(x: number | null | undefined): string {
  if (x === null || x === undefined) return 'n/a';
  const s = x.toFixed(4);
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
}

export function signed(x: number | null | undefined): string {
  if (x === null || x === undefined) return 'n/a';
  return (x > 0 ? '+' : x < 0 ? '-' : '±') + n4(Math.abs(x));
}

export function pValue(p: number | null): string {
  if (p === null) return 'n/a';
  return p < 0.0001 ? '<0.0001' : p.toFixed(4);
}

export function interval(ci: [number, number] | null): string {
  return ci ? `[${signed(ci[0])}, ${signed(ci[1])}]` : 'n/a';
}

/** Pretty, stable JSON (the documents are built in a deterministic key order). */
export function jsonDoc(doc: unknown): string {
  return JSON.stringify(doc, null, 2) + '\n';
}

// ---- HTML ---------------------------------------------------------------------------------------

export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/**
 * Handlebars' own escaper, so these pages and the run report spell entities alike (it also escapes
 * `=` and backtick, which matter in unquoted attributes) and the pages can move to handlebars
 * templates without a byte changing.
 */
export const escapeHtml: (s: string) => string = Handlebars.Utils.escapeExpression;

type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

function piece(v: HtmlValue): string {
  if (v === null || v === undefined || v === false) return '';
  if (v instanceof SafeHtml) return v.value;
  if (Array.isArray(v)) return v.map(piece).join('');
  return escapeHtml(String(v));
}

/** Tagged template: every interpolation is escaped unless it is SafeHtml (or an array of them). */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((v, i) => {
    out += piece(v) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;color:#1b1f24;background:#f6f7f9}
main{max-width:1100px;margin:0 auto;padding:24px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #d6d9de;padding-bottom:4px}
table{border-collapse:collapse;width:100%;background:#fff;margin:6px 0}
th,td{border:1px solid #e1e4e8;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f0f2f5;font-weight:600}
td.num{text-align:right;font-variant-numeric:tabular-nums}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12px;word-break:break-all}
.PASS,.pass,.sig{color:#116329;font-weight:600}.WATCH,.watch{color:#9a6700;font-weight:600}.FAIL,.fail,.alarm{color:#cf222e;font-weight:600}
.banner{padding:10px 14px;border-radius:6px;margin:10px 0;color:#fff;font-weight:600}
.banner.PASS{background:#1a7f37}.banner.WATCH{background:#9a6700}.banner.FAIL{background:#cf222e}.banner.INFO{background:#57606a}
.muted{color:#57606a}.charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(320px,1fr));gap:12px}
.chart{background:#fff;border:1px solid #e1e4e8;padding:8px;height:240px;position:relative}
.sign{display:grid;grid-template-columns:180px 1fr 1fr 1fr;gap:8px 16px;background:#fff;border:1px solid #e1e4e8;padding:12px}
.line{border-bottom:1px solid #1b1f24;min-height:22px}
`;

let chartJs: string | undefined;

function chartSource(): string {
  if (chartJs === undefined) {
    const path = chartJsPath();
    if (!existsSync(path)) throw new RgateError('internal', `chart.js not found at ${path}`, 'run npm ci');
    const src = readFileSync(path, 'utf8');
    if (/<\/script|<!--/i.test(src)) throw new RgateError('internal', `${path} cannot be inlined safely`);
    chartJs = src;
  }
  return chartJs;
}

const cspHash = (s: string) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;

/**
 * Each chart: a canvas id and a chart.js config. Configs travel as JSON in a data block
 * (jsonForScript), so text inside them (labels) cannot end the script element.
 */
export interface ChartSpec {
  id: string;
  title: string;
  config: unknown;
}

/** Draws every chart of the data block; identical for every page, so its CSP hash is fixed. */
const CLIENT = `(function(){var d=JSON.parse(document.getElementById('rgate-charts').textContent);
d.forEach(function(c){var el=document.getElementById(c.id);if(!el||typeof Chart==='undefined')return;
var cfg=c.config;cfg.options=cfg.options||{};cfg.options.animation=false;cfg.options.maintainAspectRatio=false;
new Chart(el.getContext('2d'),cfg);el.setAttribute('data-drawn','1');});})();`;

/** A whole self-contained page: no network, chart.js and the client inlined and allowed by hash. */
export function htmlPage(title: string, body: SafeHtml, charts: readonly ChartSpec[] = []): string {
  const scripts = charts.length ? [chartSource(), CLIENT] : [];
  const csp = [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    'img-src data:',
    `script-src ${scripts.length ? scripts.map(cspHash).join(' ') : "'none'"}`,
  ].join('; ');
  const chartBlocks = charts.length
    ? `<script type="application/json" id="rgate-charts">${jsonForScript(charts.map((c) => ({ id: c.id, config: c.config })))}</script>\n` +
      scripts.map((s) => `<script>${s}</script>`).join('\n')
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body.value}
</main>
${chartBlocks}
</body>
</html>
`;
}

/** The markup of one chart box. */
export function chartBox(c: ChartSpec): SafeHtml {
  return html`<div class="chart"><canvas id="${c.id}" aria-label="${c.title}" role="img"></canvas></div>`;
}

/** A line chart config (one or more series over shared labels). */
export function lineChart(
  title: string,
  labels: string[],
  series: { label: string; data: (number | null)[] }[],
  yMax?: number,
): unknown {
  const colors = ['#0969da', '#cf222e', '#1a7f37', '#9a6700', '#8250df', '#57606a'];
  return {
    type: 'line',
    data: {
      labels,
      datasets: series.map((s, i) => ({
        label: s.label,
        data: s.data,
        borderColor: colors[i % colors.length],
        backgroundColor: colors[i % colors.length],
        spanGaps: false,
        tension: 0,
      })),
    },
    options: {
      plugins: { title: { display: true, text: title }, legend: { display: series.length > 1 } },
      scales: { y: { beginAtZero: true, ...(yMax !== undefined ? { max: yMax } : {}) } },
    },
  };
}

export function barChart(
  title: string,
  labels: string[],
  series: { label: string; data: (number | null)[] }[],
): unknown {
  const colors = ['#0969da', '#cf222e', '#1a7f37', '#9a6700', '#8250df', '#57606a'];
  return {
    type: 'bar',
    data: {
      labels,
      datasets: series.map((s, i) => ({
        label: s.label,
        data: s.data,
        backgroundColor: colors[i % colors.length],
      })),
    },
    options: { plugins: { title: { display: true, text: title } }, scales: { y: { beginAtZero: true } } },
  };
}
