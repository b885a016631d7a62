/**
 * Pieces shared by the history, diff, comparison and closeout renderers: the default width,
 * ANSI paint that is a no-op without colour, and the HTML page: a handlebars template from
 * reports/history/templates inside shell.hbs, chart.js inlined under a Content-Security-Policy that
 * allows exactly its inline scripts (by hash). Every value reaches the HTML through `{{ }}`, which
 * escapes it, so hostile query text cannot become markup.
 */
import { jsonForScript, terminalSafe } from '../escape.js';

/** re-exported: every renderer writes p-values the one way gates/format.ts does */
export { pValue, testP } from '../../gates/format.js';
import { chartJs, cspHash, FRAMED_PAGE_CSP, template, type PageFrame } from '../templates.js';

/**
 * The width a terminal rendering is laid out for when the caller gives none (output to a file or a
 * pipe); the CLI passes the terminal's own.
 */
export const DEFAULT_WIDTH = 80;

const ANSI = { red: 31, green: 32, yellow: 33, bold: 1, dim: 2 } as const;
export type Paint = (code: keyof typeof ANSI, s: string) => string;

export function painter(color: boolean): Paint {
  return (code, s) => (color ? `\u001b[${ANSI[code]}m${s}\u001b[0m` : s);
}

export const safe = terminalSafe;

/** Lines joined, every line's trailing blanks stripped (tables pad every cell), one final newline. */
export function finish(lines: string[]): string {
  return (
    lines
      .join('\n')
      .split('\n')
      .map((l) => l.replace(/[ ]+$/, ''))
      .join('\n')
      .replace(/\n*$/, '') + '\n'
  );
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

export function interval(ci: [number, number] | null): string {
  return ci ? `[${signed(ci[0])}, ${signed(ci[1])}]` : 'n/a';
}

/** Pretty, stable JSON (the documents are built in a deterministic key order). */
export function jsonDoc(doc: unknown): string {
  return JSON.stringify(doc, null, 2) + '\n';
}

// ---- HTML ---------------------------------------------------------------------------------------

/**
 * Each chart: a canvas id and a chart.js config. Configs travel as JSON in a data block
 * (jsonForScript), so text inside them (labels) cannot end the script element.
 */
export interface ChartSpec {
  id: string;
  title: string;
  config: unknown;
  /** sized for its data: `wide` spans the whole row, `height` in CSS pixels (default 240) */
  size?: { wide?: boolean; height?: number };
}

/**
 * Okabe & Ito's colour-blind-safe palette (blue, vermillion, bluish green, orange, reddish purple,
 * sky blue, black); series also differ by point shape and dash, so colour is never the only cue.
 */
export const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#E69F00', '#CC79A7', '#56B4E9', '#000000'] as const;
const SHAPES = ['circle', 'triangle', 'rect', 'rectRot', 'star', 'crossRot', 'cross'] as const;
const DASHES = [[], [6, 3], [2, 2], [8, 3, 2, 3]] as const;

/** Height for a horizontal bar chart: a readable band per bar, within bounds. */
export function barChartSize(labels: number, series: number): { wide: boolean; height: number } {
  const height = Math.min(900, Math.max(200, 70 + labels * (12 + 16 * Math.max(1, series))));
  return { wide: labels * Math.max(1, series) > 6, height };
}

/**
 * Draws every chart of the data block; identical for every page, so its CSP hash is fixed (and the
 * dashboard serves it as /assets/charts-client.js).
 */
export const CHARTS_CLIENT = `(function(){var d=JSON.parse(document.getElementById('rgate-charts').textContent);
d.forEach(function(c){var el=document.getElementById(c.id);if(!el||typeof Chart==='undefined')return;
var cfg=c.config;cfg.options=cfg.options||{};cfg.options.animation=false;cfg.options.maintainAspectRatio=false;
new Chart(el.getContext('2d'),cfg);el.setAttribute('data-drawn','1');});})();`;

/**
 * A whole self-contained page: reports/history/templates/<name>.hbs drawn with `view`, inside
 * shell.hbs, with no network; with charts, chart.js and the client are inlined and allowed by hash
 * and the `charts` partial draws one box per chart.
 */
export function renderPage(
  name: 'history' | 'compare' | 'closeout',
  title: string,
  view: object,
  charts: readonly ChartSpec[],
  frame?: PageFrame,
): string {
  const scripts = charts.length
    ? {
        data: jsonForScript(charts.map((c) => ({ id: c.id, config: c.config }))),
        chart: frame ? '' : chartJs(),
        client: frame ? '' : CHARTS_CLIENT,
      }
    : null;
  const csp = frame
    ? FRAMED_PAGE_CSP
    : [
        "default-src 'none'",
        "style-src 'unsafe-inline'",
        'img-src data:',
        `script-src ${scripts ? `${cspHash(scripts.chart)} ${cspHash(scripts.client)}` : "'none'"}`,
      ].join('; ');
  return template(
    'history',
    name,
  )({
    ...view,
    charts: charts.map((c) => ({
      id: c.id,
      title: c.title,
      wide: c.size?.wide ?? false,
      height: Math.round(c.size?.height ?? 240),
    })),
    page: { title, csp, scripts, frame: frame ?? null },
  });
}

/** A line chart config (one or more series over shared labels). */
export function lineChart(
  title: string,
  labels: string[],
  series: { label: string; data: (number | null)[] }[],
  yMax?: number,
): unknown {
  return {
    type: 'line',
    data: {
      labels,
      datasets: series.map((s, i) => ({
        label: s.label,
        data: s.data,
        borderColor: PALETTE[i % PALETTE.length],
        backgroundColor: PALETTE[i % PALETTE.length],
        pointStyle: SHAPES[i % SHAPES.length],
        pointRadius: 4,
        borderDash: DASHES[i % DASHES.length],
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
  // horizontal: long metric names stay readable, and the height grows with the bars (barChartSize)
  return {
    type: 'bar',
    data: {
      labels,
      datasets: series.map((s, i) => ({
        label: s.label,
        data: s.data,
        backgroundColor: PALETTE[i % PALETTE.length],
        borderColor: '#000000',
        borderWidth: i % 2,
      })),
    },
    options: {
      indexAxis: 'y',
      plugins: { title: { display: true, text: title } },
      scales: { x: { beginAtZero: true } },
    },
  };
}
