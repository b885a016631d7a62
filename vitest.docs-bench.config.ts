import { DOCS_BENCH_TESTS, suiteConfig } from './vitest.config.js';

/** `npm run test:docs-bench`: docs/engine.md's benchmark figures, checked by running the benchmarks. */
export default suiteConfig({ include: DOCS_BENCH_TESTS, exclude: [] });
