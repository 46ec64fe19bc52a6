// Issue 36 item 1 (SPEC §27): a peer of `dsh peers --worktree` whose tools write a `.git` file (or
// folder) pointing at config that starts a program — core.fsmonitor, a hooks folder, a pager, an
// external diff — must never get that program run by dsh's own git calls: the report's
// files_changed, `--compare` and `--remove`. The peer's "tools" here are the test itself, writing the
// files from inside the model request of the peer's turn (as a shell tool would). Every line the
// planted programs append to the marker file counts one escape.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chatCompletionChunk, faultTrials, printJson, reportFaults, runDsh, startModelServer } from '@dsh/test-utils';
import { useCliTestDirs } from './cli-test-dirs.js';
import { git } from './run-git.js';

const dirs = useCliTestDirs('dsh-peer-git-hostile', { work: true });

const HOOKS = [
  'post-checkout',
  'pre-commit',
  'post-commit',
  'reference-transaction',
  'post-index-change',
  'pre-auto-gc',
  'fsmonitor-watchman',
];

/** A git folder at `gitDir` whose config and hooks each append their name to `marker` when git runs them. */
function plantRepository(gitDir: string, marker: string): void {
  mkdirSync(join(gitDir, 'objects'), { recursive: true });
  mkdirSync(join(gitDir, 'refs', 'heads'), { recursive: true });
  mkdirSync(join(gitDir, 'hooks'), { recursive: true });
  writeFileSync(join(gitDir, 'HEAD'), 'ref: refs/heads/main\n');
  const run = (what: string) => `"echo ${what} >> '${marker}' #"`;
  writeFileSync(
    join(gitDir, 'config'),
    [
      '[core]',
      '\trepositoryformatversion = 0',
      '\tbare = false',
      `\tfsmonitor = ${run('fsmonitor')}`,
      `\thooksPath = ${join(gitDir, 'hooks')}`,
      `\tpager = ${run('pager')}`,
      `\tsshCommand = ${run('ssh')}`,
      '[diff]',
      `\texternal = ${run('diff')}`,
      '[pager]',
      `\tstatus = ${run('pager-status')}`,
      '',
    ].join('\n'),
  );
  for (const hook of HOOKS) writeFileSync(join(gitDir, 'hooks', hook), `#!/bin/sh\necho hook-${hook} >> '${marker}'\n`, { mode: 0o755 });
}

/** What a hostile peer's tools write into its worktree: a `.git` file pointing at `evil/`, or a `.git` folder of its own. */
function plantInWorktree(worktree: string, marker: string, variant: number): void {
  if (variant % 2 === 0) {
    plantRepository(join(worktree, 'evil'), marker);
    writeFileSync(join(worktree, '.git'), 'gitdir: evil\n');
  } else {
    rmSync(join(worktree, '.git'), { force: true, recursive: true });
    plantRepository(join(worktree, '.git'), marker);
  }
  writeFileSync(join(worktree, 'work.txt'), 'what the peer wrote\n');
}

function markerLines(marker: string): string[] {
  return existsSync(marker)
    ? readFileSync(marker, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
    : [];
}

describe('a peer whose tools plant a hostile .git in its worktree', () => {
  it(
    "never gets a program run by dsh's git: not by the report's files_changed, --compare or --remove",
    { timeout: 1_800_000 },
    async () => {
      const trials = faultTrials(2, 8);
      const work = dirs.work.path;
      const data = dirs.data.path;
      git(work, 'init', '-q', '-b', 'main');
      git(work, 'add', '.');
      git(work, 'commit', '-qm', 'start');
      await printJson(['-p', 'list files', '--name', 'base', '--data', data], { cwd: work });
      const marker = join(data, '..', `${String(process.pid)}-hostile-marker`);
      let planting = { name: '', variant: 0 };
      dirs.server = await startModelServer(() => {
        // The peer's turn is running inside its worktree: its tools write there now.
        plantInWorktree(join(data, 'worktrees', planting.name), marker, planting.variant);
        return {
          chunks: [chatCompletionChunk({ role: 'assistant', content: 'planted' }), chatCompletionChunk({}, 'stop'), 'data: [DONE]\n\n'],
        };
      });
      const env = { OPENAI_BASE_URL: `${dirs.server.origin}/v1`, OPENAI_API_KEY: 'sk-test' };
      const escapesBy: Record<string, number> = { report: 0, compare: 0, remove: 0 };
      let removed = 0;
      try {
        for (let trial = 0; trial < trials; trial++) {
          const name = `hostile-${String(trial)}`;
          planting = { name, variant: trial };
          let before = markerLines(marker).length;
          const peers = await runDsh(
            [
              'peers',
              'base',
              '--prompt',
              'plant',
              '--name',
              name,
              '--worktree',
              '--model',
              'openai:m',
              '--tools',
              '',
              '--output-format',
              'json',
              '--data',
              data,
            ],
            { cwd: work, env, timeoutMs: 120_000 },
          );
          expect(peers.code, peers.stderr).toBe(0);
          const report = JSON.parse(peers.stdout) as { peers: { files_changed: string[] }[] };
          expect(report.peers[0]?.files_changed).toContain('work.txt');
          escapesBy.report = (escapesBy.report ?? 0) + markerLines(marker).length - before;

          before = markerLines(marker).length;
          const compared = await runDsh(['peers', '--compare', 'base', name, '--output-format', 'json', '--data', data], { cwd: work });
          expect(compared.code, compared.stderr).toBe(0);
          escapesBy.compare = (escapesBy.compare ?? 0) + markerLines(marker).length - before;

          before = markerLines(marker).length;
          const refused = await runDsh(['peers', '--remove', name, '--data', data], { cwd: work });
          const forced = await runDsh(['peers', '--remove', name, '--force', '--data', data], { cwd: work });
          escapesBy.remove = (escapesBy.remove ?? 0) + markerLines(marker).length - before;
          if (
            refused.code === 1 &&
            refused.stderr.includes('WORKTREE_HAS_CHANGES') &&
            forced.code === 0 &&
            !existsSync(join(data, 'worktrees', name))
          )
            removed += 1;
        }
      } finally {
        rmSync(marker, { force: true });
      }
      const escapes = Object.values(escapesBy).reduce((sum, count) => sum + count, 0);
      reportFaults('peer-git-hostile', { trials, acknowledged: removed, escapes, ...escapesBy });
      expect({ escapes, removed }).toEqual({ escapes: 0, removed: trials });
      // The user's repository is left as it was: its one worktree, no dsh/* branch.
      expect(git(work, 'worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
      expect(git(work, 'branch', '--list', 'dsh/*')).toBe('');
    },
  );
});
