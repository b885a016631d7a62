import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectGit, gitField } from './git-ref.js';

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
});
