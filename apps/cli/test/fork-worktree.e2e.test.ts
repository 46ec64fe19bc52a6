/**
 * SPEC §23 "Fork with the files at the cut" through the real bin and real git: a session whose tools
 * change a file across turns, forked at a historical cut with `--worktree`, gets a directory holding
 * the workspace at that cut (a git worktree whose last commit is the session's change), and the
 * original checkout is untouched; the fallbacks and refusals say what they did.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORKED_WORKSPACE_AT_CUT_SENTENCE } from 'dsh-codec';
import { runDsh } from '@dsh/test-utils';
import { useCliTestDirs } from './cli-test-dirs.js';
import { planTurns } from './plan-turns.js';
import { git } from './run-git.js';

const dirs = useCliTestDirs('dsh-fork-worktree', { work: true });
const { eventsOf, twoTurns } = planTurns(dirs);

function commitAll(cwd: string): void {
  git(cwd, 'init', '-q');
  git(cwd, 'add', '.');
  git(cwd, 'commit', '-qm', 'start');
}

type Forked = {
  sessionId: string;
  forkCut: number;
  workspace: 'checkpoint' | 'head';
  worktree: { dir: string; branch?: string; checkpointSeq?: number };
  warning?: string;
};

describe('dsh fork --at N --worktree: the files at the cut (SPEC §23)', () => {
  it(
    'in a git repository: a worktree on dsh/<name> holding the workspace at the cut, its commit the session’s change',
    { timeout: 180_000 },
    async () => {
      commitAll(dirs.work.path);
      const head = git(dirs.work.path, 'rev-parse', 'HEAD').trim();
      const { id, firstTurnEnd } = await twoTurns(dirs.work.path);
      const forked = await runDsh([
        'fork',
        id,
        '--at',
        String(firstTurnEnd),
        '--worktree',
        '--name',
        'at-first',
        '--json',
        '--data',
        dirs.data.path,
      ]);
      expect(forked.code, forked.stderr).toBe(0);
      const result = JSON.parse(forked.stdout) as Forked;
      const dir = join(dirs.data.path, 'worktrees', 'at-first');
      expect(result).toMatchObject({ forkCut: firstTurnEnd, workspace: 'checkpoint', worktree: { dir, branch: 'dsh/at-first' } });
      const checkpoints = (await eventsOf(id)).filter((event) => event.type === 'workspace/checkpoint' && event.seq <= firstTurnEnd);
      expect(result.worktree.checkpointSeq).toBe(checkpoints.at(-1)?.seq);
      // The files as at the cut — not HEAD (no plan.md), not today's (second).
      expect(await readFile(join(dir, 'plan.md'), 'utf8')).toBe('first\n');
      expect(await readFile(join(dir, 'notes.md'), 'utf8')).toBe('remember the milk\n');
      expect(git(dir, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('dsh/at-first');
      expect(git(dir, 'rev-parse', 'HEAD~1').trim()).toBe(head);
      expect(git(dir, 'diff', '--name-status', 'HEAD~1').trim()).toBe('A\tplan.md');
      expect(git(dir, 'status', '--porcelain').trim()).toBe('');
      // The child runs there.
      const config = (await eventsOf(result.sessionId)).findLast((event) => event.type === 'session/config')?.data;
      expect(config).toMatchObject({ cwd: dir });
      // The original checkout is untouched: its HEAD, its file, its status.
      expect(git(dirs.work.path, 'rev-parse', 'HEAD').trim()).toBe(head);
      expect(await readFile(join(dirs.work.path, 'plan.md'), 'utf8')).toBe('second\n');
      expect(git(dirs.work.path, 'status', '--porcelain').trim()).toBe('?? plan.md');
      // Text output names the directory, the branch and the checkpoint's seq.
      const text = await runDsh(['fork', id, '--at', String(firstTurnEnd), '--worktree', '--name', 'again', '--data', dirs.data.path]);
      expect(text.code, text.stderr).toBe(0);
      expect(text.stderr).toContain(`checkpoint at seq ${String(result.worktree.checkpointSeq)}`);
      expect(text.stderr).toContain(`${join(dirs.data.path, 'worktrees', 'again')} (branch dsh/again)`);
    },
  );

  it(
    'a cwd below the checkout’s root: the worktree’s folder at that place holds the cut, the rest is HEAD',
    { timeout: 180_000 },
    async () => {
      const sub = join(dirs.work.path, 'pkg');
      await mkdir(sub);
      await writeFile(join(sub, 'keep.txt'), 'kept\n');
      commitAll(dirs.work.path);
      const { id, firstTurnEnd } = await twoTurns(sub);
      const forked = await runDsh([
        'fork',
        id,
        '--at',
        String(firstTurnEnd),
        '--worktree',
        '--name',
        'sub',
        '--json',
        '--data',
        dirs.data.path,
      ]);
      expect(forked.code, forked.stderr).toBe(0);
      const result = JSON.parse(forked.stdout) as Forked;
      const root = join(dirs.data.path, 'worktrees', 'sub');
      expect(result.worktree.dir).toBe(join(root, 'pkg'));
      expect(await readFile(join(root, 'pkg', 'plan.md'), 'utf8')).toBe('first\n');
      expect(await readFile(join(root, 'pkg', 'keep.txt'), 'utf8')).toBe('kept\n');
      expect(await readFile(join(root, 'notes.md'), 'utf8')).toBe('remember the milk\n');
      expect(git(root, 'diff', '--name-status', 'HEAD~1').trim()).toBe('A\tpkg/plan.md');
    },
  );

  it('dsh peers --at N --worktree: each peer’s worktree starts from the workspace at the cut', { timeout: 180_000 }, async () => {
    commitAll(dirs.work.path);
    const { id, firstTurnEnd } = await twoTurns(dirs.work.path);
    await writeFile(join(dirs.data.path, 'script.json'), JSON.stringify([{ text: 'looked' }, { text: 'looked' }]));
    const peers = await runDsh(
      [
        'peers',
        id,
        '--at',
        String(firstTurnEnd),
        '--worktree',
        '--prompt',
        'look',
        '--name',
        'p-one',
        '--output-format',
        'json',
        '--data',
        dirs.data.path,
      ],
      { timeoutMs: 120_000 },
    );
    expect(peers.code, peers.stderr).toBe(0);
    expect(peers.stderr).toContain('the workspace at the cut (checkpoint at seq');
    const dir = join(dirs.data.path, 'worktrees', 'p-one');
    expect(await readFile(join(dir, 'plan.md'), 'utf8')).toBe('first\n');
    expect(git(dir, 'diff', '--name-status', 'HEAD~1').trim()).toBe('A\tplan.md');
    expect(await readFile(join(dirs.work.path, 'plan.md'), 'utf8')).toBe('second\n');
  });

  it(
    'dsh peers --at CALL --worktree: a call open at the cut is told the peer’s files are as they were before it started',
    { timeout: 180_000 },
    async () => {
      commitAll(dirs.work.path);
      const { id } = await twoTurns(dirs.work.path);
      const call = (await eventsOf(id)).find((event) => event.type === 'tool/call');
      await writeFile(join(dirs.data.path, 'script.json'), JSON.stringify([{ text: 'looked' }]));
      const peers = await runDsh(
        ['peers', id, '--at', String(call?.seq), '--worktree', '--prompt', 'look', '--name', 'p-call', '--data', dirs.data.path],
        { timeoutMs: 120_000 },
      );
      expect(peers.code, peers.stderr).toBe(0);
      const closer = (await eventsOf('p-call')).find((event) => event.seq > (call?.seq ?? 0) && event.type === 'tool/result');
      expect(JSON.stringify(closer?.data)).toContain(FORKED_WORKSPACE_AT_CUT_SENTENCE);
      expect(existsSync(join(dirs.data.path, 'worktrees', 'p-call', 'plan.md'))).toBe(false);
    },
  );

  it(
    'dsh -p --resume X --fork-session --resume-at N --worktree runs the turn in a fork holding the files at the cut',
    { timeout: 180_000 },
    async () => {
      commitAll(dirs.work.path);
      const { id, firstTurnEnd } = await twoTurns(dirs.work.path);
      await writeFile(
        join(dirs.data.path, 'script.json'),
        JSON.stringify([{ toolCalls: [{ name: 'read_file', arguments: { path: 'plan.md' } }] }, { text: 'read it' }]),
      );
      const ran = await runDsh(
        [
          '-p',
          'read the plan',
          '--resume',
          id,
          '--fork-session',
          '--resume-at',
          String(firstTurnEnd),
          '--worktree',
          '--name',
          'printed',
          '--output-format',
          'json',
          '--data',
          dirs.data.path,
        ],
        { timeoutMs: 120_000 },
      );
      expect(ran.code, ran.stderr).toBe(0);
      const result = JSON.parse(ran.stdout) as {
        session_id: string;
        parentSession: string;
        forkCut: number;
        workspace: string;
        worktree: { dir: string };
      };
      const dir = join(dirs.data.path, 'worktrees', 'printed');
      expect(result).toMatchObject({ parentSession: id, forkCut: firstTurnEnd, workspace: 'checkpoint', worktree: { dir } });
      const events = await eventsOf(result.session_id);
      const read = events.findLast((event) => event.type === 'tool/result');
      expect(JSON.stringify(read?.data)).toContain('first');
      expect(JSON.stringify(read?.data)).not.toContain('second');
      expect(await readFile(join(dirs.work.path, 'plan.md'), 'utf8')).toBe('second\n');
    },
  );

  it('outside git: a new directory under the data folder holding the workspace at the cut', { timeout: 180_000 }, async () => {
    const { id, firstTurnEnd } = await twoTurns(dirs.work.path);
    const forked = await runDsh([
      'fork',
      id,
      '--at',
      String(firstTurnEnd),
      '--worktree',
      '--name',
      'plain',
      '--json',
      '--data',
      dirs.data.path,
    ]);
    expect(forked.code, forked.stderr).toBe(0);
    const result = JSON.parse(forked.stdout) as Forked;
    const dir = join(dirs.data.path, 'worktrees', 'plain');
    expect(result).toMatchObject({ workspace: 'checkpoint', worktree: { dir } });
    expect(result.worktree.branch).toBeUndefined();
    expect(await readFile(join(dir, 'plan.md'), 'utf8')).toBe('first\n');
    expect(existsSync(join(dir, '.git'))).toBe(false);
  });

  it('a source without checkpoints falls back to HEAD and says so, in text and JSON', { timeout: 180_000 }, async () => {
    commitAll(dirs.work.path);
    const script = join(dirs.data.path, 'script.json');
    await writeFile(
      script,
      JSON.stringify([{ toolCalls: [{ name: 'write_file', arguments: { path: 'plan.md', content: 'x\n' } }] }, { text: 'ok' }]),
    );
    const made = await runDsh([
      '-p',
      'go',
      '--name',
      'old',
      '--cwd',
      dirs.work.path,
      '--model',
      `scripted:${script}`,
      '--no-checkpoints',
      '--data',
      dirs.data.path,
    ]);
    expect(made.code, made.stderr).toBe(0);
    const json = await runDsh(['fork', 'old', '--worktree', '--name', 'old-json', '--json', '--data', dirs.data.path]);
    expect(json.code, json.stderr).toBe(0);
    const result = JSON.parse(json.stdout) as Forked;
    expect(result.workspace).toBe('head');
    expect(result.warning).toContain('no workspace checkpoint');
    expect(existsSync(join(result.worktree.dir, 'plan.md'))).toBe(false);
    const text = await runDsh(['fork', 'old', '--worktree', '--name', 'old-text', '--data', dirs.data.path]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stderr).toContain('warning');
    expect(text.stderr).toContain('HEAD, not the files at the cut');
  });

  it(
    'refuses NO_WORKSPACE for a cwd that is gone and WORKTREE_EXISTS for a taken target, making nothing',
    { timeout: 180_000 },
    async () => {
      commitAll(dirs.work.path);
      const { id } = await twoTurns(dirs.work.path);
      await mkdir(join(dirs.data.path, 'worktrees', 'taken'), { recursive: true });
      const taken = await runDsh(['fork', id, '--worktree', '--name', 'taken', '--data', dirs.data.path]);
      expect(taken.code).toBe(1);
      expect(taken.stderr).toContain('WORKTREE_EXISTS');
      expect(git(dirs.work.path, 'branch', '--list', 'dsh/*').trim()).toBe('');
      const before = (await runDsh(['sessions', '--json', '--data', dirs.data.path])).stdout;
      await rm(dirs.work.path, { recursive: true, force: true });
      const gone = await runDsh(['fork', id, '--worktree', '--name', 'gone', '--data', dirs.data.path]);
      expect(gone.code).toBe(1);
      expect(gone.stderr).toContain('NO_WORKSPACE');
      expect(existsSync(join(dirs.data.path, 'worktrees', 'gone'))).toBe(false);
      expect((await runDsh(['sessions', '--json', '--data', dirs.data.path])).stdout).toBe(before);
    },
  );

  it(
    'dsh delete of a --worktree child removes its worktree, branch, intent, record and checkpoint keep-list; dsh peers --remove its peer’s worktree, branch and record',
    { timeout: 240_000 },
    async () => {
      commitAll(dirs.work.path);
      const { id } = await twoTurns(dirs.work.path);
      const data = dirs.data.path;
      const made = (name: string): Record<string, boolean> => ({
        dir: existsSync(join(data, 'worktrees', name)),
        intent: existsSync(join(data, 'worktrees', '.forks', `${name}.json`)),
        record: existsSync(join(data, 'worktrees', '.records', `${name}.json`)),
        branch: git(dirs.work.path, 'branch', '--list', `dsh/${name}`).trim() !== '',
      });
      const forked = await runDsh(['fork', id, '--worktree', '--name', 'del-me', '--data', data]);
      expect(forked.code, forked.stderr).toBe(0);
      const child = forked.stdout.trim();
      // The store's keep-list of a session: dsh/sessions/<first 40 hex of sha256(id)>.
      const keepListOf = (session: string): string =>
        join(data, '.workspaces.git', 'dsh', 'sessions', createHash('sha256').update(session).digest('hex').slice(0, 40));
      const keepList = keepListOf(child);
      expect(made('del-me')).toEqual({ dir: true, intent: true, record: true, branch: true });
      expect(existsSync(keepList)).toBe(true);
      const deleted = await runDsh(['delete', 'del-me', '--data', data]);
      expect(deleted.code, deleted.stderr).toBe(0);
      expect(made('del-me')).toEqual({ dir: false, intent: false, record: false, branch: false });
      expect(existsSync(keepList)).toBe(false);
      // The parent keeps its own checkpoints and checkout.
      expect(existsSync(keepListOf(id))).toBe(true);
      expect(git(dirs.work.path, 'worktree', 'list').trim().split('\n')).toHaveLength(1);

      await writeFile(join(data, 'script.json'), JSON.stringify([{ text: 'looked' }]));
      const peers = await runDsh(['peers', id, '--worktree', '--prompt', 'look', '--name', 'rm-me', '--data', data], {
        timeoutMs: 120_000,
      });
      expect(peers.code, peers.stderr).toBe(0);
      expect(made('rm-me')).toMatchObject({ dir: true, record: true, branch: true });
      // Its branch holds the checkpoint's commit, which nothing merged: --force.
      const removed = await runDsh(['peers', '--remove', 'rm-me', '--force', '--data', data]);
      expect(removed.code, removed.stderr).toBe(0);
      expect(made('rm-me')).toEqual({ dir: false, intent: false, record: false, branch: false });
      expect(git(dirs.work.path, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
    },
  );

  it('refuses GIT_NOT_FOUND when git cannot be run', { timeout: 180_000 }, async () => {
    commitAll(dirs.work.path);
    const { id } = await twoTurns(dirs.work.path);
    const refused = await runDsh(['fork', id, '--worktree', '--name', 'nogit', '--data', dirs.data.path], {
      env: { PATH: '/nonexistent' },
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('GIT_NOT_FOUND');
    expect(existsSync(join(dirs.data.path, 'worktrees', 'nogit'))).toBe(false);
  });
});
