import { defineConfig } from 'vitest/config';

/** `npm run soak`: long runs kept out of `npm test` (they take minutes and measure memory). */
export default defineConfig({
  test: {
    include: ['test/soak/**/*.soak.ts'],
    testTimeout: 30 * 60_000,
    pool: 'forks',
    maxWorkers: 1,
  },
});
