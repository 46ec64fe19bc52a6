// A full disk: appends fail with WRITE_FAILED, every acknowledged event stays, no half-written batch.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeJsonl } from 'dsh-codec';
import { openSessionStore, SessionError } from 'dsh-session';
import { faultTrials, mountSmallDisk, printSkip, reportFaults, type SmallDisk } from '@dsh/test-utils';

let disk: SmallDisk | undefined;
afterEach(async () => {
  await disk?.remove();
  disk = undefined;
});

describe('disk full', { timeout: 300_000 }, () => {
  it('fails appends with WRITE_FAILED, keeps every acknowledged event and leaves no half-written batch', async (context) => {
    const trials = faultTrials(3, 20);
    let acknowledged = 0;
    let lost = 0;
    let halfWritten = 0;
    for (let trial = 0; trial < trials; trial += 1) {
      const mounted = await mountSmallDisk(256 + trial * 64);
      if ('reason' in mounted) {
        printSkip('disk-full', mounted.reason);
        context.skip();
        return;
      }
      disk = mounted;
      const store = await openSessionStore({ dir: mounted.path });
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
      const { events, tornTail } = decodeJsonl(await readFile(join(mounted.path, 'full.jsonl'), 'utf8'));
      if (tornTail !== undefined) halfWritten += 1;
      if (events.length < acked) lost += acked - events.length;
      expect(events.slice(0, acked)).toEqual(session.events.slice(0, acked));
      // Closing flushes the refused events again: that fails too (the disk is still full).
      await session.close().catch(() => undefined);
      await store.close().catch(() => undefined);
      await mounted.remove();
      disk = undefined;
    }
    reportFaults('disk-full', { trials, acknowledged, lost, halfWritten });
    expect(lost).toBe(0);
    expect(halfWritten).toBe(0);
  });
});
