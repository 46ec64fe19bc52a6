// SPEC §24 on JSONL: resuming a long session holds what its reader needs, not the whole log. `open` of a
// stamped manifest checks every segment against its digest without keeping it, and then reads a segment
// only when one of its events is read — one segment at a time, so a walk through the history in windows
// (what the agent's model history does) never holds every segment at once. Reads are counted by damage:
// a segment changed on disk is hashed again when it is read, and refused as CORRUPT.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SealedSegment, SessionEvent } from 'dsh-codec';
import { openSessionStore, SessionError, type Session, type SessionStore } from 'dsh-session';
import { makeTempDir, type TempDir } from '@dsh/test-utils';

/** Appends `turns` completed turns of `size`-byte user messages (past 1 MiB of own lines the writer seals them). */
async function grow(session: Session, turns: number, size = 200_000): Promise<void> {
  const first = session.events.filter((event) => event.type === 'turn/start').length + 1;
  for (let turn = first; turn < first + turns; turn += 1) {
    session.append('turn/start', { turn });
    session.append('user/message', {
      message: { id: `u${String(turn)}`, role: 'user', content: [{ type: 'text', text: `${String(turn)}:${'x'.repeat(size)}` }] },
    });
    session.append('turn/end', { turn, reason: { kind: 'completed' } });
  }
  await session.flush();
}

const segmentsOf = async (dir: string, id: string): Promise<SealedSegment[]> =>
  (JSON.parse((await readFile(join(dir, `${id}.jsonl`), 'utf8')).split('\n')[0] as string) as { segments?: SealedSegment[] }).segments ??
  [];

/** Overwrites segment `digest` with bytes of the same length that are not its own; returns how to put it back. */
async function damage(dir: string, digest: string): Promise<() => Promise<void>> {
  const path = join(dir, '.segments', digest);
  const bytes = await readFile(path);
  await writeFile(path, Buffer.alloc(bytes.length, 0x7b));
  return () => writeFile(path, bytes);
}

const errorOf = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('open of a long stamped session reads one segment at a time', { timeout: 120_000 }, () => {
  let dir: TempDir;
  let store: SessionStore;
  let written: SessionEvent[];
  let segments: SealedSegment[];
  beforeEach(async () => {
    dir = await makeTempDir();
    store = await openSessionStore({ dir: dir.path });
    // Three sealed segments (six 200 kB turns each), then two small turns of the session's own lines.
    const session = await store.create({ id: 'long', title: 'three segments' });
    for (let round = 0; round < 3; round += 1) await grow(session, 6);
    await grow(session, 2, 1_000);
    written = session.events.slice();
    await session.close();
    segments = await segmentsOf(dir.path, 'long');
    expect(segments).toHaveLength(3);
  });
  afterEach(async () => {
    await store.close();
    await dir.remove();
  });

  it('a walk in windows holds one segment: an event of a segment walked past is read from disk again', async () => {
    const session = await store.open('long');
    try {
      const read: SessionEvent[] = [];
      for (let from = 0; from < written.length; from += 5)
        for (const event of session.eventsFrom(from, Math.min(written.length, from + 5))) read.push(event);
      expect(read).toEqual(written);
      // The walk moved on past the first segment: its bytes were let go, so reading its events again
      // reads the file again — and a changed file is refused, never served from a stale copy.
      const [first] = segments as [SealedSegment];
      const restore = await damage(dir.path, first.digest);
      const error = errorOf(() => session.eventsFrom(1, 2));
      await restore();
      expect(SessionError.is(error) && error.code).toBe('CORRUPT');
      expect((error as Error).message).toContain(first.digest);
      // Put back, the same events (checked against the digest again).
      expect(session.eventsFrom(0, first.lines)).toEqual(written.slice(0, first.lines));
      // The session's own lines and appends never need a segment.
      expect(session.eventsFrom(written.length - 3, written.length)).toEqual(written.slice(-3));
    } finally {
      await session.close();
    }
  });

  it('open reads no segment to hand out the session: damaged after open, only the reads of their events fail', async () => {
    const session = await store.open('long');
    const restores: (() => Promise<void>)[] = [];
    try {
      for (const segment of segments) restores.push(await damage(dir.path, segment.digest));
      // The latest turn and a new turn: neither reads a segment.
      expect(session.latest('turn/end')?.seq).toBe(written.length - 1);
      const turn = 21;
      session.append('turn/start', { turn });
      session.append('user/message', { message: { id: 'u21', role: 'user', content: [{ type: 'text', text: 'one more' }] } });
      session.append('turn/end', { turn, reason: { kind: 'completed' } });
      await session.flush();
      // After the marker `open` appends, the new turn's three events.
      expect(session.nextSeq).toBe(written.length + 4);
      const error = errorOf(() => session.eventsFrom(0, 1));
      expect(SessionError.is(error) && error.code).toBe('CORRUPT');
    } finally {
      for (const restore of restores) await restore();
      await session.close();
    }
  });

  it('open is as strict as before: a segment whose bytes changed is refused as CORRUPT naming it, before the session is handed out', async () => {
    const [, second] = segments as [SealedSegment, SealedSegment];
    const restore = await damage(dir.path, second.digest);
    const other = await openSessionStore({ dir: dir.path });
    try {
      const error = await other.open('long').catch((caught: unknown) => caught);
      expect(SessionError.is(error) && error.code).toBe('CORRUPT');
      expect((error as Error).message).toContain(second.digest);
    } finally {
      await other.close();
      await restore();
    }
    // Restored, it opens with every event.
    const session = await store.open('long');
    expect(session.events.slice(0, written.length)).toEqual(written);
    await session.close();
  });
});
