/**
 * SPEC §23 "Restore in place" and `dsh diff` through the real bin: a session's cwd set back to the
 * workspace at an event and forward again with the printed undo; only files a checkpoint knows change;
 * `SESSION_BUSY` while a live writer holds it; `dsh fork --restore`; diffs between checkpoints and now.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDsh, spawnDsh, startModelServer } from '@dsh/test-utils';
import { useCliTestDirs } from './cli-test-dirs.js';
import { planTurns } from './plan-turns.js';

const dirs = useCliTestDirs('dsh-restore', { work: true });
const { eventsOf, twoTurns } = planTurns(dirs);

const plan = (): Promise<string> => readFile(join(dirs.work.path, 'plan.md'), 'utf8');

describe('dsh restore and dsh diff (SPEC §23)', () => {
  it(
    'restores the cwd to the cut, leaves files no checkpoint knows, and the printed undo brings today’s files back',
    { timeout: 180_000 },
    async () => {
      const { id, firstTurnEnd } = await twoTurns(dirs.work.path);
      await writeFile(join(dirs.work.path, 'scratch.txt'), 'mine\n');
      const restored = await runDsh(['restore', id, '--at', String(firstTurnEnd), '--json', '--data', dirs.data.path]);
      expect(restored.code, restored.stderr).toBe(0);
      const done = JSON.parse(restored.stdout) as {
        changed: { path: string; change: string }[];
        untracked: string[];
        undoSeq: number;
        undo: string;
      };
      expect(done.changed).toEqual([{ path: 'plan.md', change: 'modified' }]);
      expect(done.untracked).toEqual(['scratch.txt']);
      expect(await plan()).toBe('first\n');
      expect(await readFile(join(dirs.work.path, 'scratch.txt'), 'utf8')).toBe('mine\n');
      // The checkpoint taken first is in the session, at the seq the undo names.
      const undoEvent = (await eventsOf(id)).find((event) => event.seq === done.undoSeq);
      expect(undoEvent?.type).toBe('workspace/checkpoint');
      expect(done.undo).toBe(`dsh restore ${id} --at ${String(done.undoSeq)} --data ${dirs.data.path}`);
      const undone = await runDsh(['restore', id, '--at', String(done.undoSeq), '--data', dirs.data.path]);
      expect(undone.code, undone.stderr).toBe(0);
      expect(undone.stdout).toContain('modified plan.md');
      expect(undone.stdout).toContain('undo it with: dsh restore');
      expect(await plan()).toBe('second\n');
    },
  );

  it('dsh diff lists what differs between two checkpoints and between one and the files now', { timeout: 180_000 }, async () => {
    const { id, firstTurnEnd } = await twoTurns(dirs.work.path);
    const start = (await eventsOf(id)).find((event) => event.type === 'workspace/checkpoint')?.seq as number;
    const between = await runDsh(['diff', id, '--at', String(start), '--to', String(firstTurnEnd), '--data', dirs.data.path]);
    expect(between.code, between.stderr).toBe(0);
    expect(between.stdout).toBe('added plan.md\n');
    await writeFile(join(dirs.work.path, 'notes.md'), 'changed by hand\n');
    const now = await runDsh(['diff', id, '--at', String(firstTurnEnd), '--json', '--data', dirs.data.path]);
    expect(now.code, now.stderr).toBe(0);
    expect(JSON.parse(now.stdout)).toMatchObject({
      sessionId: id,
      to: { cwd: dirs.work.path },
      changes: [
        { path: 'notes.md', change: 'modified' },
        { path: 'plan.md', change: 'modified' },
      ],
    });
    const none = await runDsh(['diff', id, '--at', '0', '--data', dirs.data.path]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('NO_CHECKPOINT');
  });

  it('dsh fork --at N --restore: a child in the parent’s directory, its files restored to the cut', { timeout: 180_000 }, async () => {
    const { id, firstTurnEnd } = await twoTurns(dirs.work.path);
    const forked = await runDsh(['fork', id, '--at', String(firstTurnEnd), '--restore', '--json', '--data', dirs.data.path]);
    expect(forked.code, forked.stderr).toBe(0);
    const result = JSON.parse(forked.stdout) as { sessionId: string; restored: { cwd: string; undo: string } };
    expect(result.restored.cwd).toBe(dirs.work.path);
    expect(await plan()).toBe('first\n');
    expect(result.restored.undo).toContain(`dsh restore ${result.sessionId} --at `);
    const [, , , , seq] = result.restored.undo.split(' ');
    const undone = await runDsh(['restore', result.sessionId, '--at', seq as string, '--data', dirs.data.path]);
    expect(undone.code, undone.stderr).toBe(0);
    expect(await plan()).toBe('second\n');
  });

  it('refuses SESSION_BUSY while a live writer holds the session, changing no file', { timeout: 180_000 }, async () => {
    let asked: () => void = () => undefined;
    const requested = new Promise<void>((resolve) => {
      asked = resolve;
    });
    dirs.server = await startModelServer(() => {
      asked();
      return 'hang';
    });
    const server = dirs.server;
    // Its turn has started (and been checkpointed) and waits for the model: the process holds the session.
    const holder = spawnDsh(['-p', 'think', '--name', 'held', '--cwd', dirs.work.path, '--model', 'openai:m', '--data', dirs.data.path], {
      env: { OPENAI_BASE_URL: `${server.origin}/v1`, OPENAI_API_KEY: 'sk-test' },
    });
    try {
      await requested;
      await writeFile(join(dirs.work.path, 'notes.md'), 'changed while it runs\n');
      const refused = await runDsh(['restore', 'held', '--at', '5', '--data', dirs.data.path]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('SESSION_BUSY');
      expect(await readFile(join(dirs.work.path, 'notes.md'), 'utf8')).toBe('changed while it runs\n');
    } finally {
      holder.kill('SIGKILL');
    }
  });
});
