#!/usr/bin/env node
// Replays `cortex-coach context-load` from its recorded outputs (fixtures/cortex-coach/responses):
//   node cortex-coach-replay.mjs context-load --project-dir D --task T --retrieval-profile P
//     --weighting-mode M [--fallback-mode none] [--max-files N --max-chars-per-file C]
// The task text names the query (fixture-queries.json `query_text`); the answer is the recording
// `<query_id>.<weighting mode>[.fallback-none].json`, printed on stdout as the tool printed it, exit 0
// and nothing on stderr (as recorded). A task or mode with no recording fails as a CLI error would.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'cortex-coach');
const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
if (args[0] !== 'context-load') {
  process.stderr.write('usage: cortex-coach context-load --task T --weighting-mode M\n');
  process.exit(2);
}
const task = flag('task') ?? '';
const queries = JSON.parse(readFileSync(join(DIR, 'fixture-queries.json'), 'utf8'));
const q = queries.find((x) => x.query_text === task);
const mode = flag('weighting-mode') ?? 'uniform';
const suffix = flag('fallback-mode') === 'none' ? '.fallback-none' : '';
let body;
try {
  body = q && readFileSync(join(DIR, 'responses', `${q.query_id}.${mode}${suffix}.json`));
} catch {
  body = undefined;
}
if (!body) {
  process.stderr.write(
    `error: no recorded context-load answer for ${mode}${suffix} task ${JSON.stringify(task)}\n`,
  );
  process.exit(1);
}
process.stdout.write(body);
