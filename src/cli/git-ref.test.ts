import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectGit, gitField, pullRequestOf } from './git-ref.js';

/** detectGit against a real repository (one git process) and CI's variables. */
const dir = mkdtempSync(join(tmpdir(), 'rgate-git-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.org', ...args], {
    cwd: dir,
    encoding: 'utf8',
  }).trim();

describe('detectGit', () => {
  it('outside a repository, without CI variables: nothing', () => {
    expect(detectGit(dir, {})).toBeUndefined();
    expect(gitField(dir, {})).toEqual({});
  });

  it("a checkout's commit and branch; a detached HEAD has no branch; CI's variables win", () => {
    git('init', '-q', '-b', 'nightly');
    writeFileSync(join(dir, 'a.txt'), 'a');
    git('add', 'a.txt');
    git('commit', '-q', '-m', 'a');
    const head = git('rev-parse', 'HEAD');
    expect(detectGit(dir, {})).toEqual({ commit: head, branch: 'nightly' });
    expect(detectGit(dir, { GITHUB_HEAD_REF: 'feature/x', GITHUB_REF_NAME: '12/merge' })).toEqual({
      commit: head,
      branch: 'feature/x',
    });
    expect(detectGit(dir, { CI_COMMIT_SHA: 'f'.repeat(40), CI_COMMIT_REF_NAME: 'main' })).toEqual({
      commit: 'f'.repeat(40),
      branch: 'main',
    });
    git('checkout', '-q', '--detach');
    expect(detectGit(dir, {})).toEqual({ commit: head });
  });

  it("a pull request's number, target branch and merge base from GitHub's and GitLab's variables", () => {
    expect(
      detectGit(dir, {
        GITHUB_SHA: 'a'.repeat(40),
        GITHUB_HEAD_REF: 'feature/x',
        GITHUB_REF: 'refs/pull/42/merge',
        GITHUB_BASE_REF: 'develop',
        RGATE_MERGE_BASE: 'b'.repeat(40),
      }),
    ).toEqual({
      commit: 'a'.repeat(40),
      branch: 'feature/x',
      pr: 42,
      base_branch: 'develop',
      merge_base: 'b'.repeat(40),
    });
    expect(
      pullRequestOf({
        CI_MERGE_REQUEST_IID: '7',
        CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main',
        CI_MERGE_REQUEST_DIFF_BASE_SHA: 'c'.repeat(40),
      }),
    ).toEqual({ pr: 7, base_branch: 'main', merge_base: 'c'.repeat(40) });
    // a branch's own pipeline (GITHUB_REF a branch, no merge request): no PR fields at all
    expect(pullRequestOf({ GITHUB_REF: 'refs/heads/main', GITHUB_BASE_REF: '' })).toEqual({});
    expect(pullRequestOf({ CI_MERGE_REQUEST_IID: 'x' })).toEqual({});
  });
});
