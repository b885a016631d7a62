/**
 * The dashboard of `rgate server`: what each page shows, built from one project's run store by
 * history/dashboard-views.ts and drawn by reports/dashboard. Every string in these documents came
 * from an upload and is untrusted: renderers escape it and build links from it with
 * encodeURIComponent, never markup or a URL scheme.
 */
import { Type, type Static } from '@sinclair/typebox';
import { CompareSessionSchema } from './compare-session.js';
import { VerdictSchema, VsBaseGateSchema } from './gate-result.js';
import { HistoryViewSchema } from './history-view.js';
import { Closed, OrNull, StringEnum } from './keywords.js';
import { LabelQueueSchema } from './label.js';
import { ReportSchema } from './report.js';
import { RunDiffSchema } from './run-diff.js';
import { RunStatusSchema } from './run-row.js';

const count = Type.Integer({ minimum: 0 });
const nullableString = OrNull(Type.String());

/** One stored run as the dashboard lists it: its row plus the git commit and branch it was made on. */
export const DashboardRunSchema = Closed({
  run_id: Type.String(),
  suite: Type.String(),
  started_at: Type.String(),
  finished_at: nullableString,
  status: RunStatusSchema,
  gate_id: nullableString,
  verdict: OrNull(VerdictSchema),
  /** the git commit and branch the upload named (null when it named none, or for a local run) */
  commit: nullableString,
  branch: nullableString,
  /** the pull request number the upload named (GitRef.pr), null when none */
  pr: OrNull(Type.Integer({ minimum: 1 })),
  fixture_version: nullableString,
  observation_count: count,
});
export type DashboardRun = Static<typeof DashboardRunSchema>;

/** A project as the server's registry lists it (the server supplies these; the store has no projects). */
export const ProjectSummarySchema = Closed({
  slug: Type.String(),
  name: Type.String(),
  run_count: count,
  newest: OrNull(
    Closed({
      run_id: Type.String(),
      suite: Type.String(),
      started_at: Type.String(),
      verdict: OrNull(VerdictSchema),
    }),
  ),
});
export type ProjectSummary = Static<typeof ProjectSummarySchema>;

export const ProjectsIndexViewSchema = Closed({
  /** by name, then slug */
  projects: Type.Array(ProjectSummarySchema),
});
export type ProjectsIndexView = Static<typeof ProjectsIndexViewSchema>;

export const SuiteSummarySchema = Closed({
  suite: Type.String(),
  run_count: count,
  newest: DashboardRunSchema,
  /** the newest complete run's verdict (what the suite stands at), null without a complete run */
  newest_complete: OrNull(DashboardRunSchema),
  baseline_run_id: nullableString,
});
export type SuiteSummary = Static<typeof SuiteSummarySchema>;

export const ProjectViewSchema = Closed({
  project: Type.String(),
  run_count: count,
  /** by suite name */
  suites: Type.Array(SuiteSummarySchema),
  /** newest first */
  latest_runs: Type.Array(DashboardRunSchema),
  /** newest first */
  compare_sessions: Type.Array(
    Closed({
      session_id: Type.String(),
      suite: Type.String(),
      created_at: Type.String(),
      summary: Type.String(),
    }),
  ),
});
export type ProjectView = Static<typeof ProjectViewSchema>;

export const SuiteTrendViewSchema = Closed({
  project: Type.String(),
  suite: Type.String(),
  /** the trend window, as `rgate history` builds it (gate metrics first, alarms of the newest step) */
  history: HistoryViewSchema,
  /** every run of the window with its commit and branch, oldest -> newest (complete runs first) */
  runs: Type.Array(DashboardRunSchema),
  baseline: OrNull(Closed({ run_id: Type.String(), note: nullableString, in_window: Type.Boolean() })),
  /** the suite's newest run of any status: its verdict is stated beside every alarm */
  newest: OrNull(DashboardRunSchema),
  /** branches of the window's runs, sorted (the charts draw one series per branch) */
  branches: Type.Array(Type.String()),
  /** the window's size limit, how many runs it holds, and whether the suite has older runs */
  window: Closed({ limit: Type.Integer({ minimum: 1 }), runs: count, more: Type.Boolean() }),
});
export type SuiteTrendView = Static<typeof SuiteTrendViewSchema>;

/** What the runs list sorts by: a column, or a measure (`metric:<id>`). */
export const RUNS_SORT_COLUMNS = ['started', 'suite', 'branch', 'commit', 'status', 'verdict'] as const;

export const RunsFilterSchema = Closed({
  suite: Type.Optional(Type.String()),
  branch: Type.Optional(Type.String()),
  verdict: Type.Optional(VerdictSchema),
  /** the one metric column shown (else the gate metrics of the listed suites), and what the range bounds */
  metric: Type.Optional(Type.String()),
  metric_min: Type.Optional(Type.Number()),
  metric_max: Type.Optional(Type.Number()),
  /** one of RUNS_SORT_COLUMNS or `metric:<id>`; absent: newest first */
  sort: Type.Optional(Type.String()),
  order: Type.Optional(StringEnum(['asc', 'desc'])),
  /** a run id: list the runs after it in the listing order (older ones); newest-first pages only */
  before: Type.Optional(Type.String()),
  /** runs skipped in a sorted listing (its pages after the first) */
  offset: Type.Optional(Type.Integer({ minimum: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 1 })),
});
export type RunsFilter = Static<typeof RunsFilterSchema>;
/** The runs list's parameters in the order its links write them (the schema's order). */
export const RUNS_FILTER_KEYS = Object.keys(RunsFilterSchema.properties) as (keyof RunsFilter)[];

export const RunsListViewSchema = Closed({
  project: Type.String(),
  filter: RunsFilterSchema,
  limit: Type.Integer({ minimum: 1 }),
  /** in the filter's order: newest first (started_at desc, run_id desc) unless sorted */
  runs: Type.Array(DashboardRunSchema),
  /** the metric columns: `filter.metric`, else the gate metrics of the suites listed (suite order, then rule order) */
  metric_columns: Type.Array(Type.String()),
  /** per run (as `runs`), its value of each metric column; null: not measured (an incomplete run, another gate) */
  metric_values: Type.Array(Type.Array(OrNull(Type.Number()))),
  /** the `before` cursor of the next page (newest first), null on the last one or when sorted */
  next_before: nullableString,
  /** the `offset` of the next page of a sorted listing, null on the last one or when not sorted */
  next_offset: OrNull(Type.Integer({ minimum: 0 })),
  /** the project's repository URL template (`{commit}`, `{branch}`, `{pr}`), null: no links */
  repository_url: nullableString,
  /** what the filter form offers, sorted */
  suites: Type.Array(Type.String()),
  branches: Type.Array(Type.String()),
});
export type RunsListView = Static<typeof RunsListViewSchema>;

export const RunPageViewSchema = Closed({
  project: Type.String(),
  run: DashboardRunSchema,
  /** the stored report (null: the run stored none, e.g. it was interrupted before its end) */
  report: OrNull(ReportSchema),
  /** the suite's history up to this run, for the report's trend charts */
  history: OrNull(HistoryViewSchema),
  /** a branch's run: the base run its vs-base page compares it with (absent: none, or not a branch's run) */
  base_run: Type.Optional(Closed({ run_id: Type.String(), why: Type.String() })),
});
export type RunPageView = Static<typeof RunPageViewSchema>;

export const DiffPageViewSchema = Closed({
  project: Type.String(),
  a: DashboardRunSchema,
  b: DashboardRunSchema,
  diff: RunDiffSchema,
});
export type DiffPageView = Static<typeof DiffPageViewSchema>;

export const ComparePageViewSchema = Closed({
  project: Type.String(),
  session: CompareSessionSchema,
});
export type ComparePageView = Static<typeof ComparePageViewSchema>;

/**
 * `/p/:project/compare-runs?run=a&run=b...`: stored runs of one suite and snapshot compared as
 * `rgate compare` compares its variants (the first run is the reference), each run as the runs list
 * shows it.
 */
export const RunsComparePageViewSchema = Closed({
  project: Type.String(),
  runs: Type.Array(DashboardRunSchema),
  session: CompareSessionSchema,
});
export type RunsComparePageView = Static<typeof RunsComparePageViewSchema>;

/**
 * `/p/:project/runs/:run/vs-base`: a branch's run compared with its base run (the reference), and
 * which base run that is and why: the run of the merge-base commit, else the base branch's newest.
 */
export const VsBasePageViewSchema = Closed({
  run_id: Type.String(),
  base: Closed({
    run_id: Type.String(),
    chosen_by: StringEnum(['merge_base', 'newest']),
    base_branch: Type.String(),
    why: Type.String(),
  }),
  compare: RunsComparePageViewSchema,
  /** the run's vs-base gate rules judged against this base run; absent when its gate has none */
  gate: Type.Optional(VsBaseGateSchema),
});
export type VsBasePageView = Static<typeof VsBasePageViewSchema>;

export const LabelQueuePageViewSchema = Closed({
  project: Type.String(),
  suite: Type.String(),
  /** the run or comparison session the queue pools (the suite's newest session, else its newest run) */
  source: OrNull(Closed({ kind: Type.String(), id: Type.String() })),
  /** null when the server cannot build it; `why` says what is missing and how to get the queue */
  queue: OrNull(LabelQueueSchema),
  why: nullableString,
});
export type LabelQueuePageView = Static<typeof LabelQueuePageViewSchema>;
