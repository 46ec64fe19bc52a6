// A disk that fills while a writer seals its session's lines into a segment (SPEC §24): every
// acknowledged event stays and reads back, and no temp file or half-written segment stays.
import { open, readdir, unlink } from 'node:fs/promises';
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

describe('sealing on a full disk', { timeout: 300_000 }, () => {
  it('a writer whose seal cannot be written keeps every acknowledged event, readable, and leaves nothing half-written', async (context) => {
    const trials = faultTrials(3, 12);
    let acknowledged = 0;
    let halfWritten = 0;
    let lost = 0;
    for (let trial = 0; trial < trials; trial += 1) {
      const mounted = await mountSmallDisk(4096);
      if ('reason' in mounted) {
        printSkip('sealing-disk-full', mounted.reason);
        context.skip();
        return;
      }
      disk = mounted;
      const store = await openSessionStore({ dir: mounted.path });
      const parent = await store.create({ id: 'parent' });
      // Room for the lines, not for a second copy of them: the seal past 1 MiB finds the disk full.
      await fill(mounted.path, (1_400 + trial * 200) * 1024);
      let acked = 0;
      for (let turn = 1; turn <= 40; turn += 1) {
        parent.append('turn/start', { turn });
        parent.append('user/message', {
          message: { id: `u${String(turn)}`, role: 'user', content: [{ type: 'text', text: 'p'.repeat(60_000) }] },
        });
        parent.append('turn/end', { turn, reason: { kind: 'completed' } });
        try {
          await parent.flush();
          acked = parent.events.length;
        } catch (error) {
          expect(SessionError.is(error) && error.code).toBe('WRITE_FAILED');
          break;
        }
      }
      const events = parent.events.slice(0, acked);
      acknowledged += acked;
      await parent.close().catch(() => undefined);
      const leftovers = [...(await readdir(mounted.path)), ...(await readdir(join(mounted.path, '.segments')).catch(() => []))];
      halfWritten += leftovers.filter((name) => name.endsWith('.tmp')).length;
      await unlink(join(mounted.path, 'filler'));
      await store.close().catch(() => undefined);
      const again = await openSessionStore({ dir: mounted.path });
      const stored = (await again.inspect('parent')).events;
      if (JSON.stringify(stored.slice(0, acked)) !== JSON.stringify(events)) lost += 1;
      await again.close();
      await mounted.remove();
      disk = undefined;
    }
    reportFaults('sealing-disk-full', { trials, acknowledged, lost, halfWritten });
    expect(acknowledged).toBeGreaterThan(0);
    expect(lost).toBe(0);
    expect(halfWritten).toBe(0);
  });
});
