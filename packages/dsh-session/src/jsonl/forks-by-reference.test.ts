// SPEC §24 on JSONL: a fork child refers to its parent's sealed segments instead of copying its lines,
// and every promise of §5–§8 holds (docs/decisions/2026-12-07-jsonl-forks-by-reference.md).
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeJsonl } from 'dsh-codec';
import { buildForkSeed } from 'dsh-session/fork';
import { openSessionStore, SessionError, type Session, type SessionStore } from 'dsh-session';
import { makeTempDir, type TempDir } from '@dsh/test-utils';
import { killAllStoreProcesses, spawnStoreProcess } from '../__fixtures__/spawn-store-process.js';
import { storedLogText } from '../__fixtures__/stored-log-text.js';

/** Appends `turns` completed turns, each with a user message of `size` bytes (past 1 MiB the writer seals them), and flushes. */
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

/** The bytes of every file under `path`, recursively. */
async function sizeOf(path: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(path, { withFileTypes: true })) {
    const inner = join(path, entry.name);
    total += entry.isDirectory() ? await sizeOf(inner) : (await stat(inner)).size;
  }
  return total;
}

const headerOf = async (dir: string, id: string): Promise<Record<string, unknown>> =>
  JSON.parse((await readFile(join(dir, `${id}.jsonl`), 'utf8')).split('\n')[0] as string) as Record<string, unknown>;

describe('JSONL forks by reference', { timeout: 120_000 }, () => {
  let dir: TempDir;
  let store: SessionStore;
  beforeEach(async () => {
    dir = await makeTempDir();
    store = await openSessionStore({ dir: dir.path });
  });
  afterEach(async () => {
    await killAllStoreProcesses();
    await store.close();
    await dir.remove();
  });

  it('a writer seals its lines past 1 MiB; a cold fork names that segment and copies only the lines after it', async () => {
    const parent = await store.create({ id: 'parent', title: 'long' });
    await grow(parent, 7);
    await grow(parent, 2, 1_000);
    const events = parent.events.slice();
    await parent.close();
    expect((await headerOf(dir.path, 'parent')).segments).toHaveLength(1);
    const before = await readFile(join(dir.path, 'parent.jsonl'));
    const cut = events.length - 2;
    const child = await store.fork('parent', { atSeq: cut, id: 'child' });
    await child.close();
    expect((await headerOf(dir.path, 'child')).segments).toHaveLength(1);
    // The child's file holds its header, the few small lines after the segment and its seed: not the 1.4 MB inherited.
    expect((await stat(join(dir.path, 'child.jsonl'))).size).toBeLessThan(10_000);
    expect(decodeJsonl(await storedLogText(dir.path, 'child')).events).toEqual(buildForkSeed(events, cut));
    expect((await store.inspect('child')).events).toEqual(buildForkSeed(events, cut));
    // A fork never writes its parent (SPEC §5.2), and a fork inside the segment copies no inherited line.
    expect((await readFile(join(dir.path, 'parent.jsonl'))).equals(before)).toBe(true);
    await (await store.fork('parent', { atSeq: 5, id: 'early' })).close();
    expect((await stat(join(dir.path, 'early.jsonl'))).size).toBeLessThan(2_000);
    expect(await readdir(join(dir.path, '.segments'))).toHaveLength(1);
    expect((await store.inspect('early')).events).toEqual(buildForkSeed(events, 5));
  });

  it('deleting, repairing or growing the parent never changes a child, and collection keeps what a manifest names', async () => {
    const parent = await store.create({ id: 'parent' });
    await grow(parent, 7);
    const cut = 5;
    parent.append('turn/start', { turn: 8 });
    await parent.flush();
    const events = parent.events.slice();
    // Left open-tailed, as a crash leaves it.
    await store.close();
    store = await openSessionStore({ dir: dir.path });
    const child = await store.fork('parent', { atSeq: cut, id: 'child' });
    await child.close();
    const expected = buildForkSeed(events, cut);
    // Repair appends the interrupted closers to the parent's own lines; growing it appends more.
    const reopened = await store.open('parent');
    await grow(reopened, 7);
    await reopened.close();
    expect((await store.inspect('child')).events).toEqual(expected);
    await store.delete('parent');
    expect((await store.inspect('child')).events).toEqual(expected);
    expect(await readdir(join(dir.path, '.segments'))).toHaveLength(1);
    await store.delete('child');
    expect(await readdir(join(dir.path, '.segments'))).toEqual([]);
  });

  it('a session imported whole past 1 MiB is sealed as it is written: its file is a manifest, and forks of it copy no inherited line', async () => {
    const source = await store.create({ id: 'source', title: 'to import' });
    await grow(source, 7);
    const events = source.events.slice();
    await source.close();
    await store.import({ header: { ...(await store.inspect('source')).header, id: 'whole' }, events });
    const header = await headerOf(dir.path, 'whole');
    expect(header.segments).toHaveLength(1);
    // The file holds its header only: the 1.4 MB of lines are the segment's.
    expect((await stat(join(dir.path, 'whole.jsonl'))).size).toBeLessThan(1_000);
    expect((await store.inspect('whole')).events).toEqual(events);
    expect(decodeJsonl(await storedLogText(dir.path, 'whole')).events).toEqual(events);
    const before = await readFile(join(dir.path, 'whole.jsonl'));
    for (const cut of [3, events.length - 1]) {
      await (await store.fork('whole', { atSeq: cut, id: `child-${String(cut)}` })).close();
      expect((await stat(join(dir.path, `child-${String(cut)}.jsonl`))).size).toBeLessThan(2_000);
      expect((await store.inspect(`child-${String(cut)}`)).events).toEqual(buildForkSeed(events, cut));
    }
    expect((await readFile(join(dir.path, 'whole.jsonl'))).equals(before)).toBe(true);
    // Appending after the sealed create: the new lines are the file's own, after the segment's.
    const resumed = await store.open('whole');
    await grow(resumed, 1, 1_000);
    const grown = resumed.events.slice();
    await resumed.close();
    expect((await store.inspect('whole')).events).toEqual(grown);
  });

  it('eight forks of one observation at once (peers) each write a manifest of a few KB, all of them far less than one copy', async () => {
    const source = await store.create({ id: 'source', title: 'baseline' });
    await grow(source, 7);
    const events = source.events.slice();
    await source.close();
    await store.import({ header: { ...(await store.inspect('source')).header, id: 'baseline' }, events });
    await store.delete('source');
    const copy = (await sizeOf(dir.path)) - (await stat(join(dir.path, 'baseline.jsonl'))).size;
    const observation = await store.observe('baseline');
    const before = await sizeOf(dir.path);
    const cut = events.length - 1;
    const children = await Promise.all(
      Array.from({ length: 8 }, (_, index) => store.fork(observation, { atSeq: cut, id: `peer-${String(index)}` })),
    );
    await Promise.all(children.map((child) => child.close()));
    // Every byte the eight forks added (manifests, summaries, leases): under 4 KB each, under 3% of one copy of the baseline's lines.
    const added = (await sizeOf(dir.path)) - before;
    expect(added).toBeLessThan(8 * 4_096);
    expect(added).toBeLessThan(copy * 0.03);
    expect(await readdir(join(dir.path, '.segments'))).toHaveLength(1);
    for (const child of children) expect((await store.inspect(child.id)).events).toEqual(buildForkSeed(events, cut));
  });

  it('an import past 8 MiB is sealed as several segments, each ending a line, and reads back whole', async () => {
    const source = await store.create({ id: 'source' });
    await grow(source, 45);
    const events = source.events.slice();
    await source.close();
    await store.import({ header: { ...(await store.inspect('source')).header, id: 'big' }, events });
    const segments = (await headerOf(dir.path, 'big')).segments as { bytes: number; lines: number }[];
    expect(segments.length).toBeGreaterThan(1);
    for (const segment of segments) expect(segment.bytes).toBeLessThanOrEqual(8 * 1024 * 1024);
    expect(segments.reduce((total, segment) => total + segment.lines, 0)).toBe(events.length);
    expect((await store.inspect('big')).events).toEqual(events);
  });

  it('a small create stays one self-contained file', async () => {
    const small = await store.create({ id: 'small', title: 'short' });
    await grow(small, 1, 1_000);
    await small.close();
    expect((await headerOf(dir.path, 'small')).segments).toBeUndefined();
    await store.import({
      header: { ...(await store.inspect('small')).header, id: 'small-copy' },
      events: (await store.inspect('small')).events,
    });
    expect((await headerOf(dir.path, 'small-copy')).segments).toBeUndefined();
  });

  it('a fork of a fork names its ancestors’ segments; the grandchild outlives both', async () => {
    const parent = await store.create({ id: 'a' });
    await grow(parent, 7);
    await parent.close();
    const child = await store.fork('a', { atSeq: 8, id: 'b' });
    await grow(child, 7);
    const childEvents = child.events.slice();
    await child.close();
    const cut = childEvents.length - 2;
    await (await store.fork('b', { atSeq: cut, id: 'c' })).close();
    expect(((await headerOf(dir.path, 'c')).segments as unknown[]).length).toBe(2);
    await store.delete('a');
    await store.delete('b');
    expect((await store.inspect('c')).events).toEqual(buildForkSeed(childEvents, cut));
  });

  it('a parent whose lines are unsealed (here: held by another process) is forked by copying them, its file untouched', async () => {
    const holder = spawnStoreProcess('hold', dir.path, 'held');
    await holder.waitFor((message) => message.event === 'ready');
    const before = await readFile(join(dir.path, 'held.jsonl'));
    const child = await store.fork('held', { atSeq: 0, id: 'copy' });
    await child.close();
    expect((await headerOf(dir.path, 'copy')).segments).toBeUndefined();
    expect(await readFile(join(dir.path, 'held.jsonl'))).toEqual(before);
    await holder.stop();
  });

  it('a manifest naming a missing or changed segment is refused as CORRUPT, never read short', async () => {
    const parent = await store.create({ id: 'parent' });
    await grow(parent, 7);
    await parent.close();
    await (await store.fork('parent', { atSeq: 4, id: 'child' })).close();
    const [segment] = await readdir(join(dir.path, '.segments'));
    const path = join(dir.path, '.segments', segment as string);
    await writeFile(path, (await readFile(path, 'utf8')).replace('"turn":1', '"turn":7'));
    const other = await openSessionStore({ dir: dir.path });
    try {
      const error = await other.inspect('child').catch((caught: unknown) => caught);
      expect(SessionError.is(error) && error.code).toBe('CORRUPT');
    } finally {
      await other.close();
    }
  });
});
