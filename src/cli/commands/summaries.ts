/**
 * Each command's usage line and one-line description, so `rgate --help`, bare `rgate` and a mistyped
 * command list the commands without loading their modules (and everything those import). A test
 * holds these to the command files; a command missing here is simply loaded.
 */
export const COMMAND_SUMMARIES: Readonly<Record<string, readonly [command: string, describe: string]>> = {
  init: [
    'init',
    'Start gating your retriever here: rgate.config.json, a frozen fixture set, a gate, a CI file',
  ],
  run: ['run [suites..]', 'Replay the suites against their systems, measure, gate and write reports'],
  merge: [
    'merge <files..>',
    'Combine the shard files of one run (rgate run --shard i/n) into one run: report, history, verdict',
  ],
  import: [
    'import <kind> [path]',
    'Import BEIR, TREC, SMART files, a document tree (project_dir) or a memory-cli root into fixtures/<set>',
  ],
  probes: [
    'probes <action> <set>',
    "Add fallback probes (exact key, no match, path priority) derived from a set's corpus",
  ],
  freeze: ['freeze <set>', 'Freeze a fixture set: write freeze.json (ids, sha256, version history)'],
  verify: ['verify [sets..]', 'Check fixture sets against their freeze.json (schemas and content sha256)'],
  score: [
    'score [files..]',
    'Score a TREC run against TREC qrels (trec_eval-compatible measures and output)',
  ],
  retrieve: [
    'retrieve',
    'Answer one query with the built-in engine over a fixture set: a readable ranking, or the contract JSON with --json',
  ],
  report: ['report <run>', 'Re-render a run report as terminal text, JSON, HTML, Markdown or JUnit XML'],
  history: ['history [suite]', 'Trend each metric over the stored runs of a suite, with regression alarms'],
  diff: [
    'diff <runA> <runB>',
    'Per-query regressions, improvements, changed top-1 and selection mode between two runs',
  ],
  plan: [
    'plan <suite>',
    "How many queries a measure needs to detect a change, from a stored run's own figures",
  ],
  baseline: [
    'baseline <action> <suite> [run]',
    "Set or show a suite's baseline run (what vs_baseline gate rules compare against)",
  ],
  compare: [
    'compare [suite]',
    'Compare config variants on the same pinned snapshot with paired per-query statistics',
  ],
  closeout: [
    'closeout <suite>',
    "Write the closeout (Markdown, HTML, JSON) of a suite's newest run on its frozen fixture: a Gate C closeout under a Gate C gate",
  ],
  label: [
    'label <action> <target> [judgments]',
    'Grade the unjudged documents a run, a comparison or a pool of systems put in its top k, and merge the grades into the qrels',
  ],
  upload: [
    'upload [run]',
    "Send a finished run (or every pending run and comparison session) to a team's rgate server, idempotent by id",
  ],
  server: [
    'server',
    "Serve a team's run history: upload API for CI, projects and tokens, the dashboard (SQLite or PostgreSQL)",
  ],
};
