/**
 * SPEC §23 — fork with the files at the cut, restore in place, diff. Through the real `dsh` bin with
 * real git: a session whose tools change a file across turns, forked at a historical cut.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir, runDsh } from '@dsh/test-utils';

let dir: TempDir;
let data: string;
let work: string;
beforeEach(async () => {
  dir = await makeTempDir('dsh-acc-s23-');
  data = join(dir.path, 'data');
  work = join(dir.path, 'work');
  await mkdir(work);
  await writeFile(join(work, 'notes.md'), 'remember the milk\n');
});
afterEach(async () => {
  await dir.remove();
});

function git(cwd: string, ...args: string[]): string {
  const result = spawnSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', '-C', cwd, ...args], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

type Event = { seq: number; type: string; data?: unknown };

async function events(ref: string): Promise<Event[]> {
  const shown = await runDsh(['show', ref, '--json', '--data', data]);
  expect(shown.code, shown.stderr).toBe(0);
  return (JSON.parse(shown.stdout) as { events: Event[] }).events;
}

/** Two turns of a session in `work`: plan.md is "first" after the first turn, "second" after the second. */
async function twoTurns(): Promise<{ id: string; cut: number }> {
  const script = join(dir.path, 'script.json');
  let id = '';
  for (const content of ['first\n', 'second\n']) {
    await writeFile(
      script,
      JSON.stringify([{ toolCalls: [{ name: 'write_file', arguments: { path: 'plan.md', content } }] }, { text: 'ok' }]),
    );
    const args = ['-p', 'write the plan', '--output-format', 'json', '--data', data];
    const ran = await runDsh(id === '' ? [...args, '--cwd', work, '--model', `scripted:${script}`] : [...args, '--resume', id]);
    expect(ran.code, ran.stderr).toBe(0);
    id = (JSON.parse(ran.stdout) as { session_id: string }).session_id;
  }
  const cut = (await events(id)).find((event) => event.type === 'turn/end')?.seq as number;
  return { id, cut };
}

describe('SPEC §23 Fork with the files at the cut', () => {
  it('dsh fork ID --at N --worktree: a git worktree on dsh/<name> holding exactly the workspace at N, git diff shows the change', async () => {
    git(work, 'init', '-q');
    git(work, 'add', '.');
    git(work, 'commit', '-qm', 'start');
    const head = git(work, 'rev-parse', 'HEAD').trim();
    const { id, cut } = await twoTurns();
    const forked = await runDsh(['fork', id, '--at', String(cut), '--worktree', '--name', 'at-cut', '--json', '--data', data]);
    expect(forked.code, forked.stderr).toBe(0);
    const result = JSON.parse(forked.stdout) as {
      sessionId: string;
      workspace: string;
      worktree: { dir: string; branch: string; checkpointSeq: number };
    };
    expect(result.workspace).toBe('checkpoint');
    expect(result.worktree.branch).toBe('dsh/at-cut');
    const atCut = (await events(id)).filter((event) => event.type === 'workspace/checkpoint' && event.seq <= cut).at(-1);
    expect(result.worktree.checkpointSeq).toBe(atCut?.seq);
    expect(await readFile(join(result.worktree.dir, 'plan.md'), 'utf8')).toBe('first\n');
    expect(git(result.worktree.dir, 'rev-parse', 'HEAD~1').trim()).toBe(head);
    expect(git(result.worktree.dir, 'diff', '--name-only', 'HEAD~1').trim()).toBe('plan.md');
    const config = (await events(result.sessionId)).findLast((event) => event.type === 'session/config')?.data as { cwd?: string };
    expect(config.cwd).toBe(result.worktree.dir);
    // The original checkout is untouched.
    expect(git(work, 'rev-parse', 'HEAD').trim()).toBe(head);
    expect(await readFile(join(work, 'plan.md'), 'utf8')).toBe('second\n');
  });

  it('outside git: a new directory under the data folder; without checkpoints: HEAD with a warning ("workspace": "head")', async () => {
    const { id, cut } = await twoTurns();
    const forked = await runDsh(['fork', id, '--at', String(cut), '--worktree', '--name', 'plain', '--json', '--data', data]);
    expect(forked.code, forked.stderr).toBe(0);
    const result = JSON.parse(forked.stdout) as { worktree: { dir: string } };
    expect(result.worktree.dir.startsWith(data)).toBe(true);
    expect(await readFile(join(result.worktree.dir, 'plan.md'), 'utf8')).toBe('first\n');

    git(work, 'init', '-q');
    git(work, 'add', '.');
    git(work, 'commit', '-qm', 'start');
    const old = await runDsh(['-p', 'hello', '--name', 'old', '--cwd', work, '--no-checkpoints', '--data', data]);
    expect(old.code, old.stderr).toBe(0);
    const fallback = await runDsh(['fork', 'old', '--worktree', '--json', '--data', data]);
    expect(fallback.code, fallback.stderr).toBe(0);
    const parsed = JSON.parse(fallback.stdout) as { workspace: string; warning: string };
    expect(parsed.workspace).toBe('head');
    expect(parsed.warning).toMatch(/checkpoint/);
    expect(fallback.stderr).toMatch(/warning/);
  });

  it('refuses WORKTREE_EXISTS for a taken target and NO_WORKSPACE for a cwd that is gone, creating nothing', async () => {
    const { id } = await twoTurns();
    await mkdir(join(data, 'worktrees', 'taken'), { recursive: true });
    const taken = await runDsh(['fork', id, '--worktree', '--name', 'taken', '--data', data]);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('WORKTREE_EXISTS');
    await rm(work, { recursive: true, force: true });
    const gone = await runDsh(['fork', id, '--worktree', '--name', 'gone', '--data', data]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('NO_WORKSPACE');
    expect(existsSync(join(data, 'worktrees', 'gone'))).toBe(false);
  });
});

describe('SPEC §23 Restore in place and diff', () => {
  it('dsh restore ID --at N sets the files to the cut, prints the undo, and the undo brings them back; dsh diff lists the paths', async () => {
    const { id, cut } = await twoTurns();
    await writeFile(join(work, 'mine.txt'), 'no checkpoint has me\n');
    const restored = await runDsh(['restore', id, '--at', String(cut), '--json', '--data', data]);
    expect(restored.code, restored.stderr).toBe(0);
    const done = JSON.parse(restored.stdout) as { untracked: string[]; undo: string; undoSeq: number };
    expect(await readFile(join(work, 'plan.md'), 'utf8')).toBe('first\n');
    expect(done.untracked).toEqual(['mine.txt']);
    expect(existsSync(join(work, 'mine.txt'))).toBe(true);
    expect(done.undo).toContain(`dsh restore ${id} --at ${String(done.undoSeq)}`);
    const diff = await runDsh(['diff', id, '--at', String(cut), '--to', String(done.undoSeq), '--data', data]);
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).toContain('modified plan.md');
    const undone = await runDsh(['restore', id, '--at', String(done.undoSeq), '--data', data]);
    expect(undone.code, undone.stderr).toBe(0);
    expect(await readFile(join(work, 'plan.md'), 'utf8')).toBe('second\n');
  });
});
