export { buildServer, runUrl, DEFAULT_BODY_LIMIT, DEFAULT_RATE_LIMIT, type ServerOptions } from './app.js';
export { AccessControl, type Access } from './access.js';
export { registerPages, type PageContext } from './pages.js';
export type { ProjectInfo, Registry, TokenInfo } from './registry.js';
export {
  openServerStores,
  isPostgresUrl,
  DEFAULT_DATA_DIR,
  PROJECT_SLUG,
  type ServerStores,
} from './stores.js';
export { fixtureLibrary, type FixtureLibrary } from './page-fixtures.js';
