import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir } from '@dsh/test-utils';
import { CURRENT_FORMAT_VERSION, encodeJsonl, type SessionEvent, type SessionHeader } from 'dsh-codec';
import { describe, expect, it } from 'vitest';
import { createMemoryStore, openSessionStore, SessionError } from 'dsh-session';

const header = (id: string, lineage?: { parentSession: string; forkCut: number }): SessionHeader => ({
  format: 'dsh-session',
  version: CURRENT_FORMAT_VERSION,
  id,
  createdAt: 1000,
  ...(lineage === undefined ? {} : lineage),
  inheritedEventCount: lineage === undefined ? 0 : lineage.forkCut + 1,
});

const turn: SessionEvent[] = [
  { seq: 0, type: 'turn/start', time: 1000, data: { turn: 1 } },
  { seq: 1, type: 'user/message', time: 1000, data: { message: { id: 'u1', role: 'user', content: [{ type: 'text', text: 'hi' }] } } },
  { seq: 2, type: 'turn/end', time: 1001, data: { turn: 1, reason: { kind: 'completed' } } },
];

async function codeOf(run: Promise<unknown>): Promise<string | undefined> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  return SessionError.is(error) ? error.code : undefined;
}

describe.each([
  ['memory', () => Promise.resolve({ store: createMemoryStore(), dir: undefined as string | undefined })],
  [
    'jsonl',
    async () => {
      const dir = (await makeTempDir('dsh-store-import')).path;
      return { store: await openSessionStore({ dir }), dir };
    },
  ],
] as const)('SessionStore.import (%s)', (_name, open) => {
  it('stores an artifact exactly as given, without opening it', async () => {
    const { store, dir } = await open();
    await store.import({ header: header('main'), events: turn });
    expect((await store.inspect('main')).events).toEqual(turn);
    if (dir !== undefined)
      expect(await readFile(join(dir, 'main.jsonl'), 'utf8')).toBe(encodeJsonl({ header: header('main'), events: turn }));
    // Not held open: it can be opened (and so leased) right away.
    await (await store.open('main')).close();
    await store.close();
  });

  it('refuses a taken id, an invalid log and a child without its parent, writing nothing', async () => {
    const { store } = await open();
    await store.import({ header: header('main'), events: turn });
    expect(await codeOf(store.import({ header: header('main'), events: turn }))).toBe('SESSION_EXISTS');
    expect(await codeOf(store.import({ header: header('bad'), events: turn.slice(1) }))).toBe('INVALID_EVENT');
    const marker: SessionEvent = { seq: 3, type: 'session/end-seed', time: 1001, data: { inherited: true } };
    const child = { header: header('child', { parentSession: 'absent', forkCut: 2 }), events: [...turn, marker] };
    expect(await codeOf(store.import(child))).toBe('SESSION_NOT_FOUND');
    expect(await store.has('bad')).toBe(false);
    expect(await store.has('child')).toBe(false);
    await store.import({ ...child, header: header('child', { parentSession: 'main', forkCut: 2 }) });
    expect((await store.inspect('child')).header.parentSession).toBe('main');
    await store.close();
  });

  it("refuses a fork child whose first forkCut + 1 events differ from its parent's (INVALID_EVENT naming the seq), storing nothing", async () => {
    const { store } = await open();
    await store.import({ header: header('main'), events: turn });
    const marker: SessionEvent = { seq: 3, type: 'session/end-seed', time: 1001, data: { inherited: true } };
    const edited: SessionEvent = {
      seq: 1,
      type: 'user/message',
      time: 1000,
      data: { message: { id: 'u1', role: 'user', content: [{ type: 'text', text: 'something else' }] } },
    };
    const child = {
      header: header('child', { parentSession: 'main', forkCut: 2 }),
      events: [turn[0] as SessionEvent, edited, turn[2] as SessionEvent, marker],
    };
    const error = await store.import(child).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(SessionError.is(error) && error.code).toBe('INVALID_EVENT');
    expect((error as Error).message).toMatch(/seq 1 differs — expected the parent's .*"hi".*, received .*"something else"/);
    expect(await store.has('child')).toBe(false);
    // A cut past the parent's end claims events the parent does not hold.
    const longer = {
      header: header('longer', { parentSession: 'main', forkCut: 3 }),
      events: [...turn, { seq: 3, type: 'session/title', time: 1001, data: { title: 't' } }, { ...marker, seq: 4 }],
    };
    expect(
      (
        (await store.import(longer).then(
          () => undefined,
          (e: unknown) => e,
        )) as Error
      ).message,
    ).toContain('seq 3 differs');
    expect(await store.has('longer')).toBe(false);
    await store.close();
  });
});
