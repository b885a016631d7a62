#!/usr/bin/env node
// A small memory CLI for tests, in the manner of AthenaMind's `memory-cli retrieve`: token-overlap
// confidence over <root>/corpus.jsonl, a confidence gate, then exact-key and path-priority fallbacks.
// `--mode classic|hybrid` changes the tie-break (classic: id ascending, hybrid: id descending), so
// the two modes rank tied records differently. Answers in rgate's own contract.
// Usage: node memory-modes.mjs --root DIR --query TEXT --mode classic|hybrid [--top-k N]
// The env var SUT_MODE must equal --mode (both come from one {params.mode}); SUT_MODE_LOG, when set,
// gets one line per call with the mode.
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
const flag = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const root = flag('--root');
const query = flag('--query', '');
const mode = flag('--mode', 'classic');
const topK = Number(flag('--top-k', '5'));
if (mode !== 'classic' && mode !== 'hybrid') {
  process.stderr.write(`memory-modes: --mode must be classic or hybrid, not ${mode}\n`);
  process.exit(2);
}
if (process.env.SUT_MODE !== mode) {
  process.stderr.write(`memory-modes: SUT_MODE=${process.env.SUT_MODE} but --mode ${mode}\n`);
  process.exit(2);
}
if (process.env.SUT_MODE_LOG) appendFileSync(process.env.SUT_MODE_LOG, `${mode}\n`);

const tokens = (s) =>
  s
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
const records = readFileSync(join(root, 'corpus.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l));
const q = [...new Set(tokens(query))];
const scored = records.map((r) => {
  const hay = new Set(tokens(`${r.id} ${r.title ?? ''} ${r.text}`));
  const hits = q.filter((t) => hay.has(t)).length;
  return { r, score: q.length ? hits / q.length : 0 };
});
const byId = (a, b) => (a.r.id < b.r.id ? -1 : a.r.id > b.r.id ? 1 : 0);
scored.sort((a, b) => b.score - a.score || (mode === 'classic' ? byId(a, b) : byId(b, a)));
const top = scored.slice(0, topK);
const ranked = top.map((c) => ({ id: c.r.id, source_path: c.r.source_path ?? c.r.id, score: c.score }));
const answer = (selectionMode, rec, fellBack) => ({
  selection_mode: selectionMode,
  selected_id: rec.id,
  source_path: rec.source_path ?? rec.id,
  ranked,
  fallback: { triggered: fellBack, ...(fellBack ? { stage: selectionMode } : {}) },
});
let out;
if (top.length && top[0].score >= 0.5) out = answer('semantic', top[0].r, false);
else {
  const exact = records.find((r) => r.id === query.trim() || r.key === query.trim());
  if (exact) out = answer('fallback_exact_key', exact, true);
  else {
    const byPath = [...records].sort((a, b) => ((a.source_path ?? a.id) < (b.source_path ?? b.id) ? -1 : 1));
    out = answer('fallback_path_priority', byPath[0], true);
  }
}
process.stdout.write(JSON.stringify(out));
