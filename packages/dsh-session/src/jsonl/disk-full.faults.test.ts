// A full disk: appends fail with WRITE_FAILED, every acknowledged event stays, no half-written batch.
import { spawnSync } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeJsonl } from 'dsh-codec';
import { openSessionStore, SessionError } from 'dsh-session';
import { faultTrials, makeTempDir, printSkip, reportFaults, type TempDir } from '@dsh/test-utils';

let dir: TempDir | undefined;
let mounted: string | undefined;
afterEach(async () => {
  if (mounted !== undefined) spawnSync('umount', [mounted]);
  mounted = undefined;
  await dir?.remove();
});

/** Mounts a small tmpfs; returns why not where that is not permitted. */
async function smallDisk(sizeKiB: number): Promise<string | { reason: string }> {
  dir = await makeTempDir();
  const target = join(dir.path, 'disk');
  await mkdir(target);
  const result = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKiB}k`, 'tmpfs', target], { encoding: 'utf8' });
  if (result.error !== undefined || result.status !== 0)
    return { reason: `mount -t tmpfs not permitted here: ${(result.error?.message ?? result.stderr).trim()}` };
  mounted = target;
  return target;
}

describe('disk full', { timeout: 300_000 }, () => {
  it('fails appends with WRITE_FAILED, keeps every acknowledged event and leaves no half-written batch', async (context) => {
    const trials = faultTrials(3, 20);
    let acknowledged = 0;
    let lost = 0;
    let halfWritten = 0;
    for (let trial = 0; trial < trials; trial += 1) {
      const disk = await smallDisk(256 + trial * 64);
      if (typeof disk !== 'string') {
        printSkip('disk-full', disk.reason);
        context.skip();
        return;
      }
      const store = await openSessionStore({ dir: disk });
      const session = await store.create({ id: 'full' });
      let acked = session.events.length;
      let failure: unknown;
      for (let batch = 0; failure === undefined && batch < 10_000; batch += 1) {
        for (let index = 0; index < 1 + (batch % 5); index += 1)
          session.append('session/title', { title: `batch ${batch} ${'x'.repeat(1_000 + trial * 97)}` });
        try {
          await session.flush();
          acked = session.events.length;
        } catch (error) {
          failure = error;
        }
      }
      expect(SessionError.is(failure) && failure.code).toBe('WRITE_FAILED');
      acknowledged += acked;
      const { events, tornTail } = decodeJsonl(await readFile(join(disk, 'full.jsonl'), 'utf8'));
      if (tornTail !== undefined) halfWritten += 1;
      if (events.length < acked) lost += acked - events.length;
      expect(events.slice(0, acked)).toEqual(session.events.slice(0, acked));
      // Closing flushes the refused events again: that fails too (the disk is still full).
      await session.close().catch(() => undefined);
      await store.close().catch(() => undefined);
      spawnSync('umount', [disk]);
      mounted = undefined;
      await dir?.remove();
      dir = undefined;
    }
    reportFaults('disk-full', { trials, acknowledged, lost, halfWritten });
    expect(lost).toBe(0);
    expect(halfWritten).toBe(0);
  });
});
