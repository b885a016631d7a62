import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Argv } from 'yargs';
import { EXIT, RgateError } from '../../core/errors.js';
import {
  compareWithFreeze,
  FIXTURE_FILES,
  loadFixtureSet,
  readFreeze,
  resolveFixtureDir,
} from '../../snapshot/index.js';
import type { VerifyOutput, VerifySetResult } from '../../documents/index.js';
import type { RgateCommand } from '../command.js';

interface VerifyArgs {
  sets?: string[];
  json?: boolean;
  root?: string;
}

/** Every folder under <root>/fixtures that has a freeze.json, sorted. */
function frozenSets(root: string): string[] {
  const dir = join(root, 'fixtures');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => existsSync(join(dir, n, FIXTURE_FILES.freeze)))
    .sort();
}

/** `rgate verify [sets..]`: validate each set's files and compare their content hashes with freeze.json. */
export const verifyCommand: RgateCommand<VerifyArgs> = {
  command: 'verify [sets..]',
  describe: 'Check fixture sets against their freeze.json (schemas and content sha256)',
  builder: (y: Argv) =>
    y
      .positional('sets', {
        type: 'string',
        array: true,
        describe: 'set names (fixtures/<name>) or folders; default: every frozen set',
      })
      .option('json', { type: 'boolean', default: false, describe: 'print a JSON result' })
      .option('root', {
        type: 'string',
        describe: 'project root holding fixtures/ (default: current directory)',
      })
      .example('rgate verify', 'verify every frozen set under fixtures/')
      .example('rgate verify cacm cranfield', 'verify two sets by name')
      .example('rgate verify ./my-set --json', 'verify a folder, JSON output'),
  async handler(args, io) {
    const root = args.root ? join(io.cwd, args.root) : io.cwd;
    const names = args.sets && args.sets.length > 0 ? args.sets : frozenSets(root);
    if (names.length === 0)
      throw new RgateError(
        'usage',
        `no frozen fixture sets under ${join(root, 'fixtures')}`,
        'name a set: rgate verify <set>',
      );
    const results: VerifySetResult[] = [];
    for (const name of names) {
      const dir = resolveFixtureDir(name, root);
      const freeze = readFreeze(dir);
      // full load without the freeze check: every line is schema-validated while it is hashed
      const suite = loadFixtureSet(dir, { verify: false });
      const r = compareWithFreeze(dir, freeze, {
        corpus: suite.artifacts.corpus_sha256,
        query_set: suite.artifacts.query_set_sha256,
        config: suite.artifacts.config_sha256,
      });
      results.push({
        ...r,
        counts: {
          corpus_records: suite.corpus.length,
          queries: suite.queries.length,
          judgments: freeze.counts.judgments,
        },
      });
    }
    const ok = results.every((r) => r.ok);
    if (args.json) io.out(JSON.stringify({ ok, sets: results } satisfies VerifyOutput, null, 2));
    else
      for (const r of results) {
        if (r.ok)
          io.out(
            `ok    ${r.name}  ${r.artifact_id} ${r.version}  (${r.counts.corpus_records} docs, ${r.counts.queries} queries)`,
          );
        else {
          io.out(`FAIL  ${r.name}  ${r.artifact_id} ${r.version}`);
          for (const p of r.problems) io.err(`rgate: error: ${p}`);
        }
      }
    if (!ok && !args.json)
      io.err(
        '  hint: restore the files, or re-freeze with a version bump: rgate freeze <set> --version <next> --reset-note "..."',
      );
    return ok ? EXIT.ok : EXIT.usage;
  },
};
