/**
 * `runGit` never runs a program a repository's config, a work tree's `.git` file or dsh's caller's
 * environment names (SPEC §27). Each hostile setup is first shown to work against plain `git`, so
 * the test fails if the setup stops being hostile rather than passing for nothing.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import { findCheckout } from './find-checkout.js';
import { gitText, runGit } from './run-git.js';
import { WorkspaceError } from './workspace-error.js';

/** A repository with one commit whose config names a program at every key this test covers. */
function hostileRepository(root: string): { repo: string; marker: (name: string) => string } {
  const repo = join(root, 'repo');
  const marks = join(root, 'marks');
  mkdirSync(marks);
  execFileSync('git', ['init', '-q', '-b', 'main', repo]);
  writeFileSync(join(repo, 'a.txt'), 'a\n');
  execFileSync('git', ['-C', repo, 'add', 'a.txt']);
  execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'one']);
  const script = (name: string): string => {
    const path = join(root, `${name}.sh`);
    writeFileSync(path, `#!/bin/sh\ntouch '${join(marks, name)}'\n`);
    chmodSync(path, 0o755);
    return path;
  };
  const hooks = join(root, 'hooks');
  mkdirSync(hooks);
  for (const hook of ['post-checkout', 'pre-commit', 'post-index-change', 'reference-transaction']) {
    writeFileSync(join(hooks, hook), `#!/bin/sh\ntouch '${join(marks, `hook-${hook}`)}'\n`);
    chmodSync(join(hooks, hook), 0o755);
    writeFileSync(join(repo, '.git', 'hooks', hook), `#!/bin/sh\ntouch '${join(marks, `own-hook-${hook}`)}'\n`);
    chmodSync(join(repo, '.git', 'hooks', hook), 0o755);
  }
  execFileSync('git', ['-C', repo, 'config', 'core.fsmonitor', script('fsmonitor')]);
  execFileSync('git', ['-C', repo, 'config', 'core.hooksPath', hooks]);
  execFileSync('git', ['-C', repo, 'config', 'diff.external', script('external-diff')]);
  execFileSync('git', ['-C', repo, 'config', 'core.pager', script('pager')]);
  execFileSync('git', ['-C', repo, 'config', 'filter.evil.clean', script('clean-filter')]);
  execFileSync('git', ['-C', repo, 'config', 'filter.evil.smudge', script('smudge-filter')]);
  writeFileSync(join(repo, '.gitattributes'), '*.txt filter=evil\n');
  return { repo, marker: (name) => join(marks, name) };
}

describe('runGit', () => {
  it('runs no program that a repository config names (fsmonitor, hooks, external diff, pager)', async () => {
    await using dir = await makeTempDir();
    const { repo, marker } = hostileRepository(dir.path);
    writeFileSync(join(repo, 'a.txt'), 'changed\n');

    // The control: plain git in that checkout runs the fsmonitor and the external diff.
    spawnSync('git', ['-C', repo, 'status', '--porcelain']);
    spawnSync('git', ['-C', repo, 'diff']);
    expect(existsSync(marker('fsmonitor'))).toBe(true);
    expect(existsSync(marker('external-diff'))).toBe(true);

    await using clean = await makeTempDir();
    const fresh = hostileRepository(clean.path);
    writeFileSync(join(fresh.repo, 'a.txt'), 'changed\n');
    const target = { gitDir: join(fresh.repo, '.git'), workTree: fresh.repo };
    const status = await gitText('git status', ['status', '--porcelain=v1', '-z', '--untracked-files=all'], target);
    expect(status).toContain('a.txt');
    await runGit(['diff'], target);
    await runGit(['log', '-p'], target);
    await runGit(['worktree', 'add', '--quiet', '-b', 'dsh/x', join(clean.path, 'wt'), 'HEAD'], target);
    await runGit(['commit', '-q', '-am', 'two'], target);
    expect(existsSync(join(clean.path, 'wt', 'a.txt'))).toBe(true);
    for (const name of ['fsmonitor', 'external-diff', 'pager', 'clean-filter', 'smudge-filter']) {
      // Filters are the user's config, not a tool's; the safe set leaves them, so only check they
      // stay out when the config that defines them is dsh's own (see the next test).
      if (name.endsWith('-filter')) continue;
      expect(existsSync(fresh.marker(name)), name).toBe(false);
    }
    for (const hook of ['post-checkout', 'pre-commit', 'post-index-change', 'reference-transaction']) {
      expect(existsSync(fresh.marker(`hook-${hook}`)), hook).toBe(false);
      expect(existsSync(fresh.marker(`own-hook-${hook}`)), hook).toBe(false);
    }
  });

  it("never reads a work tree's .git file: a tool's `gitdir: evil` with an fsmonitor config runs nothing", async () => {
    await using dir = await makeTempDir();
    const { repo } = hostileRepository(dir.path);
    const peer = join(dir.path, 'peer');
    execFileSync('git', ['-C', repo, 'worktree', 'add', '-q', '-b', 'dsh/p', peer, 'HEAD'], {
      env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_PARAMETERS: "'core.hooksPath'='/dev/null'" },
    });
    const admin = join(repo, '.git', 'worktrees', 'peer');
    // What a peer's tools could write: a .git file naming their own repository, whose config runs a program.
    const evil = join(peer, 'evil');
    mkdirSync(evil);
    execFileSync('git', ['init', '-q', '--bare', evil]);
    const pwned = join(dir.path, 'pwned');
    writeFileSync(join(evil, 'config'), `[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = "touch '${pwned}'; false"\n`);
    writeFileSync(join(peer, '.git'), 'gitdir: evil\n');
    writeFileSync(join(peer, 'b.txt'), 'new\n');

    spawnSync('git', ['-C', peer, 'status', '--porcelain']);
    expect(existsSync(pwned), 'control: plain git status runs the tool-written fsmonitor').toBe(true);
    rmSync(pwned);

    const status = await gitText('git status', ['status', '--porcelain=v1', '-z', '--untracked-files=all'], {
      gitDir: admin,
      workTree: peer,
    });
    expect(status).toContain('b.txt');
    expect(existsSync(pwned)).toBe(false);
  });

  it("drops the caller's GIT_* environment (an inherited GIT_EXTERNAL_DIFF or GIT_CONFIG_PARAMETERS runs nothing)", async () => {
    await using dir = await makeTempDir();
    const repo = join(dir.path, 'r');
    execFileSync('git', ['init', '-q', '-b', 'main', repo]);
    writeFileSync(join(repo, 'a'), '1\n');
    execFileSync('git', ['-C', repo, 'add', 'a']);
    execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'one']);
    writeFileSync(join(repo, 'a'), '2\n');
    const pwned = join(dir.path, 'pwned');
    const saved = { ...process.env };
    process.env['GIT_EXTERNAL_DIFF'] = `sh -c "touch '${pwned}'"`;
    process.env['GIT_CONFIG_PARAMETERS'] = `'core.fsmonitor'='touch ${pwned}'`;
    try {
      await runGit(['diff'], { gitDir: join(repo, '.git'), workTree: repo });
      await runGit(['status'], { gitDir: join(repo, '.git'), workTree: repo });
    } finally {
      process.env = saved;
    }
    expect(existsSync(pwned)).toBe(false);
  });

  it('refuses GIT_NOT_FOUND when git cannot be started', async () => {
    await using dir = await makeTempDir();
    const saved = process.env['PATH'];
    process.env['PATH'] = dir.path;
    try {
      const error = await runGit(['--version'], { gitDir: dir.path }).catch((caught: unknown) => caught);
      expect(WorkspaceError.is(error) && error.code).toBe('GIT_NOT_FOUND');
    } finally {
      process.env['PATH'] = saved;
    }
  });
});

describe('findCheckout', () => {
  it('names the top level, the git folders and HEAD of a checkout, and nothing outside one', async () => {
    await using dir = await makeTempDir();
    const { repo } = hostileRepository(dir.path);
    mkdirSync(join(repo, 'sub'));
    const checkout = await findCheckout(join(repo, 'sub'));
    expect(checkout?.root).toBe(repo);
    expect(checkout?.commonDir).toBe(join(repo, '.git'));
    expect(checkout?.head).toMatch(/^[0-9a-f]{40}$/);
    const outside = join(dir.path, 'plain');
    mkdirSync(outside);
    expect(await findCheckout(outside)).toBeUndefined();
  });

  it('refuses NO_WORKSPACE for a directory that does not exist', async () => {
    const error = await findCheckout('/nonexistent/dsh/workspace').catch((caught: unknown) => caught);
    expect(WorkspaceError.is(error) && error.code).toBe('NO_WORKSPACE');
  });
});
