// SIGKILL during `dsh fork ID --at N --worktree` at spread-out times (SPEC §23): afterwards — once the
// next `--worktree` fork has run — every name has both its child and its directory or neither, and a
// child's directory holds the workspace at the cut (plan.md as the first turn wrote it), never HEAD.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { faultTrials, makeTempDir, reportFaults, runDsh } from '@dsh/test-utils';
import { after, killDsh } from './kill-dsh.js';
import { git } from './run-git.js';

const figures = { trials: 0, acknowledged: 0, lost: 0, halfWritten: 0, killedMidway: 0 };
afterAll(() => {
  reportFaults('kill9-fork-worktree', figures);
});

describe('SIGKILL during dsh fork --worktree', { timeout: 1_800_000 }, () => {
  it('leaves each child with its directory holding the cut, or neither, once the next fork has run', async () => {
    const data = await makeTempDir('dsh-fork-kill-data-');
    const work = await makeTempDir('dsh-fork-kill-work-');
    try {
      await writeFile(join(work.path, 'notes.md'), 'remember the milk\n');
      git(work.path, 'init', '-q');
      git(work.path, 'add', '.');
      git(work.path, 'commit', '-qm', 'start');
      const script = join(data.path, 'script.json');
      const turn = async (content: string, resume?: string): Promise<string> => {
        await writeFile(
          script,
          JSON.stringify([{ toolCalls: [{ name: 'write_file', arguments: { path: 'plan.md', content } }] }, { text: 'ok' }]),
        );
        const args = ['-p', 'write', '--output-format', 'json', '--data', data.path];
        const done = await runDsh(
          resume === undefined ? [...args, '--cwd', work.path, '--model', `scripted:${script}`] : [...args, '--resume', resume],
        );
        expect(done.code, done.stderr).toBe(0);
        return (JSON.parse(done.stdout) as { session_id: string }).session_id;
      };
      const id = await turn('first\n');
      await turn('second\n', id);
      const shown = JSON.parse((await runDsh(['show', id, '--json', '--data', data.path])).stdout) as {
        events: { seq: number; type: string }[];
      };
      const cut = String(shown.events.find((event) => event.type === 'turn/end')?.seq);

      const names: string[] = [];
      for (let trial = 0; trial < faultTrials(4, 30); trial += 1) {
        const name = `k${String(trial)}`;
        names.push(name);
        const args = ['fork', id, '--at', cut, '--worktree', '--name', name, '--data', data.path];
        if (await killDsh(args, after(300 + ((trial * 1_307) % 4_000)))) figures.killedMidway += 1;
        figures.trials += 1;
      }
      // The next command that makes a worktree cleans what a killed one left.
      const next = await runDsh(['fork', id, '--at', cut, '--worktree', '--name', 'next', '--data', data.path], { timeoutMs: 120_000 });
      expect(next.code, next.stderr).toBe(0);
      names.push('next');
      const listed = JSON.parse((await runDsh(['sessions', '--json', '--data', data.path])).stdout) as { title?: string }[];
      const titles = new Set(listed.flatMap((item) => (item.title === undefined ? [] : [item.title])));
      const branches = git(work.path, 'branch', '--list', 'dsh/*');
      for (const name of names) {
        const dir = join(data.path, 'worktrees', name);
        const hasChild = titles.has(name);
        const hasDir = existsSync(dir);
        const hasBranch = branches.includes(`dsh/${name}\n`);
        if (hasChild !== hasDir || hasDir !== hasBranch) figures.halfWritten += 1;
        if (hasChild) {
          figures.acknowledged += 1;
          const plan = await readFile(join(dir, 'plan.md'), 'utf8').catch(() => undefined);
          if (plan !== 'first\n') figures.lost += 1;
        }
      }
      // The original checkout: HEAD and files as the session left them.
      expect(await readFile(join(work.path, 'plan.md'), 'utf8')).toBe('second\n');
      expect(figures.halfWritten).toBe(0);
      expect(figures.lost).toBe(0);
    } finally {
      await data.remove();
      await work.remove();
    }
  });
});
