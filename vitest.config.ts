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
      'server/**/*.test.ts',
      'gates/**/*.test.ts',
      'reports/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    // A hang guard, not a margin: no test bets on how long anything takes (each waits for the event
    // it needs, and a timeout it must see fire runs on a clock it moves: test/helpers/clock.ts). On
    // a busy 2-core machine (`npm run test:loaded`, other builds beside it) the heaviest tests (two
    // `rgate run`s of CACM at once, a comparison, a browser session) take 5-10x their idle time, over
    // a minute (65 s seen). One bound for every test and hook, no per-test overrides.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // Integration tests spawn real processes and servers; two forks match the 2-core machines (more
    // would only share the same two cores among more heavy tests, each then slower).
    pool: 'forks',
    maxWorkers: 2,
    // Each of the two forks runs its test files one after another in the same process instead of a
    // fresh one per file: importing the sources again for each of ~140 files was a third of the
    // suite's CPU (282 s -> 182 s measured, 897 tests alike). The price is discipline, which the
    // suite keeps: a file that changes process state (env, cwd, a module switch such as
    // useRunScanner) restores it in its own afterEach/afterAll.
    isolate: false,
  },
});
