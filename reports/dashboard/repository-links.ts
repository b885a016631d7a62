/**
 * A run's commit, branch and pull request as links into the project's repository, from the project's
 * URL template (`https://github.com/o/r/commit/{commit}`). A template holds any of `{commit}`,
 * `{branch}`, `{pr}`: the one URL it makes links each of those cells, and only for a run that has a
 * value for every placeholder it holds. Values are encodeURIComponent-ed (an uploaded branch like
 * `a/../../x` or `"><script>` stays one path segment), and a template that is not http(s) links
 * nothing (the registry refuses one; this is the renderer's own guard).
 */
import type { DashboardRun } from '../../src/documents/index.js';

export interface RepositoryLinks {
  commit: string | null;
  branch: string | null;
  pr: string | null;
}

const NONE: RepositoryLinks = { commit: null, branch: null, pr: null };

export function repositoryLinks(
  template: string | null,
  run: Pick<DashboardRun, 'commit' | 'branch' | 'pr'>,
): RepositoryLinks {
  if (template === null || !/^https?:\/\/[^\s]+$/.test(template)) return NONE;
  const values = { commit: run.commit, branch: run.branch, pr: run.pr === null ? null : String(run.pr) };
  const held = (['commit', 'branch', 'pr'] as const).filter((k) => template.includes(`{${k}}`));
  if (held.length === 0 || held.some((k) => values[k] === null)) return NONE;
  const url = template.replace(/\{(commit|branch|pr)\}/g, (_, k: keyof typeof values) =>
    encodeURIComponent(values[k]!),
  );
  return {
    commit: held.includes('commit') ? url : null,
    branch: held.includes('branch') ? url : null,
    pr: held.includes('pr') ? url : null,
  };
}
