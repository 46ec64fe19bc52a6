/** SPEC §6 — crash recovery: open repairs with the interrupted closer, inspect never writes, reopen grows nothing. */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeJsonl, type SessionEvent } from 'dsh-codec';
import { createMemoryStore, openSessionStore, type SessionStore } from 'dsh-session';
import { makeTempDir, type TempDir } from '@dsh/test-utils';
import { appendAll, completedTurn, ev, jsonl, toEvents, v4Header, type Spec } from './support.js';

const CRASHED: Spec[] = [
  ...completedTurn(1, ['a']),
  ev.turnStart(2),
  ev.user('u2', 'go'),
  ev.stepStart(2, 1),
  ev.assistant(2, 1, '', ['p', 'q']),
  ev.call(2, 1, 'p', 'side-effect'),
];

/** Files of the store directory with their bytes. */
async function snapshot(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const name of (await readdir(dir)).sort()) {
    const path = join(dir, name);
    if ((await stat(path)).isFile()) files.set(name, (await readFile(path)).toString('base64'));
  }
  return files;
}

describe('§6 crash recovery on the JSONL store', () => {
  let dir: TempDir;
  let store: SessionStore;
  let crashedEvents: readonly SessionEvent[];
  beforeEach(async () => {
    dir = await makeTempDir();
    // The crash is a file whose last turn is open, written by a process that is gone.
    crashedEvents = toEvents([ev.title('crashed'), ...CRASHED]);
    await writeFile(join(dir.path, 'c.jsonl'), jsonl(v4Header('c'), crashedEvents));
    store = await openSessionStore({ dir: dir.path });
  });
  afterEach(async () => {
    await store.close();
    await dir.remove();
  });

  it('§6 inspect reports the stored events and needsRepair, and never writes (file bytes identical)', async () => {
    const before = await snapshot(dir.path);
    const inspection = await store.inspect('c');
    expect(inspection.events).toEqual(crashedEvents);
    expect(inspection.needsRepair).toBe(true);
    expect(inspection.header).toMatchObject({ id: 'c', version: 4 });
    await store.inspect('c');
    await store.list();
    expect(await snapshot(dir.path)).toEqual(before);
  });

  it('§6 open persists the interrupted closers, then the seed ends with a plain session/end-seed', async () => {
    const session = await store.open('c');
    const n = crashedEvents.length;
    expect(session.events.slice(0, n)).toEqual(crashedEvents);
    const added = session.events.slice(n);
    expect(added.map((event) => event.type)).toEqual(['tool/result', 'tool/result', 'step/end', 'turn/end', 'session/end-seed']);
    expect((added[0]!.data as { message: { id: string } }).message.id).toBe(`interrupted-tool-result-p-${n}`);
    expect((added[1]!.data as { message: { id: string } }).message.id).toBe(`interrupted-tool-result-q-${n + 1}`);
    expect(added[3]!.data).toEqual({ turn: 2, reason: { kind: 'interrupted' } });
    expect(added[4]!.data).toEqual({});
    for (const closer of added.slice(0, 4)) expect(closer.time).toBe(crashedEvents.at(-1)!.time);
    // The closers are durable before open returns.
    const onDisk = decodeJsonl(await readFile(join(dir.path, 'c.jsonl'), 'utf8'));
    expect(onDisk.events.slice(0, n + 4)).toEqual(session.events.slice(0, n + 4));
    await session.close();
    const after = await store.inspect('c');
    expect(after.needsRepair).toBe(false);
    expect(after.events).toEqual(session.events);
  });

  it('§6 reopening an untouched session grows nothing', async () => {
    const first = await store.open('c');
    const length = first.events.length;
    await first.close();
    const bytes = await readFile(join(dir.path, 'c.jsonl'));
    for (let round = 0; round < 2; round += 1) {
      const again = await store.open('c');
      expect(again.events.length).toBe(length);
      expect(again.firstLifecycleSeq).toBe(length);
      await again.close();
    }
    expect((await readFile(join(dir.path, 'c.jsonl'))).equals(bytes)).toBe(true);
  });

  it('§6 a clean log that does not end with session/end-seed gains exactly one plain marker on open, then nothing more', async () => {
    const clean = toEvents(completedTurn(1));
    await writeFile(join(dir.path, 'clean.jsonl'), jsonl(v4Header('clean'), clean));
    expect((await store.inspect('clean')).needsRepair).toBe(false);
    const opened = await store.open('clean');
    expect(opened.events.slice(clean.length).map((event) => [event.type, event.data])).toEqual([['session/end-seed', {}]]);
    await opened.close();
    const reopened = await store.open('clean');
    expect(reopened.events.length).toBe(clean.length + 1);
    await reopened.close();
  });

  it('§6 a log that already ends with session/end-seed is opened without any new event', async () => {
    const seeded = toEvents([...completedTurn(1), { type: 'session/end-seed', data: {} }]);
    await writeFile(join(dir.path, 'seeded.jsonl'), jsonl(v4Header('seeded'), seeded));
    const bytes = await readFile(join(dir.path, 'seeded.jsonl'));
    const opened = await store.open('seeded');
    expect(opened.events).toEqual(seeded);
    await opened.close();
    expect((await readFile(join(dir.path, 'seeded.jsonl'))).equals(bytes)).toBe(true);
  });

  it('§6 repair closes only the open turn: earlier closed steps and turns are never rewritten', async () => {
    const historical = toEvents([
      ev.turnStart(1),
      ev.stepStart(1, 1),
      ev.assistant(1, 1, '', ['lost']),
      ev.call(1, 1, 'lost', 'side-effect'),
      ev.stepEnd(1, 1),
      ev.turnEnd(1, { kind: 'error', error: { message: 'x', code: 'E' } }),
      ev.turnStart(2),
      ev.stepStart(2, 1),
      ev.assistant(2, 1, '', ['z']),
      ev.stepEnd(2, 1),
    ]);
    await writeFile(join(dir.path, 'h.jsonl'), jsonl(v4Header('h'), historical));
    const opened = await store.open('h');
    expect(opened.events.slice(historical.length).map((event) => event.type)).toEqual(['turn/end', 'session/end-seed']);
    await opened.close();
  });
});

describe('§6 crash recovery on the memory store', () => {
  it('§6 a session closed inside an open turn is repaired by the next open; inspect before it reports needsRepair', async () => {
    const store = createMemoryStore();
    try {
      const session = await store.create({ id: 'm' });
      appendAll(session, CRASHED);
      const stored = [...session.events];
      await session.close();
      const inspection = await store.inspect('m');
      expect(inspection.needsRepair).toBe(true);
      expect(inspection.events).toEqual(stored);
      expect((await store.inspect('m')).events.length).toBe(stored.length);
      const reopened = await store.open('m');
      expect(reopened.events.slice(stored.length).map((event) => event.type)).toEqual(['tool/result', 'tool/result', 'step/end', 'turn/end', 'session/end-seed']);
      expect(reopened.events.at(-2)?.data).toEqual({ turn: 2, reason: { kind: 'interrupted' } });
    } finally {
      await store.close();
    }
  });
});
