import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'src/**/*.test.ts',
      'harness/**/*.test.ts',
      'history/**/*.test.ts',
      'gates/**/*.test.ts',
      'reports/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration tests spawn real processes and servers; two forks match the 2-core machines.
    pool: 'forks',
    maxWorkers: 2,
  },
});
