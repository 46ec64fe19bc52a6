// A live host session on a disk that fills up (SPEC §27, issue 36 item 5): the message accepted while
// the disk is full must run once space is back, the session must answer again, and no event may be lost.
import { open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeJsonl } from 'dsh-codec';
import { createScriptedModel } from 'dsh-agent';
import { createHost, openSessionStore, type Host } from 'dsh-host';
import { faultTrials, mountSmallDisk, printSkip, reportFaults, type SmallDisk } from '@dsh/test-utils';

let disk: SmallDisk | undefined;
afterEach(async () => {
  await disk?.remove();
  disk = undefined;
});

/** Writes `path` until not even one more byte fits, so any append that needs a new page fails ENOSPC. */
async function fillDisk(path: string): Promise<void> {
  const handle = await open(path, 'w');
  try {
    for (const size of [64 * 1024, 4096, 1]) {
      const chunk = Buffer.alloc(size, 120);
      for (;;) {
        try {
          await handle.appendFile(chunk);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw error;
        }
      }
    }
  } finally {
    await handle.close();
  }
}

/** Waits until the live session holds an event of `type` after `seq` (what the host shows, durable or not). */
async function untilLive(host: Host, id: string, type: string, seq: number): Promise<void> {
  for (;;) {
    const { events } = await host.observe(id);
    if (events.some((event) => event.seq > seq && event.type === type)) return;
    await sleep(10);
  }
}

describe('a live session on a full disk', { timeout: 300_000 }, () => {
  it('runs the message accepted while the disk was full once space is back, then answers again; nothing acknowledged is lost', async (context) => {
    const trials = faultTrials(2, 10);
    const figures = { trials, acknowledged: 0, lost: 0, halfWritten: 0, stuck: 0, recovered: 0 };
    for (let trial = 0; trial < trials; trial += 1) {
      const mounted = await mountSmallDisk(3 * 1024);
      if ('reason' in mounted) {
        printSkip('storage-recovery', mounted.reason);
        context.skip();
        return;
      }
      disk = mounted;
      const store = await openSessionStore({ dir: join(mounted.path) });
      const host = createHost({
        store,
        model: createScriptedModel(Array.from({ length: 4 }, (_, index) => ({ text: `answer ${index}` }))),
      });
      const { sessionId } = await host.create({ id: 'full' });
      const first = await host.send(sessionId, 'before the disk fills');
      expect((await host.turnResult(sessionId, first.inputId)).result).toBe('answer 0');
      const before = (await host.observe(sessionId)).events.length;

      const filler = join(mounted.path, 'filler');
      await fillDisk(filler);
      // Bigger than a page: the batch that records it cannot fit in the log file's last page.
      const accepted = await host.send(sessionId, `while the disk is full ${'y'.repeat(16 * 1024 + trial * 331)}`);
      const waiting = host.turnResult(sessionId, accepted.inputId);
      waiting.catch(() => undefined);
      await untilLive(host, sessionId, 'step/start', before);
      // The turn's flush before the model request meets the full disk (and fails) meanwhile.
      await sleep(300);
      await rm(filler);

      let answer: string | undefined;
      try {
        answer = (await waiting).result;
        figures.recovered += 1;
      } catch {
        figures.stuck += 1;
      }
      expect(answer).toBe('answer 1');
      const again = await host.send(sessionId, 'after space came back');
      expect((await host.turnResult(sessionId, again.inputId)).result).toBe('answer 2');

      const shown = (await host.observe(sessionId)).events;
      await host.close();
      await store.close();
      const { events, tornTail } = decodeJsonl(await readFile(join(mounted.path, 'full.jsonl'), 'utf8'));
      figures.acknowledged += shown.length;
      if (tornTail !== undefined) figures.halfWritten += 1;
      if (events.length < shown.length) figures.lost += shown.length - events.length;
      expect(events.slice(0, shown.length)).toEqual(shown);
      await mounted.remove();
      disk = undefined;
    }
    reportFaults('storage-recovery', figures);
    expect(figures.stuck).toBe(0);
    expect(figures.lost).toBe(0);
    expect(figures.halfWritten).toBe(0);
  });
});
