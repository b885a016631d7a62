/**
 * The files the dashboard's pages load from /assets/: chart.js (from the installed package, never a
 * CDN), the stylesheet, and the page scripts (the dashboard's own, and the run report's, the
 * comparison's and the label queue's clients, which the files rgate writes inline instead).
 */
import { CHARTS_CLIENT } from '../history/shared.js';
import { chartJsPath, templateFile } from '../templates.js';

/** One asset: a file to send, or its content; with the Content-Type to send it as. */
export type DashboardAsset = { path: string; type: string } | { content: string; type: string };

const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';

/**
 * The assets by name (the `:name` of `/assets/:name`, see DashboardLinks.asset). The server serves
 * exactly these and nothing else from /assets/. Example: dashboardAssets()['dashboard.css'].
 */
export function dashboardAssets(): Record<string, DashboardAsset> {
  return {
    'chart.umd.js': { path: chartJsPath(), type: JS },
    'dashboard.css': { path: templateFile('dashboard', 'dashboard.css'), type: CSS },
    'dashboard.js': { path: templateFile('dashboard', 'dashboard.js'), type: JS },
    'report-client.js': { path: templateFile('run', 'report-client.js'), type: JS },
    'charts-client.js': { content: CHARTS_CLIENT, type: JS },
    'label-queue-client.js': { path: templateFile('history', 'label-queue-client.js'), type: JS },
  };
}
