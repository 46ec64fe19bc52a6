// A flushed batch on the JSONL store costs one thread-pool round trip (its fdatasync): its bytes are
// copied into the file with a synchronous positional write, unless the batch is larger than
// SYNC_WRITE_MAX_BYTES (then the pool writes it, so one huge batch does not hold the event loop).
import { open, readFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeJsonl } from 'dsh-codec';
import { openSessionStore, type SessionStore } from 'dsh-session';
import { makeTempDir, type TempDir } from '@dsh/test-utils';
import { SYNC_WRITE_MAX_BYTES } from './durable-files.js';

type Counted = 'write' | 'datasync' | 'sync' | 'read' | 'close';

/** Counts the calls of `FileHandle` methods (each one a thread-pool round trip) while `run` runs. */
async function countHandleCalls(run: () => Promise<void>): Promise<Record<Counted, number>> {
  const probe = await open(import.meta.filename, 'r');
  const proto = Object.getPrototypeOf(probe) as Record<Counted, (this: FileHandle, ...args: unknown[]) => Promise<unknown>>;
  await probe.close();
  const counts: Record<Counted, number> = { write: 0, datasync: 0, sync: 0, read: 0, close: 0 };
  const originals = { write: proto.write, datasync: proto.datasync, sync: proto.sync, read: proto.read, close: proto.close };
  for (const name of Object.keys(originals) as Counted[]) {
    const original = originals[name];
    proto[name] = function (this: FileHandle, ...args: unknown[]) {
      counts[name] += 1;
      return original.apply(this, args);
    };
  }
  try {
    await run();
  } finally {
    Object.assign(proto, originals);
  }
  return counts;
}

describe('the round trips of a JSONL append', () => {
  let dir: TempDir;
  let store: SessionStore;
  beforeEach(async () => {
    dir = await makeTempDir();
    store = await openSessionStore({ dir: dir.path });
  });
  afterEach(async () => {
    await store.close();
    await dir.remove();
  });

  it('each flushed batch is one fdatasync and no pooled write; 64 writers share one per batch', async () => {
    const session = await store.create({ id: 'rounds' });
    const single = await countHandleCalls(async () => {
      for (let turn = 1; turn <= 20; turn += 1) {
        session.append('turn/start', { turn });
        await session.flush();
        session.append('turn/end', { turn, reason: { kind: 'completed' } });
        await session.flush();
      }
    });
    expect(single).toEqual({ write: 0, datasync: 40, sync: 0, read: 0, close: 0 });

    // 64 writers each appending a message and awaiting flush: batches are shared, still one fdatasync each.
    session.append('turn/start', { turn: 21 });
    await session.flush();
    let next = 0;
    const shared = await countHandleCalls(async () => {
      const writer = async (): Promise<void> => {
        while (next < 640) {
          next += 1;
          session.append('user/message', {
            message: { id: `m${String(next)}`, role: 'user', content: [{ type: 'text', text: `message ${String(next)}` }] },
          });
          await session.flush();
        }
      };
      await Promise.all(Array.from({ length: 64 }, writer));
    });
    expect(shared.write).toBe(0);
    expect(shared.sync).toBe(0);
    // Group commit: far fewer fdatasyncs than events (each batch holds every writer that was waiting).
    expect(shared.datasync).toBeGreaterThan(0);
    expect(shared.datasync).toBeLessThanOrEqual(640 / 8);
    const events = session.events.slice();
    await session.close();
    expect(decodeJsonl(await readFile(join(dir.path, 'rounds.jsonl'), 'utf8')).events).toEqual(events);
  });

  it('a batch larger than SYNC_WRITE_MAX_BYTES is written by the pool, whole', async () => {
    const session = await store.create({ id: 'large' });
    session.append('turn/start', { turn: 1 });
    const text = 'y'.repeat(SYNC_WRITE_MAX_BYTES + 4096);
    const counts = await countHandleCalls(async () => {
      session.append('user/message', { message: { id: 'u1', role: 'user', content: [{ type: 'text', text }] } });
      await session.flush();
    });
    expect(counts.write).toBeGreaterThanOrEqual(1);
    expect(counts.datasync).toBe(1);
    const events = session.events.slice();
    await session.close();
    expect((await store.inspect('large')).events).toEqual(events);
  });

  it('the batch that seals past 1 MiB reads the lines through the writer’s handle and fsyncs directories without handles', async () => {
    const session = await store.create({ id: 'seals' });
    const message = (turn: number) => ({
      message: { id: `u${String(turn)}`, role: 'user', content: [{ type: 'text', text: 'z'.repeat(300_000) }] },
    });
    for (let turn = 1; turn <= 3; turn += 1) {
      session.append('turn/start', { turn });
      session.append('user/message', message(turn));
      session.append('turn/end', { turn, reason: { kind: 'completed' } });
      await session.flush();
    }
    // This batch crosses 1 MiB of own lines: its flush seals them into a segment and rewrites the file as a manifest.
    const counts = await countHandleCalls(async () => {
      session.append('turn/start', { turn: 4 });
      session.append('user/message', message(4));
      session.append('turn/end', { turn: 4, reason: { kind: 'completed' } });
      await session.flush();
    });
    const header = JSON.parse((await readFile(join(dir.path, 'seals.jsonl'), 'utf8')).split('\n')[0] as string) as { segments?: unknown[] };
    expect(header.segments).toHaveLength(1);
    // No pooled read of the log; one pooled write (the segment: more than SYNC_WRITE_MAX_BYTES); fsyncs
    // through handles: the batch, the segment's temp file and the manifest's temp file (directories: none).
    expect(counts).toMatchObject({ read: 0, write: 1, datasync: 1, sync: 2 });
    const events = session.events.slice();
    await session.close();
    expect((await store.inspect('seals')).events).toEqual(events);
  });
});
