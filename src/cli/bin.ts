#!/usr/bin/env node
import { existsSync, statSync } from 'node:fs';
import { defaultIo } from './io.js';
import { scoreArgv } from './score-route.js';

type ScoreMain = typeof import('./score-main.js');

/**
 * `rgate score` from the one-file bundle the build writes (dist/bundle), when it is at least as new
 * as the compiled modules it was made from; otherwise (tsc alone, a stale bundle) from the modules.
 */
async function loadScoreMain(): Promise<ScoreMain> {
  const bundle = new URL('../../bundle/score-main.js', import.meta.url);
  const compiled = new URL('./score-main.js', import.meta.url);
  if (existsSync(bundle) && statSync(bundle).mtimeMs >= statSync(compiled).mtimeMs) {
    return (await import(bundle.href)) as ScoreMain;
  }
  return import('./score-main.js');
}

const argv = process.argv.slice(2);
const score = scoreArgv(argv);
process.exitCode = score
  ? await (await loadScoreMain()).runScoreCli(score, defaultIo())
  : await (await import('./program.js')).runCli(argv);
