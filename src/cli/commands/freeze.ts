import type { Argv } from 'yargs';
import { EXIT } from '../../core/errors.js';
import type { FreezeOutput } from '../../documents/index.js';
import { pinEmbeddings, resolveFixtureDir, writeFreeze } from '../../snapshot/index.js';
import type { RgateCommand } from '../command.js';
import { emptyCorpusWarning } from '../empty-corpus.js';

interface FreezeArgs {
  set: string;
  version?: string;
  'reset-note'?: string;
  date?: string;
  json?: boolean;
}

/** Today's UTC date: freeze metadata only, never part of an id (so the wall clock is allowed here). */
function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}

/** `rgate freeze <set>`: hash the set's files and write freeze.json under the Fixture Freeze Binding. */
export const freezeCommand: RgateCommand<FreezeArgs> = {
  command: 'freeze <set>',
  describe: 'Freeze a fixture set: write freeze.json (ids, sha256, version history)',
  builder: (y: Argv) =>
    y
      // `--version` here is the fixture version, not rgate's own (the global flag is switched off for this command)
      .version(false)
      .positional('set', {
        type: 'string',
        demandOption: true,
        describe: 'set name (fixtures/<name>) or folder',
      })
      .option('version', {
        type: 'string',
        describe: 'version to freeze as (first freeze: v1; changes need a higher one)',
      })
      .option('reset-note', {
        type: 'string',
        describe: 'baseline reset note (required for every new version)',
      })
      .option('date', {
        type: 'string',
        describe: 'frozen_on date YYYY-MM-DD (default: today, UTC); metadata only',
      })
      .option('json', {
        type: 'boolean',
        default: false,
        describe: 'print freeze.json and the action as JSON',
      })
      .example('rgate freeze cacm', 'first freeze (v1), or a no-op if nothing changed')
      .example(
        'rgate freeze cacm --version v2 --reset-note "dropped 3 duplicate queries"',
        'refreeze after a query change',
      )
      .example('rgate freeze ./my-set --date 2026-01-31', 'freeze a folder with an explicit date')
      .example(
        'rgate freeze my-set   # config.json: "embedder": {"type": "http", "api": "ollama", "url": "http://127.0.0.1:11434", "model": "nomic-embed-text"}',
        'fetch every record and query vector from the server and pin them into the snapshot',
      ),
  async handler(args, io) {
    const dir = resolveFixtureDir(args.set, io.cwd);
    // an HTTP embedder's vectors are fetched now and pinned into the set; a refused freeze puts it back
    const pinned = await pinEmbeddings(dir);
    let r;
    try {
      r = writeFreeze(dir, {
        frozenOn: args.date ?? todayUtc(),
        ...(args.version !== undefined ? { version: String(args.version) } : {}),
        ...(args['reset-note'] !== undefined ? { resetNote: args['reset-note'] } : {}),
      });
    } catch (e) {
      pinned?.restore();
      throw e;
    }
    if (pinned && !args.json)
      io.out(
        `pinned: ${pinned.records} record and ${pinned.queries} query vectors (${pinned.dimensions} dimensions) from ${pinned.embedder}`,
      );
    if (r.freeze.counts.corpus_records === 0) io.err(emptyCorpusWarning(args.set, true));
    if (args.json)
      io.out(
        JSON.stringify(
          { action: r.action, changed: r.changed, freeze: r.freeze } satisfies FreezeOutput,
          null,
          2,
        ),
      );
    else {
      const f = r.freeze;
      const verb = r.action === 'unchanged' ? 'unchanged:' : r.action === 'created' ? 'frozen:' : 'bumped:';
      io.out(`${verb} ${f.artifact_id} ${f.version}  (${dir}/freeze.json)`);
      io.out(`  corpus    ${f.corpus_id}  ${f.counts.corpus_records} records`);
      io.out(`  queries   ${f.query_set_id}  ${f.counts.queries} queries, ${f.counts.judgments} judgments`);
      io.out(`  config    ${f.config_id}`);
    }
    return EXIT.ok;
  },
};
