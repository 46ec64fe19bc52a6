import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURRENT_FORMAT_VERSION, type SessionHeader } from 'dsh-codec';
import { openSessionStore, type SessionStore } from 'dsh-session';
import { makeTempDir, type TempDir } from '@dsh/test-utils';
import { writeVerifiedStamp } from '../jsonl/jsonl-verified-stamp.js';

// SPEC §24: `open` of a log its store verified takes the stored events as they are and decodes only
// what someone reads (the latest turn for the repair, a window asked through `eventsFrom`), so a
// resumed long session does not hold every event decoded beside its bytes.

const header = (id: string): SessionHeader => ({
  format: 'dsh-session',
  version: CURRENT_FORMAT_VERSION,
  id,
  createdAt: 0,
  inheritedEventCount: 0,
});

/** A closed turn `turn` as JSONL lines from `seq` on. */
function turnLines(seq: number, turn: number): string[] {
  const event = (offset: number, type: string, data: unknown) => JSON.stringify({ seq: seq + offset, type, time: seq + offset, data });
  return [
    event(0, 'turn/start', { turn }),
    event(1, 'user/message', {
      message: { id: `u${String(turn)}`, role: 'user', content: [{ type: 'text', text: `ask ${String(turn)}` }] },
    }),
    event(2, 'turn/end', { turn, reason: { kind: 'completed' } }),
  ];
}

describe('open of a verified log', () => {
  let dir: TempDir;
  let store: SessionStore;
  const fileOf = (id: string) => join(dir.path, `${id}.jsonl`);
  /** Writes the log and stamps it as if its writer had validated every line. */
  const forgeStamped = async (id: string, lines: string[]) => {
    await writeFile(fileOf(id), `${[JSON.stringify(header(id)), ...lines].join('\n')}\n`);
    const bytes = await readFile(fileOf(id));
    await writeVerifiedStamp(dir.path, id, { size: bytes.length, crc32: crc32(bytes) });
  };
  beforeAll(async () => {
    dir = await makeTempDir();
    store = await openSessionStore({ dir: dir.path });
  });
  afterAll(async () => {
    await store.close();
    await dir.remove();
  });

  it('decodes only what is read: a line no reader reaches does not stop the session from resuming', async () => {
    const lines = [...turnLines(0, 1), ...turnLines(3, 2), ...turnLines(6, 3)];
    // Only a stamp forged beside changed bytes can hold this; whoever reads seq 1 is told CORRUPT.
    lines[1] = '{"seq":41,"type":"plugin/note","time":1,"data":{}}';
    await forgeStamped('lazy', lines);
    const session = await store.open('lazy');
    expect(session.nextSeq).toBe(10);
    expect(session.latest('turn/start')?.data).toEqual({ turn: 3 });
    expect(session.eventsFrom(3).map((event) => event.type)).toEqual([
      'turn/start',
      'user/message',
      'turn/end',
      'turn/start',
      'user/message',
      'turn/end',
      'session/end-seed',
    ]);
    expect(() => session.eventsFrom(0, 3)).toThrow(expect.objectContaining({ code: 'CORRUPT' }) as Error);
    session.append('turn/start', { turn: 4 });
    await session.close();
    expect((await readFile(fileOf('lazy'), 'utf8')).trimEnd().split('\n')).toHaveLength(12);
  });

  it('repairs an open latest turn from the lines of that turn, as a decoded log would', async () => {
    await forgeStamped('open-turn', [...turnLines(0, 1), ...turnLines(3, 2).slice(0, 2)]);
    const session = await store.open('open-turn');
    expect(session.eventsFrom(5).map((event) => [event.type, event.data])).toEqual([
      ['turn/end', { turn: 2, reason: { kind: 'interrupted' } }],
      ['session/end-seed', {}],
    ]);
    expect(session.firstLifecycleSeq).toBe(5);
    await session.close();
    const reopened = await store.open('open-turn');
    expect(reopened.events.map((event) => event.type).slice(5)).toEqual(['turn/end', 'session/end-seed']);
    await reopened.close();
  });

  it('eventsFrom(seq, end) gives the window before end, clamped to the log', async () => {
    await forgeStamped('window', [...turnLines(0, 1), ...turnLines(3, 2)]);
    const session = await store.open('window');
    expect(session.eventsFrom(2, 5).map((event) => event.seq)).toEqual([2, 3, 4]);
    expect(session.eventsFrom(5, 100).map((event) => event.seq)).toEqual([5, 6]);
    expect(session.eventsFrom(4, 2)).toEqual([]);
    expect(Object.isFrozen(session.eventsFrom(0, 1)[0])).toBe(true);
    expect(session.eventsFrom(0, 3)).toEqual(session.events.slice(0, 3));
    await session.close();
  });
});
