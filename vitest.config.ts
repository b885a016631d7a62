import { defineConfig } from 'vitest/config';

/**
 * The end-to-end tests: through a real browser (Chromium), a packed and installed package, real
 * signals to a real process tree, the CLI's run lifecycle (shards merged, `--json` shapes, merge's
 * last lines) through spawned CLIs, or a walkthrough run command by command on the shipped project
 * (the Gate C closeout of docs/gate-c-closeout.md, the command blocks of docs/, every comparison
 * `rgate compare --help` and docs/tuning.md show). They
 * are `npm run test:e2e` (vitest.e2e.config.ts), not `npm test`: together about 200 s of CPU, they
 * alone would put `npm test` past its two minutes. CI runs both and counts both in its `tests:`
 * line; so does `npm run test:all`.
 */
export const E2E_TESTS = [
  'test/**/*-browser.test.ts',
  'test/init-package.test.ts',
  'test/compare-winner-holes.test.ts',
  'test/ku-context-matching.test.ts',
  'test/ci-files.test.ts',
  'test/snapshot-cli.test.ts',
  'test/cli-help-wrap.test.ts',
  'test/run-sigint.test.ts',
  'test/run-sigkill.test.ts',
  'test/run-lifecycle.test.ts',
  'test/readme-walkthrough.test.ts',
  'test/readme-evidence.test.ts',
  'test/docs-commands.test.ts',
  'test/compare-help-examples.test.ts',
  'test/compare-runs.test.ts',
  'test/program-bundle.test.ts',
  'test/store-readers.test.ts',
  'test/compare-memory-cli.test.ts',
  'test/json-outputs.test.ts',
  'test/docs-figures-runs.test.ts',
  // whole CLI invocations, bundles, process trees or a browser per case (about 85 s of the unit
  // suite's test time here, which kept npm test past two minutes)
  'test/reports-html-trend.test.ts',
  'test/compare-engine-reads.test.ts',
  'test/run-bundle.test.ts',
  'test/score-bundle.test.ts',
  'test/server-cli.test.ts',
  'test/cortex-coach-replay.test.ts',
  'test/memory-cli-replay.test.ts',
  'test/terminal-width.test.ts',
  'src/cli/commands/init.test.ts',
  'test/systems-isolation.test.ts',
  'test/readme-runs.test.ts',
  'test/probes-cli.test.ts',
  'test/import-provenance.test.ts',
  'test/history-concurrent-run.test.ts',
  // about 6,000 hostile requests to a server on each store (every route, every parameter): 70 s of
  // wall clock at load 8
  'test/server-fuzz.test.ts',
  // spawn the built CLI per case, and a server with real uploads per store
  'test/module-system.test.ts',
  'test/server-vs-base.test.ts',
  'test/server-vs-base-gate.test.ts',
  // the compiled CLI as a child process per case
  'test/cli-edges.test.ts',
  'test/run-cli.test.ts',
  'test/shell-scripts.test.ts',
];

/**
 * The figures docs/engine.md quotes from the benchmarks, checked by running them (about 3 minutes of
 * wall clock, 100 s of CPU): `npm run test:docs-bench`, in neither `npm test` nor CI's end-to-end run,
 * as the benchmarks themselves are not.
 */
export const DOCS_BENCH_TESTS = ['test/docs-figures-bench.test.ts'];

/** The suite's settings, and which files it runs (`npm test` and `npm run test:e2e` differ only there). */
export function suiteConfig(files: { include: string[]; exclude: string[]; globalSetup?: string[] }) {
  return defineConfig({
    // bin.cts and score-route.cts are CommonJS TypeScript (the rgate entry loads the score bundle
    // synchronously); vite transforms .ts/.mts by default, not .cts
    oxc: { include: /\.(c|m)?tsx?$/ },
    test: {
      include: files.include,
      exclude: ['**/node_modules/**', ...files.exclude],
      globalSetup: files.globalSetup ?? [],
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
}

export default suiteConfig({
  include: [
    'src/**/*.test.ts',
    'harness/**/*.test.ts',
    'history/**/*.test.ts',
    'server/**/*.test.ts',
    'gates/**/*.test.ts',
    'reports/**/*.test.ts',
    'test/**/*.test.ts',
  ],
  exclude: [...E2E_TESTS, ...DOCS_BENCH_TESTS],
  // the unit suite leaves the repository's .rgate/ as it found it (its tests write to temp folders)
  globalSetup: ['test/helpers/repo-untouched.ts'],
});
