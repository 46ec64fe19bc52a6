// SIGKILL during `dsh fork FILE --at REF --worktree` of a Claude Code file at spread-out times (SPEC
// §23): once the next such fork has run, every child id has both its session file and its directory
// (holding the files at the cut) or neither — never a directory no child uses. Half the kills land the
// moment the directory appears, before the child can be written.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DSH_BIN, faultTrials, makeTempDir, reportFaults, runDsh } from '@dsh/test-utils';
import { claudeProjectDirName } from '../src/commands/claude-project-folder.js';

const figures = { trials: 0, acknowledged: 0, lost: 0, halfWritten: 0, killedMidway: 0 };
afterAll(() => {
  reportFaults('kill9-claude-fork-worktree', figures);
});

const SESSION = '3b9d2f10-5a6c-4d7e-8f90-a1b2c3d4e5f6';

/** Resolves when `path` exists (polled every 2 ms) or the process has exited. */
async function appears(path: string, exited: Promise<unknown>): Promise<void> {
  const state = { exited: false };
  void exited.then(() => {
    state.exited = true;
  });
  while (!state.exited && !existsSync(path)) await new Promise((resolve) => setTimeout(resolve, 2));
}

describe('SIGKILL during dsh fork FILE --worktree (Claude Code)', { timeout: 1_800_000 }, () => {
  it('leaves each child with its directory holding the cut, or neither, once the next fork has run', async () => {
    const data = await makeTempDir('dsh-claude-fork-kill-data-');
    const work = await makeTempDir('dsh-claude-fork-kill-work-');
    try {
      await writeFile(join(work.path, 'notes.md'), 'before the call\n');
      const base = { isSidechain: false, userType: 'external', cwd: work.path, sessionId: SESSION, version: '2.1.332' };
      const lines = [
        {
          ...base,
          parentUuid: null,
          type: 'user',
          message: { role: 'user', content: 'edit' },
          uuid: 'u-1',
          timestamp: '2026-12-07T06:00:00.000Z',
        },
        {
          ...base,
          parentUuid: 'u-1',
          type: 'assistant',
          message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_k', name: 'Bash', input: { command: 'x' } }] },
          uuid: 'a-1',
          timestamp: '2026-12-07T06:00:01.000Z',
        },
      ];
      const config = join(data.path, 'claude');
      const folder = join(config, 'projects', claudeProjectDirName(work.path));
      await mkdir(folder, { recursive: true });
      const file = join(folder, `${SESSION}.jsonl`);
      await writeFile(file, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
      const hook = { session_id: SESSION, cwd: work.path, tool_use_id: 'toolu_k', hook_event_name: 'PreToolUse', transcript_path: file };
      expect((await runDsh(['checkpoint', '--from', 'claude-code', '--data', data.path], { stdin: JSON.stringify(hook) })).stderr).toBe('');
      await writeFile(join(work.path, 'notes.md'), 'after the call\n');
      const env = { ...process.env, CLAUDE_CONFIG_DIR: config, DSH_HOME: undefined, NODE_OPTIONS: undefined };

      const ids: string[] = [];
      for (let trial = 0; trial < faultTrials(4, 30); trial += 1) {
        const id = randomUUID();
        ids.push(id);
        const args = [DSH_BIN, 'fork', file, '--at', 'a-1', '--worktree', '--session-id', id, '--data', data.path];
        const child = spawn(process.execPath, args, { detached: true, stdio: 'ignore', env });
        const exited = new Promise<number | null>((resolve) => {
          child.once('exit', (code) => {
            resolve(code);
          });
        });
        // Even trials: killed the moment the directory appears (before the child can be written); odd: at spread-out times.
        if (trial % 2 === 0) await appears(join(data.path, 'worktrees', `claude-${id.slice(0, 8)}`), exited);
        else await new Promise((resolve) => setTimeout(resolve, 300 + ((trial * 1_307) % 3_000)));
        let killed = true;
        try {
          process.kill(-(child.pid as number), 'SIGKILL');
        } catch {
          killed = false;
        }
        if ((await exited) !== 0 && killed) figures.killedMidway += 1;
        figures.trials += 1;
      }
      const last = randomUUID();
      const next = await runDsh(['fork', file, '--at', 'a-1', '--worktree', '--session-id', last, '--data', data.path, '--json'], {
        env: { CLAUDE_CONFIG_DIR: config },
        timeoutMs: 120_000,
      });
      expect(next.code, next.stderr).toBe(0);
      ids.push(last);
      for (const id of ids) {
        const dir = join(data.path, 'worktrees', `claude-${id.slice(0, 8)}`);
        const childFile = join(config, 'projects', claudeProjectDirName(dir), `${id}.jsonl`);
        const hasChild = existsSync(childFile);
        const hasDir = existsSync(dir);
        if (hasChild !== hasDir) figures.halfWritten += 1;
        if (hasChild) {
          figures.acknowledged += 1;
          if ((await readFile(join(dir, 'notes.md'), 'utf8').catch(() => undefined)) !== 'before the call\n') figures.lost += 1;
        }
      }
      expect(await readFile(join(work.path, 'notes.md'), 'utf8')).toBe('after the call\n');
      expect(figures.halfWritten).toBe(0);
      expect(figures.lost).toBe(0);
    } finally {
      await data.remove();
      await work.remove();
    }
  });
});
