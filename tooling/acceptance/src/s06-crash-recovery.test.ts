/** SPEC §6 — crash recovery: open repairs with the interrupted closer, inspect never writes, reopen grows nothing. */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeJsonl, type SessionEvent } from 'dsh-codec';
import { createMemoryStore, openSessionStore, type SessionStore } from 'dsh-session';
import { completedTurnRows, type LogJsonRow, logRow, makeTempDir, type TempDir } from '@dsh/test-utils';
import { appendAll, jsonl, toEvents, v4Header } from './support.js';

const CRASHED: LogJsonRow[] = [
  ...completedTurnRows(1, ['a']),
  logRow.turnStart(2),
  logRow.user('u2', 'go'),
  logRow.stepStart(2, 1),
  logRow.assistant(2, 1, '', ['p', 'q']),
  logRow.call(2, 1, 'p', 'side-effect'),
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
    crashedEvents = toEvents([logRow.title('crashed'), ...CRASHED]);
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
    expect(inspection.header).toMatchObject({ id: 'c', version: 7 });
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
    const clean = toEvents(completedTurnRows(1));
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
    const seeded = toEvents([...completedTurnRows(1), ['session/end-seed', {}]]);
    await writeFile(join(dir.path, 'seeded.jsonl'), jsonl(v4Header('seeded'), seeded));
    const bytes = await readFile(join(dir.path, 'seeded.jsonl'));
    const opened = await store.open('seeded');
    expect(opened.events).toEqual(seeded);
    await opened.close();
    expect((await readFile(join(dir.path, 'seeded.jsonl'))).equals(bytes)).toBe(true);
  });

  it('§6 repair closes only the open turn: earlier closed steps and turns are never rewritten', async () => {
    const historical = toEvents([
      logRow.turnStart(1),
      logRow.stepStart(1, 1),
      logRow.assistant(1, 1, '', ['lost']),
      logRow.call(1, 1, 'lost', 'side-effect'),
      logRow.stepEnd(1, 1),
      logRow.turnEnd(1, { kind: 'error', error: { message: 'x', code: 'E' } }),
      logRow.turnStart(2),
      logRow.stepStart(2, 1),
      logRow.assistant(2, 1, '', ['z']),
      logRow.stepEnd(2, 1),
    ]);
    await writeFile(join(dir.path, 'h.jsonl'), jsonl(v4Header('h'), historical));
    const opened = await store.open('h');
    expect(opened.events.slice(historical.length).map((event) => event.type)).toEqual(['turn/end', 'session/end-seed']);
    await opened.close();
  });
});

describe('§6/§7 stored logs with a torn tail or an older format', () => {
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

  it('§6 inspect of a torn log never writes; open drops the torn line, repairs, and later appends keep the file readable', async () => {
    const events = toEvents([logRow.title('t'), logRow.turnStart(1), logRow.user('u', 'q')]);
    const torn = `${jsonl(v4Header('torn'), events)}{"seq":3,"type":"step/st`;
    await writeFile(join(dir.path, 'torn.jsonl'), torn);
    const inspection = await store.inspect('torn');
    expect(inspection.events).toEqual(events);
    expect(inspection.needsRepair).toBe(true);
    expect(await readFile(join(dir.path, 'torn.jsonl'), 'utf8')).toBe(torn);
    const session = await store.open('torn');
    expect(session.events.slice(0, 3)).toEqual(events);
    expect(session.events.slice(3).map((event) => event.type)).toEqual(['turn/end', 'session/end-seed']);
    session.append('session/title', { title: 'after repair' });
    await session.close();
    const decoded = decodeJsonl(await readFile(join(dir.path, 'torn.jsonl'), 'utf8'));
    expect(decoded.tornTail).toBeUndefined();
    expect(decoded.events.at(-1)?.data).toEqual({ title: 'after repair' });
    decoded.events.forEach((event, index) => {
      expect(event.seq).toBe(index);
    });
  });

  it.each([
    ['V1', { format: 'dsh-session', version: 1, id: 'old', createdAt: 1 }],
    ['V2', { format: 'dsh-session', version: 2, id: 'old', createdAt: 1, inheritedEventCount: 0 }],
    ['V3', { format: 'dsh-session', version: 3, id: 'old', createdAt: 1, inheritedEventCount: 0 }],
  ])('§7 a %s log in the store: inspect never writes; open and append leave a log every reader accepts', async (_name, header) => {
    const older = [
      { seq: 0, type: 'turn/start', time: 10, data: { turn: 1 } },
      { seq: 1, type: 'user/message', time: 11, data: { message: { id: 'm', role: 'user', content: [{ type: 'text', text: 'hi' }] } } },
      { seq: 2, type: 'turn/end', time: 12, data: { turn: 1, reason: { kind: 'completed' } } },
    ];
    const text = jsonl(header, older);
    await writeFile(join(dir.path, 'old.jsonl'), text);
    const inspection = await store.inspect('old');
    expect(inspection.header.version).toBe(7);
    expect(inspection.events).toHaveLength(3);
    await store.list();
    expect(await readFile(join(dir.path, 'old.jsonl'), 'utf8')).toBe(text);
    const session = await store.open('old');
    appendAll(session, [
      logRow.queued('in', 'next'),
      logRow.turnStart(2),
      logRow.user('u2', 'next', 'in'),
      logRow.turnEnd(2, { kind: 'max-steps' }),
    ]);
    const expected = [...session.events];
    await session.close();
    const decoded = decodeJsonl(await readFile(join(dir.path, 'old.jsonl'), 'utf8'));
    expect(decoded.events).toEqual(expected);
    const other = await openSessionStore({ dir: dir.path });
    try {
      expect((await other.inspect('old')).events).toEqual(expected);
    } finally {
      await other.close();
    }
  });

  it('§7 a V0 log in the store takes its id from the file name and stays readable after appends', async () => {
    const text = jsonl(undefined, [
      { seq: 0, type: 'turn/start', time: 10, data: { turn: 1 } },
      { seq: 1, type: 'user/message', time: 11, data: { text: 'hi' } },
      { seq: 2, type: 'turn/end', time: 12, data: { turn: 1, reason: 'completed' } },
    ]);
    await writeFile(join(dir.path, 'ancient.jsonl'), text);
    expect((await store.inspect('ancient')).header).toMatchObject({ id: 'ancient', version: 7, createdAt: 10 });
    const session = await store.open('ancient');
    appendAll(session, [logRow.title('renamed')]);
    const expected = [...session.events];
    await session.close();
    expect(decodeJsonl(await readFile(join(dir.path, 'ancient.jsonl'), 'utf8'), { sessionId: 'ancient' }).events).toEqual(expected);
  });
});

describe('§6 reopening fork children', () => {
  it('§6 a fork child whose seed ends with its inherited marker reopens without a new event', async () => {
    const store = createMemoryStore();
    try {
      const parent = await store.create({ id: 'p' });
      const turn = appendAll(parent, completedTurnRows(1));
      const child = await store.fork('p', { atSeq: turn.at(-1)!.seq, id: 'c' });
      const seed = [...child.events];
      expect(seed.at(-1)).toMatchObject({ type: 'session/end-seed', data: { inherited: true } });
      await child.close();
      const reopened = await store.open('c');
      expect(reopened.events).toEqual(seed);
      expect(reopened.firstLifecycleSeq).toBe(seed.length);
      expect(reopened.inheritedEventCount).toBe(turn.at(-1)!.seq + 1);
    } finally {
      await store.close();
    }
  });

  it('§6 a fork child whose seed ends with forked closers needs no repair and gains only a plain marker on reopen', async () => {
    const store = createMemoryStore();
    try {
      const parent = await store.create({ id: 'p' });
      appendAll(parent, CRASHED);
      const child = await store.fork('p', { atSeq: parent.events.length - 1, id: 'c' });
      const seed = [...child.events];
      await child.close();
      expect((await store.inspect('c')).needsRepair).toBe(false);
      const reopened = await store.open('c');
      expect(reopened.events.slice(0, seed.length)).toEqual(seed);
      expect(reopened.events.slice(seed.length).map((event) => [event.type, event.data])).toEqual([['session/end-seed', {}]]);
    } finally {
      await store.close();
    }
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
      expect(reopened.events.slice(stored.length).map((event) => event.type)).toEqual([
        'tool/result',
        'tool/result',
        'step/end',
        'turn/end',
        'session/end-seed',
      ]);
      expect(reopened.events.at(-2)?.data).toEqual({ turn: 2, reason: { kind: 'interrupted' } });
    } finally {
      await store.close();
    }
  });
});
