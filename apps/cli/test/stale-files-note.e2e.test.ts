/**
 * SPEC §23 "Honest to the model" through the real bin, real git and real files: a session whose tool
 * wrote a file, the file changed after the cut, forked at that cut in the same directory — the child's
 * log holds a note naming the file before its first request; forked with `--worktree` (its files are
 * the workspace at the cut) it holds none.
 */
import { describe, expect, it } from 'vitest';
import { workspaceStaleNoteText } from 'dsh-codec';
import { runDsh } from '@dsh/test-utils';
import { useCliTestDirs } from './cli-test-dirs.js';
import { planTurns } from './plan-turns.js';
import { git } from './run-git.js';

const dirs = useCliTestDirs('dsh-stale-note', { work: true });
const { turnWriting, eventsOf } = planTurns(dirs);

async function fork(id: string, ...options: string[]): Promise<{ sessionId: string; forkCut: number }> {
  const forked = await runDsh(['fork', id, ...options, '--json', '--data', dirs.data.path]);
  expect(forked.code, forked.stderr).toBe(0);
  return JSON.parse(forked.stdout) as { sessionId: string; forkCut: number };
}

describe('dsh fork without the files at the cut: the stale-files note (SPEC §23)', () => {
  it(
    'names the file the inherited history wrote that changed since the cut; a --worktree fork gets no such note',
    { timeout: 180_000 },
    async () => {
      git(dirs.work.path, 'init', '-q');
      git(dirs.work.path, 'add', '.');
      git(dirs.work.path, 'commit', '-qm', 'start');
      const id = await turnWriting(dirs.work.path, 'first\n');
      await turnWriting(dirs.work.path, 'second\n', id);
      const cut = (await eventsOf(id)).find((event) => event.type === 'turn/end')?.seq ?? -1;
      expect(cut).toBeGreaterThan(0);

      const shared = await fork(id, '--at', String(cut), '--name', 'shared');
      const notes = (await eventsOf(shared.sessionId)).filter((event) => event.type === 'session/note');
      expect(notes).toEqual([
        {
          seq: cut + 2,
          type: 'session/note',
          time: expect.any(Number),
          data: { kind: 'workspace-stale', text: workspaceStaleNoteText(['plan.md']), paths: ['plan.md'] },
        },
      ]);

      const worktree = await fork(id, '--at', String(cut), '--worktree', '--name', 'own-files');
      expect((await eventsOf(worktree.sessionId)).filter((event) => event.type === 'session/note')).toEqual([]);
    },
  );
});
