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
  };
}

/** detectGit as the optional `git` field of a run's meta (or of runSuite's options): absent when unknown. */
export function gitField(cwd: string, env: NodeJS.ProcessEnv): { git?: GitRef } {
  const git = detectGit(cwd, env);
  return git ? { git } : {};
}
