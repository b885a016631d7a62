import { defineConfig } from 'vitest/config';

export default defineConfig({
  // bin.cts and score-route.cts are CommonJS TypeScript (the rgate entry loads the score bundle
  // synchronously); vite transforms .ts/.mts by default, not .cts
  oxc: { include: /\.(c|m)?tsx?$/ },
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
