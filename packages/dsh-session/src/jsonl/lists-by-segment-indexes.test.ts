// SPEC §24 on JSONL: `list()` reads summaries, never whole logs — a summary that is missing (lost, or
// never written for a fork child whose parent's summary could not settle its prefix) is rebuilt once
// from a manifest's own lines and its segments' indexes. Each test damages every segment but the last
// one the session names and the lines of its first config and title (a read of any other would be CORRUPT) and compares the listing with one taken
// while the history was intact.
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SealedSegment } from 'dsh-codec';
import { openSessionStore, type Session, type SessionStore, type SessionSummary } from 'dsh-session';
import { makeTempDir, type TempDir } from '@dsh/test-utils';

/** Appends `turns` turns of a `size`-byte user message each and flushes (past 1 MiB the writer seals its lines). */
async function grow(session: Session, turns: number, size = 200_000): Promise<void> {
  const first = session.events.filter((event) => event.type === 'turn/start').length + 1;
  for (let turn = first; turn < first + turns; turn += 1) {
    session.append('turn/start', { turn });
    session.append('user/message', {
      message: { id: `u${String(session.nextSeq)}`, role: 'user', content: [{ type: 'text', text: 'x'.repeat(size) }] },
    });
    session.append('turn/end', { turn, reason: { kind: 'completed' } });
  }
  await session.flush();
}

const segmentsOf = async (dir: string, id: string): Promise<SealedSegment[]> =>
  (JSON.parse((await readFile(join(dir, `${id}.jsonl`), 'utf8')).split('\n')[0] as string) as { segments?: SealedSegment[] }).segments ??
  [];

/**
 * Overwrites every segment but `keep` with bytes of the same length that are not its own — all but the
 * lines of the session's first config and title at the start of `first` (what a summary needs of it).
 */
async function damageAllBut(dir: string, keep: string, first: string): Promise<void> {
  for (const name of await readdir(join(dir, '.segments'))) {
    if (name === keep || name.startsWith('.')) continue;
    const path = join(dir, '.segments', name);
    const bytes = await readFile(path);
    const kept = name === first ? bytes.indexOf('\n', bytes.indexOf('"type":"session/title"')) + 1 : 0;
    await writeFile(path, Buffer.concat([bytes.subarray(0, kept), Buffer.alloc(bytes.length - kept, 0x7b)]));
  }
}

/** What a listing must say of session `id`, from its events read whole while its history is intact. */
async function expectedOf(dir: string, id: string): Promise<Record<string, unknown>> {
  const reader = await openSessionStore({ dir });
  try {
    const { events } = await reader.observe(id);
    const title = events.findLast((event) => event.type === 'session/title')?.data as { title: string } | undefined;
    const config = events.findLast((event) => event.type === 'session/config' && typeof (event.data as { cwd?: unknown }).cwd === 'string');
    return {
      lastSeq: events.length - 1,
      updatedAt: events.at(-1)?.time,
      title: title?.title,
      cwd: (config?.data as { cwd: string }).cwd,
      needsRepair: false,
    };
  } finally {
    await reader.close();
  }
}

/** The listing of `dir` by a store of its own, by id, without the busy flag (nothing is held). */
async function listed(dir: string): Promise<Map<string, SessionSummary>> {
  const reader = await openSessionStore({ dir });
  try {
    return new Map((await reader.list()).map((summary) => [summary.id, summary]));
  } finally {
    await reader.close();
  }
}

describe('list() rebuilds a manifest’s missing summary from its segments’ indexes', { timeout: 120_000 }, () => {
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

  /** A session titled and given a cwd in its first events, then sealed into four segments and a few lines of its own. */
  async function sealedSession(id: string, ownTurns: number): Promise<SealedSegment[]> {
    const session = await store.create({ id, config: { cwd: '/w' } });
    session.append('session/title', { title: 'long history' });
    for (let round = 0; round < 4; round += 1) await grow(session, 6);
    if (ownTurns > 0) await grow(session, ownTurns, 1_000);
    await session.close();
    const segments = await segmentsOf(dir.path, id);
    expect(segments).toHaveLength(4);
    return segments;
  }

  it('a lost summary file: the title, cwd, last seq and turns come back with only the last segment readable', async () => {
    const segments = await sealedSession('long', 2);
    const before = (await listed(dir.path)).get('long');
    expect(before).toMatchObject(await expectedOf(dir.path, 'long'));
    expect(before).toMatchObject({ title: 'long history', cwd: '/w', needsRepair: false });
    expect(before?.problem).toBeUndefined();
    await rm(join(dir.path, '.summaries', 'long'));
    await damageAllBut(dir.path, (segments.at(-1) as SealedSegment).digest, (segments[0] as SealedSegment).digest);
    const after = (await listed(dir.path)).get('long');
    expect(after).toEqual(before);
    // Rebuilt once, then kept: the next listing reads the summary file.
    expect(JSON.parse(await readFile(join(dir.path, '.summaries', 'long'), 'utf8'))).toMatchObject({ v: 1, title: { seq: 2 } });
    expect((await listed(dir.path)).get('long')).toEqual(before);
  });

  it('a session whose file holds no line of its own reads its last event from its last segment alone', async () => {
    const segments = await sealedSession('sealed', 0);
    const before = (await listed(dir.path)).get('sealed');
    expect(before).toMatchObject(await expectedOf(dir.path, 'sealed'));
    expect(before).toMatchObject({ title: 'long history', cwd: '/w', lastSeq: 2 + 4 * 6 * 3 });
    await rm(join(dir.path, '.summaries', 'sealed'));
    await damageAllBut(dir.path, (segments.at(-1) as SealedSegment).digest, (segments[0] as SealedSegment).digest);
    expect((await listed(dir.path)).get('sealed')).toEqual(before);
  });

  it('a fork child cut in a later segment, its parent titled and configured again after the cut, lists without its prefix', async () => {
    const segments = await sealedSession('parent', 0);
    const cut = (segments[0] as SealedSegment).lines + (segments[1] as SealedSegment).lines + 10;
    const parent = await store.open('parent');
    parent.append('session/title', { title: 'renamed later' });
    parent.append('session/config', { cwd: '/elsewhere' });
    await parent.close();
    const child = await store.fork('parent', { atSeq: cut, id: 'child' });
    child.append('session/title', { title: 'the child' });
    await child.close();
    const before = await listed(dir.path);
    expect(before.get('child')).toMatchObject(await expectedOf(dir.path, 'child'));
    expect(before.get('parent')).toMatchObject(await expectedOf(dir.path, 'parent'));
    expect(before.get('child')).toMatchObject({ title: 'the child', cwd: '/w', parentSession: 'parent' });
    expect(before.get('parent')).toMatchObject({ title: 'renamed later', cwd: '/elsewhere' });
    await rm(join(dir.path, '.summaries', 'child'));
    const childSegments = await segmentsOf(dir.path, 'child');
    await damageAllBut(dir.path, (childSegments.at(-1) as SealedSegment).digest, (segments[0] as SealedSegment).digest);
    const after = await listed(dir.path);
    expect(after.get('child')).toEqual(before.get('child'));
    expect(after.get('parent')).toEqual(before.get('parent'));
  });
});
