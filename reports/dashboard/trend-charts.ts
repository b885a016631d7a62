/**
 * The trend page's charts: one per gate metric (else per measured metric) over the window's
 * complete runs, a line per branch, the baseline a large star, a snapshot change a hollow diamond.
 * Every chart plots the same runs, so the arrays that depend only on the runs (the labels, and each
 * line's point styles) are made once and shared by every chart: 1,000 entries each, not twelve
 * times that.
 */
import type { SuiteTrendView, TrendPoint } from '../../src/documents/index.js';
import { PALETTE, type ChartSpec } from '../history/shared.js';
import { measuredTrends } from '../history/trends.js';

const SHAPES = ['circle', 'triangle', 'rect', 'crossRot', 'cross', 'rectRounded', 'line'] as const;

/** No branch: sorts after every branch name. */
const NONE = '\u0000';

export function trendCharts(v: SuiteTrendView): ChartSpec[] {
  const h = v.history;
  const gate = h.trends.filter((t) => t.gate_metric);
  const chosen = gate.length ? gate : measuredTrends(h);
  const byId = new Map(v.runs.map((r) => [r.run_id, r]));
  const branchOf = (pt: TrendPoint) => byId.get(pt.run_id)?.branch ?? NONE;
  const labelOf = (pt: TrendPoint) => {
    const c = byId.get(pt.run_id)?.commit ?? null;
    return c !== null ? c.slice(0, 7) : pt.run_id;
  };
  const baseline = v.baseline?.in_window ? v.baseline.run_id : null;
  const shared = new SharedSeries();
  return chosen.map((t, i) => {
    const runs = shared.of(t.points, labelOf, branchOf);
    const branches = [...new Set(runs.branches)].sort((a, b) =>
      a === NONE ? 1 : b === NONE ? -1 : a < b ? -1 : a > b ? 1 : 0,
    );
    const datasets: Record<string, unknown>[] = branches.map((b, j) => {
      const color = PALETTE[j % (PALETTE.length - 1)]!;
      return {
        label: b === NONE ? '(no branch)' : `branch ${b}`,
        data: t.points.map((pt, k) => (runs.branches[k] === b ? pt.value : null)),
        borderColor: color,
        backgroundColor: color,
        pointStyle: runs.styles(SHAPES[j % SHAPES.length]!),
        pointRadius: runs.radii(),
        pointBackgroundColor: runs.fills(color),
        borderDash: j % 2 ? [6, 3] : [],
        spanGaps: true,
        tension: 0,
      };
    });
    if (baseline !== null && t.points.some((pt) => pt.run_id === baseline)) {
      datasets.push({
        label: `baseline ${baseline}`,
        data: t.points.map((pt) => (pt.run_id === baseline ? pt.value : null)),
        borderColor: '#000000',
        backgroundColor: '#000000',
        pointStyle: 'star',
        pointRadius: 12,
        pointBorderWidth: 2,
        showLine: false,
      });
    }
    return {
      id: `trend-${i}`,
      title: `${t.metric} over the runs of ${h.suite} (${t.better} is better)`,
      config: {
        type: 'line',
        data: { labels: runs.labels, datasets },
        options: {
          plugins: {
            title: { display: true, text: `${t.metric} (${t.better} is better)` },
            legend: { display: true },
          },
          scales: { y: { beginAtZero: true, ...(t.kind === 'rate' ? { max: 1 } : {}) } },
        },
      },
      size: { wide: t.points.length > 12 },
    };
  });
}

/** What a chart draws from its runs alone: their labels, branches and point styles. */
interface RunSeries {
  runIds: readonly string[];
  changed: readonly boolean[];
  labels: string[];
  branches: string[];
  styles(shape: string): string[];
  radii(): number[];
  fills(color: string): string[];
}

/**
 * The series of the charts' runs, made once and handed to each chart whose points are the same
 * runs with the same snapshot changes (every chart of a trend page: each metric is plotted over
 * the window's complete runs); a chart over other runs gets its own.
 */
class SharedSeries {
  private last: RunSeries | undefined;

  of(
    points: readonly TrendPoint[],
    labelOf: (pt: TrendPoint) => string,
    branchOf: (pt: TrendPoint) => string,
  ): RunSeries {
    const last = this.last;
    if (
      last &&
      last.runIds.length === points.length &&
      points.every((pt, k) => pt.run_id === last.runIds[k] && pt.snapshot_changed === last.changed[k])
    )
      return last;
    const changed = points.map((pt) => pt.snapshot_changed);
    const made = new Map<string, string[] | number[]>();
    const once = <T extends string[] | number[]>(key: string, make: () => T): T => {
      let series = made.get(key) as T | undefined;
      if (series === undefined) made.set(key, (series = make()));
      return series;
    };
    this.last = {
      runIds: points.map((pt) => pt.run_id),
      changed,
      labels: points.map(labelOf),
      branches: points.map(branchOf),
      styles: (shape) => once(`style ${shape}`, () => changed.map((c) => (c ? 'rectRot' : shape))),
      radii: () => once('radius', () => changed.map((c) => (c ? 8 : 3))),
      fills: (color) => once(`fill ${color}`, () => changed.map((c) => (c ? '#ffffff' : color))),
    };
    return this.last;
  }
}
