#!/usr/bin/env node
// Replays AthenaMind `memory-cli retrieve` from its recorded outputs (fixtures/memory-cli/responses):
//   node memory-cli-replay.mjs retrieve --root R --top-k 5 --embedding-endpoint URL --query Q [--mode hybrid]
// Like the real CLI it prints the JSON answer on stdout, one warning line on stderr, and exits 0. A
// query with no recording fails as a CLI error would (stderr, exit 1). MEMORY_CLI_REPLAY_LOCKED names
// a query answered the way the CLI fails under concurrent calls on one root: "database is locked".
// MEMORY_CLI_REPLAY_DERIVED names a JSON file a test wrote, {"<replay>:<mode>:<query>": "<answer file>"}:
// answers DERIVED from the recordings by that test (not recorded from the CLI), each given for that
// one replay only (MEMORY_CLI_REPLAY_N, the suite's {replay}); a file is read beside the JSON file.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const RESPONSES = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'fixtures',
  'memory-cli',
  'responses',
);
// query text (and mode) -> recorded file, as PROVENANCE.md lists them
const RECORDED = {
  'classic:how are memory entries reviewed before promotion': 'retrieve-classic.json',
  'hybrid:how are memory entries reviewed before promotion': 'retrieve-hybrid.json',
  'classic:zzqx qqvw': 'retrieve-nomatch.json',
  'classic:cli-commands-4a43d031': 'retrieve-exact-key.json',
};

// the recording kept the warning's start only (PROVENANCE.md); the rest says so
const WARNING =
  'warning: embedding unavailable; using token-overlap scoring: (replayed: detail not recorded)\n';
const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
if (args[0] !== 'retrieve') {
  process.stderr.write(`usage: memory-cli retrieve --root R --query Q [--mode hybrid]\n`);
  process.exit(2);
}
const query = flag('query') ?? '';
const mode = flag('mode') === 'hybrid' ? 'hybrid' : 'classic';
if (query === process.env.MEMORY_CLI_REPLAY_LOCKED) {
  process.stderr.write(WARNING);
  process.stderr.write('database is locked\n');
  process.exit(1);
}
const derivedIndex = process.env.MEMORY_CLI_REPLAY_DERIVED;
const derived = derivedIndex
  ? JSON.parse(readFileSync(derivedIndex, 'utf8'))[`${process.env.MEMORY_CLI_REPLAY_N}:${mode}:${query}`]
  : undefined;
if (derived) {
  process.stderr.write(WARNING);
  process.stdout.write(readFileSync(join(dirname(derivedIndex), derived)));
  process.exit(0);
}
const file = RECORDED[`${mode}:${query}`];
if (!file) {
  process.stderr.write(`error: no recorded memory-cli answer for ${mode} query ${JSON.stringify(query)}\n`);
  process.exit(1);
}
process.stderr.write(WARNING);
process.stdout.write(readFileSync(join(RESPONSES, file)));
