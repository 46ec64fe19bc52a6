/**
 * @module run-git
 * `git` for the CLI's e2e tests (worktrees, peers): run in a directory as a throwaway identity,
 * stdout returned, a failure thrown with git's stderr.
 */
import { spawnSync } from 'node:child_process';

/** Runs `git -C cwd ...args`; throws when git exits non-zero. */
export function git(cwd: string, ...args: string[]): string {
  const result = spawnSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', '-C', cwd, ...args], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}
