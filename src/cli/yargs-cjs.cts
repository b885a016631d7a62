/**
 * yargs' CommonJS build, as program.ts uses it. Its ESM build lays help out with cliui's ESM wrap,
 * which cuts at the column edge whatever it hits ("request" / "s", "-" / "-json"); the CommonJS build
 * wraps with wrap-ansi at word boundaries. Same yargs version, same API. A static require (not
 * createRequire) so that scripts/bundle-program.mjs bundles it into dist/src/cli/program-bundle.cjs.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a static require is what the bundler follows
import yargs = require('yargs/yargs');

export = yargs;
