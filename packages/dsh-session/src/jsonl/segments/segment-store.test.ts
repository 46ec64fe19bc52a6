import { spawnSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '@dsh/test-utils';
import { SessionError } from '../../session-error.js';
import { acquireFileLease } from '../file-lease.js';
import { leasesDir } from '../jsonl-paths.js';
import { collectSegments } from './collect-segments.js';
import { publishSegment } from './publish-segment.js';
import { readSegment } from './read-segment.js';
import { SEGMENTS_LEASE, segmentFile, segmentsDir, segmentTempName } from './segment-paths.js';
import { createSegmentStore, type SegmentRef, type SegmentStore } from './segment-store.js';
import { acquireSegmentsLease, shareSegmentsLease, type SegmentsLease } from './segments-lease.js';

const lines = (...texts: string[]): Buffer => Buffer.from(texts.map((text) => `${text}\n`).join(''), 'utf8');
const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');
const header = (refs: readonly SegmentRef[]): string =>
  `${JSON.stringify({ format: 'dsh-session', version: 7, id: 'x', segments: refs })}\n`;

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return SessionError.is(error) ? error.code : `not a SessionError: ${String(error)}`;
  }
}

describe('segment store', () => {
  let dir: TempDir;
  let store: SegmentStore;
  let lease: SegmentsLease;
  beforeEach(async () => {
    dir = await makeTempDir();
    store = createSegmentStore({ dir: dir.path });
    await mkdir(leasesDir(dir.path));
    lease = await acquireSegmentsLease(store);
  });
  afterEach(async () => {
    await lease.release();
    await dir.remove();
  });

  it('publishes complete lines under their sha256 and counts them', async () => {
    const bytes = lines('{"seq":0}', '{"seq":1}');
    const ref = await publishSegment(store, lease, bytes);
    expect(ref).toEqual({ digest: sha256(bytes), bytes: bytes.length, lines: 2 });
    expect(await readFile(segmentFile(dir.path, ref.digest))).toEqual(bytes);
    expect(await readdir(segmentsDir(dir.path))).toEqual([ref.digest]);
  });

  it('reuses a segment already published with the same bytes', async () => {
    const bytes = lines('{"seq":0}');
    const first = await publishSegment(store, lease, bytes);
    const again = await publishSegment(createSegmentStore({ dir: dir.path }), lease, bytes);
    expect(again).toEqual(first);
    expect(await readdir(segmentsDir(dir.path))).toEqual([first.digest]);
  });

  it('replaces a published segment whose bytes were damaged with the bytes its name promises', async () => {
    const bytes = lines('{"seq":0}', '{"seq":1}');
    const { digest } = await publishSegment(store, lease, bytes);
    await writeFile(segmentFile(dir.path, digest), lines('{"seq":0}', '{"seq":9}'));
    await publishSegment(createSegmentStore({ dir: dir.path }), lease, bytes);
    expect(await readFile(segmentFile(dir.path, digest))).toEqual(bytes);
  });

  it('refuses bytes that do not end a line, writing nothing', async () => {
    expect(await codeOf(publishSegment(store, lease, Buffer.from('{"seq":0}')))).toBe('INVALID_EVENT');
    expect(await codeOf(publishSegment(store, lease, Buffer.alloc(0)))).toBe('INVALID_EVENT');
    await expect(readdir(segmentsDir(dir.path))).rejects.toThrow(/ENOENT/);
  });

  it('publishes nothing once the folder lease was taken over', async () => {
    await unlink(join(leasesDir(dir.path), SEGMENTS_LEASE, String(lease.generation)));
    expect(await codeOf(publishSegment(store, lease, lines('{"seq":0}')))).toBe('SESSION_BUSY');
    await expect(readdir(segmentsDir(dir.path))).rejects.toThrow(/ENOENT/);
  });

  it('reads the first bytes a manifest names', async () => {
    const ref = await publishSegment(store, lease, lines('{"seq":0}', '{"seq":1}'));
    const first = { ...ref, bytes: '{"seq":0}\n'.length, lines: 1 };
    expect((await readSegment(createSegmentStore({ dir: dir.path }), first)).toString()).toBe('{"seq":0}\n');
    expect((await readSegment(store, ref)).toString()).toBe('{"seq":0}\n{"seq":1}\n');
  });

  it('refuses a segment whose bytes do not match its digest as CORRUPT', async () => {
    const ref = await publishSegment(store, lease, lines('{"seq":0}', '{"seq":1}'));
    await writeFile(segmentFile(dir.path, ref.digest), lines('{"seq":0}', '{"seq":2}'));
    const error = await readSegment(createSegmentStore({ dir: dir.path }), ref).catch((caught: unknown) => caught);
    expect(SessionError.is(error) && error.code).toBe('CORRUPT');
    expect((error as Error).message).toMatch(/do not match its digest/);
  });

  it('checks again a verified segment whose file was replaced', async () => {
    const ref = await publishSegment(store, lease, lines('{"seq":0}', '{"seq":1}'));
    await readSegment(store, ref);
    const forged = join(dir.path, 'forged');
    await writeFile(forged, lines('{"seq":0}', '{"seq":2}'));
    await rename(forged, segmentFile(dir.path, ref.digest));
    expect(await codeOf(readSegment(store, ref))).toBe('CORRUPT');
  });

  it('refuses a missing segment, a count past its end or one that does not end a line as CORRUPT', async () => {
    const ref = await publishSegment(store, lease, lines('{"seq":0}', '{"seq":1}'));
    expect(await codeOf(readSegment(store, { ...ref, bytes: ref.bytes + 1 }))).toBe('CORRUPT');
    expect(await codeOf(readSegment(store, { ...ref, bytes: 4 }))).toBe('CORRUPT');
    expect(await codeOf(readSegment(store, { ...ref, digest: sha256(Buffer.from('other')) }))).toBe('CORRUPT');
    expect(await codeOf(readSegment(store, { ...ref, digest: '../escape' }))).toBe('CORRUPT');
  });

  it('collects only segments no log, backup or temp file names, and leftover temp files', async () => {
    const named = await publishSegment(store, lease, lines('{"seq":0}'));
    const backedUp = await publishSegment(store, lease, lines('{"seq":1}'));
    const inTemp = await publishSegment(store, lease, lines('{"seq":2}'));
    const unnamed = await publishSegment(store, lease, lines('{"seq":3}'));
    await writeFile(join(dir.path, 'a.jsonl'), `${header([named])}{"seq":1}\n`);
    await writeFile(join(dir.path, 'b.jsonl'), header([]));
    await writeFile(join(dir.path, 'a.jsonl.bak-20261207T084000000Z'), header([backedUp]));
    // A live rewrite of `a` (it holds a's lease) names what its temp file names.
    const rewriting = await acquireFileLease(leasesDir(dir.path), 'a');
    await writeFile(join(dir.path, '.a.123.0f0e-1.tmp'), header([inTemp]));
    await writeFile(join(dir.path, 'notes.txt'), header([]));
    const leftover = segmentTempName(unnamed.digest);
    await writeFile(join(segmentsDir(dir.path), leftover), 'half');
    const collected = await collectSegments(store, lease);
    await rewriting.release();
    expect(collected).toEqual({ removed: [unnamed.digest], kept: 3, temps: 1 });
    expect((await readdir(segmentsDir(dir.path))).sort()).toEqual([named.digest, backedUp.digest, inTemp.digest].sort());
  });

  it("removes a dead writer's temp file before counting, so a segment only it named is collected; a live writer's (its lease held) is kept", async () => {
    // A writer killed between its temp manifest and the rename: its lease is free and its process gone.
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid;
    const dead = await publishSegment(store, lease, lines('{"seq":0}'));
    const deadTemp = `.dead.${String(deadPid)}.${randomUUID()}.tmp`;
    await writeFile(join(dir.path, deadTemp), header([dead]));
    // A live writer holds its session's lease while its temp file exists.
    const leased = await publishSegment(store, lease, lines('{"seq":1}'));
    const writerLease = await acquireFileLease(leasesDir(dir.path), 'leased');
    const leasedTemp = `.leased.${String(deadPid)}.${randomUUID()}.tmp`;
    await writeFile(join(dir.path, leasedTemp), header([leased]));
    try {
      const collected = await collectSegments(store, lease);
      expect(collected.removed).toEqual([dead.digest]);
      expect((await readdir(dir.path)).filter((name) => name.endsWith('.tmp')).sort()).toEqual([leasedTemp]);
      expect((await readdir(segmentsDir(dir.path))).sort()).toEqual([leased.digest]);
    } finally {
      await writerLease.release();
    }
  });

  it('collects nothing when a log header cannot be read', async () => {
    const unnamed = await publishSegment(store, lease, lines('{"seq":0}'));
    await writeFile(join(dir.path, 'broken.jsonl'), '{"format":"dsh-ses');
    expect(await codeOf(collectSegments(store, lease))).toBe('CORRUPT');
    await writeFile(join(dir.path, 'broken.jsonl'), `${JSON.stringify({ segments: [{ digest: 'nope' }] })}\n`);
    expect(await codeOf(collectSegments(store, lease))).toBe('CORRUPT');
    expect(await readdir(segmentsDir(dir.path))).toEqual([unnamed.digest]);
  });

  it('waits for the folder lease while a live holder has it, and names the holder after the wait', async () => {
    expect(await codeOf(acquireSegmentsLease(store, 0))).toBe('SESSION_BUSY');
    const error = await acquireSegmentsLease(store, 0).catch((caught: unknown) => caught);
    expect((error as SessionError).holder?.pid).toBe(process.pid);
    const waiting = acquireSegmentsLease(store);
    await lease.release();
    lease = await waiting;
    expect(await lease.stillHeld()).toBe(true);
  });

  it("publishers of one process share the folder's lease without waiting for each other; the collector waits for the last of them", async () => {
    await lease.release();
    // Eight concurrent publishers (eight peers forked at once): none waits, one hold between them.
    const publishers = await Promise.all(Array.from({ length: 8 }, () => shareSegmentsLease(store, 0)));
    const refs = await Promise.all(publishers.map((held, index) => publishSegment(store, held, lines(`{"seq":${String(index)}}`))));
    expect(new Set(refs.map((ref) => ref.digest)).size).toBe(8);
    // Only the collector is excluded, while any publisher still holds the share.
    expect(await codeOf(acquireSegmentsLease(store, 0))).toBe('SESSION_BUSY');
    for (const held of publishers.slice(1)) await held.release();
    await publishers[1]?.release(); // a second release of one share changes nothing
    expect(await codeOf(acquireSegmentsLease(store, 0))).toBe('SESSION_BUSY');
    await publishers[0]?.release();
    lease = await acquireSegmentsLease(store, 0);
    // While the collector holds it, a publisher waits for it (and is refused when it may not wait).
    expect(await codeOf(shareSegmentsLease(store, 0))).toBe('SESSION_BUSY');
    const waiting = shareSegmentsLease(store);
    await lease.release();
    lease = await waiting;
    expect(await lease.stillHeld()).toBe(true);
  });
});
