/** The dashboard of `rgate server`: its URL scheme, its pages and the assets they load. */
export { absoluteLink, DASHBOARD_CSP, dashboardLinks, type DashboardLinks, type RunsQuery } from './links.js';
export { dashboardAssets, type DashboardAsset } from './assets.js';
export {
  renderComparePage,
  renderDiffPage,
  renderLabelQueuePage,
  renderMessagePage,
  renderProjectPage,
  renderProjectsPage,
  renderRunPage,
  renderRunsComparePage,
  renderRunsListPage,
  renderSuiteTrendPage,
  renderVsBasePage,
} from './pages.js';
