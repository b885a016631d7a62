import { spawnSync } from 'node:child_process';
import type { GitRef } from '../documents/index.js';

/**
 * The commit and branch a run is made on, read when it is made (`rgate run`, `merge`, `compare`) and
 * stored with it, so an upload later, from any checkout, says where the run came from: CI's own
 * variables first (a CI checkout is often a detached HEAD), else git in the working directory;
 * whatever is unknown is left out.
 */
export function detectGit(cwd: string, env: NodeJS.ProcessEnv): GitRef | undefined {
  const commitEnv = env.GITHUB_SHA || env.CI_COMMIT_SHA;
  // a pull request's GITHUB_REF_NAME is "123/merge"; its branch is GITHUB_HEAD_REF
  const branchEnv = env.GITHUB_HEAD_REF || env.GITHUB_REF_NAME || env.CI_COMMIT_REF_NAME;
  let commit = commitEnv;
  let branch = branchEnv;
  if (!commit || !branch) {
    // one git process for both (a run pays for it once, before its first request)
    const r = spawnSync('git', ['rev-parse', 'HEAD', '--abbrev-ref', 'HEAD'], {
      cwd,
      encoding: 'utf8',
      timeout: 5000,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const [head, name] = r.status === 0 ? r.stdout.trim().split('\n') : [];
    commit ||= head || undefined;
    branch ||= name === 'HEAD' ? undefined : name || undefined; // HEAD: detached
  }
  if (!commit && !branch) return undefined;
  return {
    ...(commit ? { commit: commit.slice(0, 200) } : {}),
    ...(branch ? { branch: branch.slice(0, 500) } : {}),
    ...pullRequestOf(env),
  };
}

/**
 * A pull (merge) request's number, target branch and merge-base commit, from CI's variables: GitHub
 * Actions names the PR in GITHUB_REF (`refs/pull/N/merge`) and its target in GITHUB_BASE_REF but no
 * merge base (RGATE_MERGE_BASE carries one a workflow computed, `git merge-base`); GitLab gives all
 * three for a merge request pipeline. Absent on a branch's own pipeline.
 */
export function pullRequestOf(env: NodeJS.ProcessEnv): Pick<GitRef, 'pr' | 'base_branch' | 'merge_base'> {
  const ghPr = /^refs\/pull\/(\d{1,9})\/(merge|head)$/.exec(env.GITHUB_REF ?? '')?.[1];
  const pr =
    ghPr ?? (/^\d{1,9}$/.test(env.CI_MERGE_REQUEST_IID ?? '') ? env.CI_MERGE_REQUEST_IID : undefined);
  const baseBranch = env.GITHUB_BASE_REF || env.CI_MERGE_REQUEST_TARGET_BRANCH_NAME;
  const mergeBase = env.RGATE_MERGE_BASE || env.CI_MERGE_REQUEST_DIFF_BASE_SHA;
  return {
    ...(pr && Number(pr) >= 1 ? { pr: Number(pr) } : {}),
    ...(baseBranch ? { base_branch: baseBranch.slice(0, 500) } : {}),
    ...(mergeBase ? { merge_base: mergeBase.slice(0, 200) } : {}),
  };
}

/** detectGit as the optional `git` field of a run's meta (or of runSuite's options): absent when unknown. */
export function gitField(cwd: string, env: NodeJS.ProcessEnv): { git?: GitRef } {
  const git = detectGit(cwd, env);
  return git ? { git } : {};
}
