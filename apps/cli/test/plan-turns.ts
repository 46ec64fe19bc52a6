/**
 * @module plan-turns
 * Sessions whose scripted model writes `plan.md`: what the workspace-at-the-cut tests build on
 * (`fork-worktree`, `restore-diff`, `stale-files-note`): one turn, two turns, a session's events.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { runDsh } from '@dsh/test-utils';
import type { CliTestDirs } from './cli-test-dirs.js';

/** An event as `dsh show --json` prints it. */
export type PlanEvent = { seq: number; type: string; data: Record<string, unknown> };

/** The plan-writing steps over this test's data directory. */
export function planTurns(dirs: CliTestDirs): {
  turnWriting: (cwd: string, content: string, resume?: string) => Promise<string>;
  eventsOf: (ref: string) => Promise<PlanEvent[]>;
  twoTurns: (cwd: string) => Promise<{ id: string; firstTurnEnd: number }>;
} {
  /** One `dsh -p` turn in `cwd` whose scripted model writes `plan.md` with `content` (a new session `base`, or `resume`d); its id. */
  async function turnWriting(cwd: string, content: string, resume?: string): Promise<string> {
    const script = join(dirs.data.path, 'script.json');
    await writeFile(
      script,
      JSON.stringify([{ toolCalls: [{ name: 'write_file', arguments: { path: 'plan.md', content } }] }, { text: 'Written.' }]),
    );
    const args = ['-p', 'write the plan', '--output-format', 'json', '--data', dirs.data.path];
    const result = await runDsh(
      resume === undefined ? [...args, '--name', 'base', '--cwd', cwd, '--model', `scripted:${script}`] : [...args, '--resume', resume],
    );
    expect(result.code, result.stderr).toBe(0);
    return (JSON.parse(result.stdout) as { session_id: string }).session_id;
  }

  async function eventsOf(ref: string): Promise<PlanEvent[]> {
    const shown = await runDsh(['show', ref, '--json', '--data', dirs.data.path]);
    expect(shown.code, shown.stderr).toBe(0);
    return (JSON.parse(shown.stdout) as { events: PlanEvent[] }).events;
  }

  /** Two turns: plan.md is "first" after the first, "second" after the second; the id and the first turn's turn/end seq. */
  async function twoTurns(cwd: string): Promise<{ id: string; firstTurnEnd: number }> {
    const id = await turnWriting(cwd, 'first\n');
    await turnWriting(cwd, 'second\n', id);
    const firstTurnEnd = (await eventsOf(id)).find((event) => event.type === 'turn/end')?.seq;
    expect(firstTurnEnd).toBeDefined();
    return { id, firstTurnEnd: firstTurnEnd as number };
  }

  return { turnWriting, eventsOf, twoTurns };
}
