import { E2E_TESTS, suiteConfig } from './vitest.config.js';

/** `npm run test:e2e`: the end-to-end tests `npm test` leaves out (see E2E_TESTS), same settings. */
export default suiteConfig({ include: E2E_TESTS, exclude: [] });
