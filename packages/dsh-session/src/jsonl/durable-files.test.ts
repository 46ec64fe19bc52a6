// Directory fsyncs shared by the callers of one process (SPEC §24: eight peers, every fork durable, at most
// one copy of the baseline in total): a call waits for an fsync that started after it, and the calls made
// while one runs share the next.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSessionStore } from 'dsh-session';
import { makeTempDir, type TempDir } from '@dsh/test-utils';
import { directoryFsyncCount, syncDirectory } from './durable-files.js';

describe('syncDirectory', () => {
  let dir: TempDir;
  beforeEach(async () => {
    dir = await makeTempDir();
  });
  afterEach(async () => {
    await dir.remove();
  });

  it('calls made while an fsync of the folder runs share one fsync that starts after it', async () => {
    const before = directoryFsyncCount();
    const first = syncDirectory(dir.path);
    const waiting = [syncDirectory(dir.path), syncDirectory(dir.path), syncDirectory(dir.path), syncDirectory(dir.path)];
    const order: string[] = [];
    void first.then(() => order.push('first'));
    for (const call of waiting) void call.then(() => order.push('queued'));
    await Promise.all([first, ...waiting]);
    // One fsync for the first call, one more for the four that came while it ran: never zero for a later caller.
    expect(directoryFsyncCount() - before).toBe(2);
    expect(order).toEqual(['first', 'queued', 'queued', 'queued', 'queued']);
    await syncDirectory(dir.path);
    expect(directoryFsyncCount() - before).toBe(3);
  });

  it('folders are synced apart, and a failed fsync fails every call waiting on it, then the next call tries again', async () => {
    const before = directoryFsyncCount();
    const other = join(dir.path, 'missing');
    await Promise.all([syncDirectory(dir.path), syncDirectory(dir.path)]);
    const failing = [syncDirectory(other), syncDirectory(other), syncDirectory(other)];
    const results = await Promise.allSettled(failing);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(directoryFsyncCount() - before).toBe(4);
    await writeFile(join(dir.path, 'file'), 'x');
    await expect(syncDirectory(dir.path)).resolves.toBeUndefined();
  });

  it('eight forks of one observation at once fsync their folder fewer times than once each, and every child is there', async () => {
    const store = await openSessionStore({ dir: dir.path });
    try {
      const parent = await store.create({ id: 'parent' });
      parent.append('turn/start', { turn: 1 });
      parent.append('turn/end', { turn: 1, reason: { kind: 'completed' } });
      await parent.close();
      const observation = await store.observe('parent');
      const before = directoryFsyncCount();
      const children = await Promise.all(
        Array.from({ length: 8 }, (_, index) => store.fork(observation, { atSeq: 1, id: `child-${String(index)}` })),
      );
      expect(directoryFsyncCount() - before).toBeLessThan(8);
      for (const child of children) await child.close();
      const inherited = (await store.inspect('parent')).events;
      for (let index = 0; index < 8; index += 1)
        expect((await store.inspect(`child-${String(index)}`)).events.slice(0, 2)).toEqual(inherited.slice(0, 2));
    } finally {
      await store.close();
    }
  });
});
