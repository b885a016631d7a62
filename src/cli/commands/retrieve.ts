import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Argv } from 'yargs';
import { resolveConfig } from '../../core/resolve-config.js';
import { EXIT, RgateError } from '../../core/errors.js';
import {
  PROFILES,
  RETRIEVAL_MODES,
  WEIGHTING_MODES,
  type Bm25Output,
  type Profile,
  type ResolvedIntent,
  type RetrievalConfig,
  type RetrieveOutput,
  type WeightingMode,
} from '../../documents/index.js';
import {
  createEngine,
  type ContextLoadRequest,
  type ContextLoadResult,
  type SelectResult,
} from '../../engine/index.js';
import { FIXTURE_FILES, loadFixtureSet, resolveFixtureDir } from '../../snapshot/index.js';
import type { RgateCommand } from '../command.js';

interface RetrieveArgs {
  fixture: string;
  task: string;
  mode?: RetrievalConfig['mode'];
  view?: 'memory-cli-v1' | 'retrieval-result-v1';
  profile?: Profile;
  weightingMode?: WeightingMode;
  k?: number;
  maxFiles?: number;
  maxCharsPerFile?: number;
  tokens?: number;
  fallback?: boolean;
  exactKey?: string;
  json?: boolean;
  root?: string;
}

/**
 * `rgate retrieve`: answer one query with the reference engine over a pinned fixture set and print
 * a readable ranking, or with --json the contract JSON (bm25 ranking, context-load v0, semantic
 * selection v1 / retrieval-result-v1, or a ku ResolvedIntent): one document, `RetrieveOutputSchema`
 * (src/documents/retrieve-output.ts), published as dist/schemas/retrieve-output.schema.json.
 * The set is verified against its freeze.json when it has one, like every run.
 */
export const retrieveCommand: RgateCommand<RetrieveArgs> = {
  command: 'retrieve',
  describe:
    'Answer one query with the built-in engine over a fixture set: a readable ranking, or the contract JSON with --json',
  builder: (y: Argv) =>
    y
      .option('fixture', {
        type: 'string',
        demandOption: true,
        describe: 'fixture set name (fixtures/<set>) or folder',
      })
      .option('task', { type: 'string', demandOption: true, describe: 'the query / context-load task text' })
      .option('mode', {
        choices: RETRIEVAL_MODES,
        describe: 'engine path (default: the set config `mode`)',
      })
      .option('view', {
        choices: ['memory-cli-v1', 'retrieval-result-v1'] as const,
        default: 'memory-cli-v1' as const,
        describe: 'semantic mode: selection answer or the top-K retrieval-result-v1 view',
      })
      .option('profile', { choices: PROFILES, describe: 'retrieval_profile' })
      .option('weighting-mode', {
        choices: WEIGHTING_MODES,
        describe: 'weighting_mode',
      })
      .option('k', { type: 'number', describe: 'results (bm25 depth; semantic K, clamped to 10..15)' })
      .option('max-files', { type: 'number', describe: 'context-load budget: files' })
      .option('max-chars-per-file', { type: 'number', describe: 'context-load budget: characters per file' })
      .option('tokens', {
        type: 'number',
        describe: 'context-load budget: tokens (estimated as ceil(chars/4))',
      })
      .option('fallback', {
        type: 'boolean',
        describe: 'enable the fallback chain (--no-fallback disables it)',
      })
      .option('exact-key', { type: 'string', describe: 'semantic mode: exact key for the fallback lookup' })
      .option('json', {
        type: 'boolean',
        default: false,
        describe: 'print the contract JSON instead of the readable ranking',
      })
      .option('root', {
        type: 'string',
        describe: 'project root holding fixtures/ (default: current directory)',
      })
      .example(
        'rgate retrieve --fixture cacm --task "time sharing systems" --k 10',
        'BM25 top-10 (set mode bm25)',
      )
      .example(
        'rgate retrieve --fixture context-load --task "gate c closeout" --mode context-load --profile small --json',
        'context-load v0 JSON',
      )
      .example(
        'rgate retrieve --fixture context-load --task "freeze rules" --mode semantic --json',
        'semantic selection v1',
      )
      .example(
        'rgate retrieve --fixture ku-runbooks --task "give me an overview of how releases work" --mode ku',
        'DS012 ResolvedIntent over knowledge units (summary / intermediate / leaf)',
      ),
  async handler(args, io) {
    const root = args.root ? join(io.cwd, args.root) : io.cwd;
    const dir = resolveFixtureDir(args.fixture, root);
    const suite = loadFixtureSet(dir, { verify: existsSync(join(dir, FIXTURE_FILES.freeze)) });
    for (const [name, v] of [
      ['k', args.k],
      ['max-files', args.maxFiles],
      ['max-chars-per-file', args.maxCharsPerFile],
      ['tokens', args.tokens],
    ] as const) {
      if (v !== undefined && (!Number.isInteger(v) || v < 0))
        throw new RgateError('usage', `--${name} must be a non-negative integer, got ${v}`);
    }
    const config: RetrievalConfig = resolveConfig(
      {
        ...(args.mode ? { mode: args.mode } : {}),
        ...(args.profile ? { retrieval_profile: args.profile } : {}),
        ...(args.weightingMode ? { weighting_mode: args.weightingMode } : {}),
        ...(args.k !== undefined ? { k: args.k } : {}),
        ...(args.fallback !== undefined ? { fallback: { enabled: args.fallback } } : {}),
      },
      suite.config,
    );
    const engine = createEngine(suite.corpus, config);
    const paths = new Map(suite.corpus.map((r) => [r.id, r.source_path]));
    let body: RetrieveOutput;
    let text: string;
    switch (config.mode) {
      case 'bm25': {
        const ranked = engine.search(args.task, config.k).map((h, i) => ({
          rank: i + 1,
          id: h.id,
          source_path: paths.get(h.id) ?? '',
          score: h.score,
        }));
        const bm25: Bm25Output = {
          mode: 'bm25',
          fixture: suite.name,
          query: args.task,
          k: config.k,
          bm25: config.bm25,
          ranked,
        };
        body = bm25;
        text = ranked
          .map((r) => `${String(r.rank).padStart(4)}  ${r.score.toFixed(4)}  ${r.id}  ${r.source_path}`)
          .join('\n');
        if (ranked.length === 0) text = 'no document matches the query';
        break;
      }
      case 'context-load': {
        const req: ContextLoadRequest = { task: args.task };
        if (args.maxFiles !== undefined) req.max_files = args.maxFiles;
        if (args.maxCharsPerFile !== undefined) req.max_chars_per_file = args.maxCharsPerFile;
        if (args.tokens !== undefined) req.tokens = args.tokens;
        const out = engine.contextLoad(req);
        body = out;
        text = contextLoadText(out);
        break;
      }
      case 'semantic': {
        const req = {
          query: args.task,
          k: config.k,
          ...(args.exactKey !== undefined ? { exact_key: args.exactKey } : {}),
        };
        const out = args.view === 'retrieval-result-v1' ? engine.retrievalResult(req) : engine.select(req);
        if ('error' in out) {
          io.out(JSON.stringify(out, null, 2));
          return EXIT.usage;
        }
        body = out;
        text =
          'selection_mode' in out
            ? selectText(out)
            : out.results
                .map((r) => `${String(r.rank).padStart(3)}  ${r.score.toFixed(4)}  ${r.chunk_id}`)
                .join('\n');
        break;
      }
      case 'ku': {
        const out = engine.resolveIntent({
          intent: args.task,
          intentRef: 'cli',
          ...(args.profile !== undefined ? { retrieval_profile: args.profile } : {}),
          ...(args.maxFiles !== undefined ? { max_units: args.maxFiles } : {}),
          ...(args.maxCharsPerFile !== undefined ? { unit_chars: args.maxCharsPerFile } : {}),
          ...(args.tokens !== undefined ? { tokens: args.tokens } : {}),
        });
        body = out;
        text = resolvedIntentText(out);
        break;
      }
    }
    io.out(args.json ? JSON.stringify(body, null, 2) : text);
    return EXIT.ok;
  },
};

function contextLoadText(out: ContextLoadResult): string {
  const lines = [
    `context-load v0 · profile ${out.retrieval_profile} · ${out.weighting_mode} · fallback ${out.fallback_level ?? 'none'} · ` +
      `${out.selected_count} selected · ${out.usage.chars} chars ≈ ${out.usage.tokens} tokens`,
  ];
  if (out.no_match) lines.push(`no match: ${out.reason} (${out.reason_detail})`);
  for (const e of out.entries) {
    const s = e.score_breakdown;
    lines.push(
      `${String(e.rank).padStart(3)}  ${s.combined_score.toFixed(4)}  lex ${s.lexical_score.toFixed(3)} ev ${s.evidence_score.toFixed(3)} ` +
        `out ${s.outcome_score.toFixed(3)} fresh ${s.freshness_score.toFixed(3)}  ${e.record_id}  ${e.source_path}${e.truncated ? '  (truncated)' : ''}`,
    );
  }
  for (const d of out.dropped) lines.push(`  dropped ${d.record_id}: ${d.reason}`);
  return lines.join('\n');
}

function resolvedIntentText(out: ResolvedIntent): string {
  const t = out.retrievalTrace;
  const lines = [
    `ku · ${t.purpose} · level ${t.targetLevel ?? '-'} · strategies ${t.strategiesRun.join(' > ')}${t.escalated ? ' (escalated)' : ''} · ` +
      `${out.kbUnits.length} KB units of ${t.totalKUsConsidered} considered`,
  ];
  for (const [role, units] of Object.entries(out.guidanceUnits))
    for (const u of units) lines.push(`  guidance ${role}: ${u.kuId}  ${u.sourceLink}`);
  for (const u of out.strategyUnits) lines.push(`  strategy: ${u.kuId}  ${u.sourceLink}`);
  out.kbUnits.forEach((u, i) =>
    lines.push(
      `${String(i + 1).padStart(3)}  ${(u.score ?? 0).toFixed(4)}  ${u.level ?? '-'}  ${u.kuId}  ${u.sourceLink}` +
        (u.loadedAs && u.loadedAs !== 'whole'
          ? `  (${u.loadedAs}${u.splitFrom ? ` of ${u.splitFrom}` : ''})`
          : ''),
    ),
  );
  for (const o of t.overBudget ?? [])
    lines.push(
      `  over budget ${o.kuId} (${o.chars} > ${o.budget} chars): ${o.resolution} ${o.children.join(', ')}`,
    );
  return lines.join('\n');
}

function selectText(out: SelectResult): string {
  const lines = [
    `${out.selection_mode}: ${out.selected_id ?? '-'} ${out.source_path ?? ''} (confidence ${out.confidence.toFixed(4)})`,
    `reason: ${out.reason} — ${out.reason_detail}`,
  ];
  for (const c of out.candidates)
    lines.push(`${String(c.rank).padStart(3)}  ${c.score.toFixed(4)}  ${c.id}  ${c.source_path}`);
  return lines.join('\n');
}
