#!/usr/bin/env node
// A small DS012 context matcher written apart from rgate's engine, spawned once per intent by the
// `command` adapter: `node ku-resolver.mjs {corpus_dir} {query_id} [--keep-guidance] [--split]`.
// It reads the pinned set itself (corpus.jsonl, and the intent's turn from queries.jsonl), ranks
// units by how many of the intent's words they share, and prints one ResolvedIntent on stdout.
//
// Without flags it makes the two mistakes DS012 warns about: it filters the current turn by word
// overlap alone (guidance lines that share no word with the intent are lost) and it loads a relevant
// unit whole however large it is. --keep-guidance keeps `guidance:<role>` tagged turn units whatever
// their overlap; --split puts an over-budget unit's children in its place and says so in the trace.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, queryId, ...flags] = process.argv.slice(2);
const keepGuidance = flags.includes('--keep-guidance');
const split = flags.includes('--split');
const lines = (f) =>
  readFileSync(join(dir, f), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));
const corpus = lines('corpus.jsonl');
const query = lines('queries.jsonl').find((q) => q.query_id === queryId);
if (!query) {
  process.stdout.write(
    JSON.stringify({
      error: { code: 'unknown_query', message: `no query ${queryId}`, action: 'check the query set' },
    }),
  );
  process.exit(0);
}
const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
const budget = config.budgets?.max_chars_per_file ?? 4000;
const STOP = new Set(
  'a an and are as at be but by do does for from how i in is it me of on or the to we what when which who with you'.split(
    ' ',
  ),
);
const words = (t) =>
  new Set(
    t
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length > 2 && !STOP.has(w)),
  );
const intent = words(query.text);
const overlap = (t) => [...words(t)].filter((w) => intent.has(w)).length;
const ROLE = {
  'guidance:planner': 'planner',
  'guidance:goal-solver': 'goalSolver',
  'guidance:decomposition': 'decomposition',
  'guidance:validation': 'validation',
};
const roleOf = (tags = []) => tags.map((t) => ROLE[t]).find(Boolean);

const evidence = corpus
  .filter((r) => !roleOf(r.tags) && !(r.tags ?? []).includes('strategy'))
  .map((r) => ({ r, k: overlap(`${r.title ?? ''} ${r.text}`) }))
  .filter((x) => x.k > 0)
  .sort((a, b) => b.k - a.k || (a.r.id < b.r.id ? -1 : 1))
  .slice(0, 3);
const unit = (r, extra = {}) => ({
  kuId: r.id,
  level: r.level ?? 'leaf',
  parentId: r.parent_id ?? null,
  title: r.title ?? r.id,
  sourceLink: r.source_path,
  text: r.text,
  ...extra,
});
const kbUnits = [];
const overBudget = [];
for (const { r } of evidence) {
  const kids = corpus.filter(
    (c) => c.parent_id === r.id && !roleOf(c.tags) && !(c.tags ?? []).includes('strategy'),
  );
  if (split && r.text.length > budget && kids.length > 0) {
    const best = kids
      .map((c) => ({ c, k: overlap(c.text) }))
      .sort((a, b) => b.k - a.k || (a.c.id < b.c.id ? -1 : 1))
      .slice(0, 2);
    overBudget.push({
      kuId: r.id,
      chars: r.text.length,
      budget,
      resolution: 'children',
      children: best.map((b) => b.c.id),
    });
    for (const { c } of best)
      if (!kbUnits.some((u) => u.kuId === c.id))
        kbUnits.push(unit(c, { loadedAs: 'child', splitFrom: r.id }));
  } else if (!kbUnits.some((u) => u.kuId === r.id)) kbUnits.push(unit(r, { loadedAs: 'whole' }));
}
const guidanceUnits = { planner: [], goalSolver: [], decomposition: [], validation: [] };
const currentTurnContextUnits = [];
for (const u of query.ku?.current_turn ?? []) {
  const role = roleOf(u.tags);
  const conv = { kuId: u.id, title: u.title ?? u.id, sourceLink: `turn:${u.id}`, text: u.text };
  if (role && (keepGuidance || overlap(u.text) > 0)) guidanceUnits[role].push({ ...conv, role });
  else if (overlap(u.text) > 0) currentTurnContextUnits.push(conv);
}
const levels = ['summary', 'intermediate', 'leaf'].filter((l) => kbUnits.some((u) => u.level === l));
const all = [...Object.values(guidanceUnits).flat(), ...currentTurnContextUnits, ...kbUnits];
process.stdout.write(
  JSON.stringify({
    intentRef: query.query_id,
    retrievalProfile: config.retrieval_profile ?? 'medium',
    intentGroup: null,
    strategyUnits: [],
    guidanceUnits,
    currentTurnContextUnits,
    sessionUnits: [],
    kbUnits,
    retrievalTrace: {
      purpose: 'task-evidence',
      strategiesRun: ['word-overlap'],
      escalated: false,
      kuLevelsUsed: levels,
      totalKUsConsidered: corpus.length,
      ...(split ? { overBudget } : {}),
    },
    resolvedPayload: {
      prompt: query.text,
      context: all.map((u) => ({ title: u.title, sourceLink: u.sourceLink, text: u.text })),
    },
  }),
);
