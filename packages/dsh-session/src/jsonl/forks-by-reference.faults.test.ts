// A disk that fills while a fork seals its parent's lines (SPEC §24): the fork fails with WRITE_FAILED
// or copies, and the parent's file, its events and every segment stay as they were; no temp file stays.
import { open, readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSessionStore, SessionError } from 'dsh-session';
import { faultTrials, mountSmallDisk, printSkip, reportFaults, type SmallDisk } from '@dsh/test-utils';

let disk: SmallDisk | undefined;
afterEach(async () => {
  await disk?.remove();
  disk = undefined;
});

/** Fills the disk under `dir` with a file until it is full, then frees `spare` bytes of it. */
async function fill(dir: string, spare: number): Promise<void> {
  const path = join(dir, 'filler');
  const handle = await open(path, 'w');
  const chunk = Buffer.alloc(4096, 0x61);
  let size = 0;
  try {
    for (;;) {
      await handle.write(chunk, 0, chunk.length, size);
      size += chunk.length;
    }
  } catch {
    // Full.
  }
  await handle.truncate(Math.max(0, size - spare));
  await handle.close();
}

describe('forks by reference on a full disk', { timeout: 300_000 }, () => {
  it('a seal that cannot be written leaves the parent unchanged and nothing half-written', async (context) => {
    const trials = faultTrials(3, 12);
    let acknowledged = 0;
    let halfWritten = 0;
    let lost = 0;
    for (let trial = 0; trial < trials; trial += 1) {
      const mounted = await mountSmallDisk(1024);
      if ('reason' in mounted) {
        printSkip('forks-by-reference-disk-full', mounted.reason);
        context.skip();
        return;
      }
      disk = mounted;
      const store = await openSessionStore({ dir: mounted.path });
      const parent = await store.create({ id: 'parent' });
      for (let turn = 1; turn <= 30; turn += 1) {
        parent.append('turn/start', { turn });
        parent.append('user/message', {
          message: { id: `u${String(turn)}`, role: 'user', content: [{ type: 'text', text: 'p'.repeat(6_000) }] },
        });
        parent.append('turn/end', { turn, reason: { kind: 'completed' } });
      }
      const events = parent.events.slice();
      await parent.close();
      const before = await readFile(join(mounted.path, 'parent.jsonl'));
      await fill(mounted.path, 4096 * (1 + trial * 3));
      const outcome = await store.fork('parent', { atSeq: events.length - 1 - trial, id: 'child' }).then(
        async (child) => {
          await child.close();
          return 'forked';
        },
        (error: unknown) => (SessionError.is(error) ? error.code : String(error)),
      );
      expect(['forked', 'WRITE_FAILED']).toContain(outcome);
      if (outcome === 'WRITE_FAILED') {
        // Nothing named or half-written: the parent's bytes as they were, no temp file anywhere.
        if (!(await readFile(join(mounted.path, 'parent.jsonl'))).equals(before)) halfWritten += 1;
        const leftovers = [...(await readdir(mounted.path)), ...(await readdir(join(mounted.path, '.segments')).catch(() => []))];
        halfWritten += leftovers.filter((name) => name.endsWith('.tmp')).length;
      } else acknowledged += 1;
      await unlink(join(mounted.path, 'filler'));
      if (JSON.stringify((await store.inspect('parent')).events) !== JSON.stringify(events)) lost += 1;
      await store.close();
      await mounted.remove();
      disk = undefined;
    }
    reportFaults('forks-by-reference-disk-full', { trials, acknowledged, lost, halfWritten });
    expect(lost).toBe(0);
    expect(halfWritten).toBe(0);
  });
});
