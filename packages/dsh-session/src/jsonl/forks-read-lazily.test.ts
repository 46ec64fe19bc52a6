// SPEC §24 on JSONL: a fork does not read its parent's history. It names the sealed segments before
// its cut without reading them and reads only the segment holding the cut
// (docs/decisions/2026-12-07-jsonl-forks-by-reference.md). Each test damages every other segment
// while the fork runs (a read of one would be CORRUPT), then restores them and reads the child back.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SealedSegment, SessionEvent } from 'dsh-codec';
import { buildForkSeed } from 'dsh-session/fork';
import { openSessionStore, SessionError, type Session, type SessionStore } from 'dsh-session';
import { makeTempDir, type TempDir } from '@dsh/test-utils';

/** Appends `turns` completed turns of `size`-byte user messages in one batch (past 1 MiB the writer seals its lines). */
async function grow(session: Session, turns: number, size = 200_000): Promise<void> {
  const first = session.events.filter((event) => event.type === 'turn/start').length + 1;
  for (let turn = first; turn < first + turns; turn += 1) {
    session.append('turn/start', { turn });
    session.append('user/message', {
      message: { id: `u${String(turn)}`, role: 'user', content: [{ type: 'text', text: 'x'.repeat(size) }] },
    });
    session.append('turn/end', { turn, reason: { kind: 'completed' } });
  }
  await session.flush();
}

const segmentsOf = async (dir: string, id: string): Promise<SealedSegment[]> =>
  (JSON.parse((await readFile(join(dir, `${id}.jsonl`), 'utf8')).split('\n')[0] as string) as { segments?: SealedSegment[] }).segments ??
  [];

/** Overwrites every segment but `keep` with bytes of the same length that are not its own; returns how to put them back. */
async function damageAllBut(dir: string, keep: string): Promise<() => Promise<void>> {
  const saved = new Map<string, Buffer>();
  for (const name of await readdir(join(dir, '.segments'))) {
    if (name === keep || name.startsWith('.')) continue;
    const path = join(dir, '.segments', name);
    const bytes = await readFile(path);
    saved.set(path, bytes);
    await writeFile(path, Buffer.alloc(bytes.length, 0x7b));
  }
  return async () => {
    for (const [path, bytes] of saved) await writeFile(path, bytes);
  };
}

describe('a fork reads only the segment holding its cut', { timeout: 120_000 }, () => {
  let dir: TempDir;
  let store: SessionStore;
  let events: SessionEvent[];
  beforeEach(async () => {
    dir = await makeTempDir();
    store = await openSessionStore({ dir: dir.path });
  });
  afterEach(async () => {
    await store.close();
    await dir.remove();
  });

  /** A parent sealed into three segments (six 200 kB turns each), then two small turns of its own. */
  async function sealedParent(): Promise<Session> {
    const parent = await store.create({ id: 'parent', title: 'three segments' });
    for (let round = 0; round < 3; round += 1) await grow(parent, 6);
    await grow(parent, 2, 1_000);
    events = parent.events.slice();
    expect(await segmentsOf(dir.path, 'parent')).toHaveLength(3);
    return parent;
  }

  it('a stored parent: the fork names the first segment unread, cuts the second, and the third is never read', async () => {
    await (await sealedParent()).close();
    const [first, second] = await segmentsOf(dir.path, 'parent');
    // A cut inside the second segment: the first user message of its turns.
    const cut = (first as SealedSegment).lines + 1;
    const restore = await damageAllBut(dir.path, (second as SealedSegment).digest);
    const forker = await openSessionStore({ dir: dir.path });
    try {
      await (await forker.fork('parent', { atSeq: cut, id: 'child' })).close();
    } finally {
      await forker.close();
    }
    // While the others were damaged, reading the whole parent is refused: the fork did not read it.
    const reader = await openSessionStore({ dir: dir.path });
    const refused = await reader.inspect('parent').catch((error: unknown) => error);
    await reader.close();
    expect(SessionError.is(refused) && refused.code).toBe('CORRUPT');
    await restore();
    const named = await segmentsOf(dir.path, 'child');
    expect(named.map((segment) => segment.digest)).toEqual([first, second].map((segment) => segment?.digest));
    expect(named[0]).toEqual(first);
    expect(named[1]?.lines).toBe(cut + 1 - (first as SealedSegment).lines);
    expect((await store.inspect('child')).events).toEqual(buildForkSeed(events, cut));
  });

  it('a parent held open in this store: only the segment holding the cut is read', async () => {
    const parent = await sealedParent();
    const [first, second, third] = await segmentsOf(dir.path, 'parent');
    const cut = (first as SealedSegment).lines + (second as SealedSegment).lines + 2;
    const restore = await damageAllBut(dir.path, (third as SealedSegment).digest);
    await (await store.fork(parent.id, { atSeq: cut, id: 'live-child' })).close();
    await restore();
    await parent.close();
    expect((await segmentsOf(dir.path, 'live-child')).map((segment) => segment.digest)).toEqual(
      [first, second, third].map((segment) => segment?.digest),
    );
    expect((await store.inspect('live-child')).events).toEqual(buildForkSeed(events, cut));
  });

  it('a cut in the parent’s own lines reads no segment at all, and the child copies only those lines', async () => {
    await (await sealedParent()).close();
    const cut = events.length - 2;
    const restore = await damageAllBut(dir.path, 'none');
    const forker = await openSessionStore({ dir: dir.path });
    try {
      await (await forker.fork('parent', { atSeq: cut, id: 'tail-child' })).close();
    } finally {
      await forker.close();
    }
    await restore();
    expect(await segmentsOf(dir.path, 'tail-child')).toEqual(await segmentsOf(dir.path, 'parent'));
    expect((await store.inspect('tail-child')).events).toEqual(buildForkSeed(events, cut));
  });
});
