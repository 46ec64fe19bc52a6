// SIGKILL during `dsh fork ROLLOUT --at REF --worktree` of a Codex rollout at spread-out times (SPEC
// §23): once the next such fork has run, every child id has both its rollout (beside the parent's) and
// its directory (holding the files at the cut) or neither — never a directory no child uses. Half the
// kills land the moment the directory appears, before the child can be written.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DSH_BIN, faultTrials, makeTempDir, reportFaults, runDsh } from '@dsh/test-utils';

const figures = { trials: 0, acknowledged: 0, lost: 0, halfWritten: 0, killedMidway: 0 };
afterAll(() => {
  reportFaults('kill9-codex-fork-worktree', figures);
});

const SESSION = '01a25067-8066-79b1-8ac1-3c02672aef2e';

/** A Codex-style child id (time first, then random hex), distinct per trial. */
function childId(trial: number): string {
  const tail = `${trial.toString(16).padStart(4, '0')}${Math.random().toString(16).slice(2, 10)}`;
  return `01a25067-9000-7000-8000-${tail.slice(0, 12)}`;
}

/** Resolves when `path` exists (polled every 2 ms) or the process has exited. */
async function appears(path: string, exited: Promise<unknown>): Promise<void> {
  const state = { exited: false };
  void exited.then(() => {
    state.exited = true;
  });
  while (!state.exited && !existsSync(path)) await new Promise((resolve) => setTimeout(resolve, 2));
}

describe('SIGKILL during dsh fork ROLLOUT --worktree (Codex)', { timeout: 1_800_000 }, () => {
  it('leaves each child with its directory holding the cut, or neither, once the next fork has run', async () => {
    const data = await makeTempDir('dsh-codex-fork-kill-data-');
    const work = await makeTempDir('dsh-codex-fork-kill-work-');
    try {
      await writeFile(join(work.path, 'notes.md'), 'before the call\n');
      const lines = [
        { timestamp: '2026-12-07T06:00:00.000Z', ordinal: 0, type: 'session_meta', payload: { id: SESSION, cwd: work.path } },
        { timestamp: '2026-12-07T06:00:01.000Z', ordinal: 1, type: 'turn_context', payload: { turn_id: 't', cwd: work.path } },
        {
          timestamp: '2026-12-07T06:00:02.000Z',
          ordinal: 2,
          type: 'response_item',
          payload: { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"x"}', call_id: 'call_k' },
        },
      ];
      const folder = join(data.path, 'codex-home', 'sessions', '2026', '12', '07');
      await mkdir(folder, { recursive: true });
      const file = join(folder, `rollout-2026-12-07T06-00-00-${SESSION}.jsonl`);
      await writeFile(file, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
      const hook = { session_id: SESSION, cwd: work.path, tool_use_id: 'call_k', hook_event_name: 'PreToolUse', transcript_path: file };
      expect((await runDsh(['checkpoint', '--from', 'codex', '--data', data.path], { stdin: JSON.stringify(hook) })).stderr).toBe('');
      await writeFile(join(work.path, 'notes.md'), 'after the call\n');
      const codexHome = join(data.path, 'codex-home');
      const env = { ...process.env, CODEX_HOME: codexHome, DSH_HOME: undefined, NODE_OPTIONS: undefined };
      const dirOf = (id: string): string => join(data.path, 'worktrees', `codex-${id.replace(/-/g, '').slice(-8)}`);

      const ids: string[] = [];
      for (let trial = 0; trial < faultTrials(4, 30); trial += 1) {
        const id = childId(trial);
        ids.push(id);
        const args = [DSH_BIN, 'fork', file, '--at', '2', '--worktree', '--session-id', id, '--data', data.path];
        const child = spawn(process.execPath, args, { detached: true, stdio: 'ignore', env });
        const exited = new Promise<number | null>((resolve) => {
          child.once('exit', (code) => {
            resolve(code);
          });
        });
        // Even trials: killed the moment the directory appears (before the child can be written); odd: at spread-out times.
        if (trial % 2 === 0) await appears(dirOf(id), exited);
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
      const last = childId(999);
      const next = await runDsh(['fork', file, '--at', '2', '--worktree', '--session-id', last, '--data', data.path, '--json'], {
        env: { CODEX_HOME: codexHome },
        timeoutMs: 120_000,
      });
      expect(next.code, next.stderr).toBe(0);
      ids.push(last);
      const rollouts = await readdir(folder);
      for (const id of ids) {
        const hasChild = rollouts.some((name) => name.endsWith(`-${id}.jsonl`));
        const hasDir = existsSync(dirOf(id));
        if (hasChild !== hasDir) figures.halfWritten += 1;
        if (hasChild) {
          figures.acknowledged += 1;
          if ((await readFile(join(dirOf(id), 'notes.md'), 'utf8').catch(() => undefined)) !== 'before the call\n') figures.lost += 1;
        }
      }
      expect(await readFile(join(work.path, 'notes.md'), 'utf8')).toBe('after the call\n');
      expect(figures.acknowledged).toBeGreaterThan(0);
      expect(figures.halfWritten).toBe(0);
      expect(figures.lost).toBe(0);
    } finally {
      await data.remove();
      await work.remove();
    }
  });
});
