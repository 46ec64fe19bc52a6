import { describe, expect, it } from 'vitest';
import { branchesClash, checkWorktreeName } from './check-worktree-name.js';

function codeOf(name: string): string | undefined {
  try {
    checkWorktreeName(name);
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

describe('checkWorktreeName: the one rule for --worktree and --remove', () => {
  it('takes names that make a branch dsh/<name>', () => {
    for (const name of ['base-1', 'pa', 'x/y', 'v1.2', 'under_score', 'café', 'a'.repeat(100)])
      expect([name, codeOf(name)]).toEqual([name, undefined]);
  });

  it('refuses INVALID_BRANCH_NAME whatever could leave DATA/worktrees or is no branch name', () => {
    const refused = [
      '',
      '..',
      '../x',
      '../../other-wt',
      'a/../b',
      '/abs',
      '/tmp/x',
      'a//b',
      'a/',
      '.git',
      'x/.git',
      '.hidden',
      'a.lock',
      'a/b.lock/c',
      'end.',
      'a b',
      'tab\t',
      'a~1',
      'a^',
      'a:b',
      'a?',
      'a*',
      'a[',
      'a\\b',
      'a@{1}',
      '@',
      'a'.repeat(101),
    ];
    for (const name of refused) expect([name, codeOf(name)]).toEqual([name, 'INVALID_BRANCH_NAME']);
  });

  it('says which branches clash: equal, or one a folder of the other', () => {
    expect([branchesClash('dsh/x', 'dsh/x'), branchesClash('dsh/x', 'dsh/x/y'), branchesClash('dsh/x/y', 'dsh/x')]).toEqual([
      true,
      true,
      true,
    ]);
    expect([branchesClash('dsh/x', 'dsh/xy'), branchesClash('dsh/x/y', 'dsh/x/z')]).toEqual([false, false]);
  });
});
