// The segment store under kill -9 and a full disk: a segment a publisher reported is durable and whole,
// nothing under a segment's name is ever half-written, leftovers are collected, and a disk that fills
// while sealing leaves the session logs beside it unchanged.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { faultTrials, makeTempDir, mountSmallDisk, printSkip, reportFaults, type SmallDisk, type TempDir } from '@dsh/test-utils';
import { killAllStoreProcesses, spawnStoreProcess } from '../../__fixtures__/spawn-store-process.js';
import { SessionError } from '../../session-error.js';
import { leasesDir } from '../jsonl-paths.js';
import { collectSegments } from './collect-segments.js';
import { publishSegment } from './publish-segment.js';
import { SEGMENT_DIGEST, segmentsDir } from './segment-paths.js';
import { createSegmentStore, type SegmentRef } from './segment-store.js';
import { acquireSegmentsLease } from './segments-lease.js';
import { verifySegment } from './verify-segment.js';

const figures = { trials: 0, acknowledged: 0, lost: 0, halfWritten: 0 };
afterAll(() => {
  reportFaults('segments', figures);
});

/** A pause that differs per trial, so kills land at different points of a publish. */
const pause = (trial: number) => new Promise((resolve) => setTimeout(resolve, 3 + ((trial * 37) % 90)));

/** Every file under a segment's name in `dir`, each checked against its name by a store that never saw it. */
async function checkAll(dir: string): Promise<{ names: string[]; others: string[]; mismatched: number }> {
  const names = await readdir(segmentsDir(dir)).catch(() => [] as string[]);
  const fresh = createSegmentStore({ dir });
  let mismatched = 0;
  for (const name of names) if (SEGMENT_DIGEST.test(name) && (await verifySegment(fresh, name)) !== 'verified') mismatched += 1;
  return {
    names: names.filter((name) => SEGMENT_DIGEST.test(name)),
    others: names.filter((name) => !SEGMENT_DIGEST.test(name)),
    mismatched,
  };
}

describe('segment store faults', { timeout: 600_000 }, () => {
  let dir: TempDir | undefined;
  let disk: SmallDisk | undefined;
  afterEach(async () => {
    await killAllStoreProcesses();
    await dir?.remove();
    await disk?.remove();
    dir = undefined;
    disk = undefined;
  });

  it('kill -9 while publishing: every reported segment is whole, no name holds a half-written one, collection removes the leftovers', async () => {
    dir = await makeTempDir();
    const path = dir.path;
    const reported: SegmentRef[] = [];
    for (let trial = 0; trial < faultTrials(4, 60); trial += 1) {
      const publisher = spawnStoreProcess('publish', path, String(trial));
      await publisher.waitFor((message) => message.event === 'published');
      await pause(trial);
      await publisher.kill9();
      figures.trials += 1;
      for (const message of publisher.messages) {
        if (message.event !== 'published') continue;
        reported.push({ digest: message.digest as string, bytes: message.bytes as number, lines: message.lines as number });
        figures.acknowledged += 1;
      }
      const { names, mismatched } = await checkAll(path);
      figures.halfWritten += mismatched;
      for (const ref of reported) if (!names.includes(ref.digest)) figures.lost += 1;
    }
    // A manifest names what was reported; the dead publishers' lease is taken over and the rest collected.
    await writeFile(join(path, 'kept.jsonl'), `${JSON.stringify({ format: 'dsh-session', version: 7, id: 'kept', segments: reported })}\n`);
    const store = createSegmentStore({ dir: path });
    const lease = await acquireSegmentsLease(store, 0);
    try {
      expect(lease.tookOver).toBe(true);
      await collectSegments(store, lease);
    } finally {
      await lease.release();
    }
    const after = await checkAll(path);
    expect(after.others).toEqual([]);
    expect(after.names.sort()).toEqual([...new Set(reported.map((ref) => ref.digest))].sort());
    expect(after.mismatched).toBe(0);
    expect(figures.acknowledged).toBeGreaterThan(0);
    expect(figures.lost).toBe(0);
    expect(figures.halfWritten).toBe(0);
  });

  it('a disk that fills while sealing fails with WRITE_FAILED and leaves the logs beside it and every published segment as they were', async (context) => {
    for (let trial = 0; trial < faultTrials(3, 12); trial += 1) {
      const mounted = await mountSmallDisk(384 + trial * 64);
      if ('reason' in mounted) {
        printSkip('segments-disk-full', mounted.reason);
        context.skip();
        return;
      }
      disk = mounted;
      const path = mounted.path;
      await mkdir(leasesDir(path));
      const parent = Buffer.from(`${JSON.stringify({ format: 'dsh-session', version: 7, id: 'parent' })}\n${'{"seq":0}\n'.repeat(200)}`);
      await writeFile(join(path, 'parent.jsonl'), parent);
      const store = createSegmentStore({ dir: path });
      const lease = await acquireSegmentsLease(store);
      const published: SegmentRef[] = [];
      let failure: unknown;
      try {
        for (let index = 0; failure === undefined && index < 1_000; index += 1) {
          try {
            published.push(await publishSegment(store, lease, Buffer.from(`${String(index)} ${'y'.repeat(20_000 + trial * 3_001)}\n`)));
            figures.acknowledged += 1;
          } catch (error) {
            failure = error;
          }
        }
      } finally {
        await lease.release();
      }
      figures.trials += 1;
      expect(SessionError.is(failure) && failure.code).toBe('WRITE_FAILED');
      expect(await readFile(join(path, 'parent.jsonl'))).toEqual(parent);
      const { names, others, mismatched } = await checkAll(path);
      figures.halfWritten += mismatched + others.length;
      for (const ref of published) if (!names.includes(ref.digest)) figures.lost += 1;
      expect(others).toEqual([]);
      expect(names.length).toBe(published.length);
      await mounted.remove();
      disk = undefined;
    }
    expect(figures.lost).toBe(0);
    expect(figures.halfWritten).toBe(0);
  });
});
