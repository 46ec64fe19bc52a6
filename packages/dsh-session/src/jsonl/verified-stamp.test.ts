import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJsonl, encodeJsonl, type SessionEvent, type SessionHeader } from 'dsh-codec';
import { openSessionStore, type SessionStore } from 'dsh-session';
import { buildForkSeed } from 'dsh-session/fork';
import { arbitraryLog, LogBuilder, makeTempDir } from '@dsh/test-utils';
import { writeVerifiedStamp } from './jsonl-verified-stamp.js';
import { storedLogText } from '../__fixtures__/stored-log-text.js';

// A log its writer validated and released carries a stamp (size + CRC-32). Reads whose bytes match it
// are not validated again and forks read only their cut and latest turn; everything else is decoded
// and validated in full. The two paths must give the same children.

const header = (id: string): SessionHeader => ({ format: 'dsh-session', version: 7, id, createdAt: 0, inheritedEventCount: 0 });

describe('verified stamps of JSONL logs', () => {
  let dir: Awaited<ReturnType<typeof makeTempDir>>;
  let store: SessionStore;
  let ids = 0;
  const fileOf = (id: string) => join(dir.path, `${id}.jsonl`);
  const stampOf = (id: string) => join(dir.path, '.verified', id);
  const hasStamp = (id: string) =>
    stat(stampOf(id)).then(
      () => true,
      () => false,
    );
  /** Writes `lines` as a log and stamps it as if its writer had validated them. */
  const forgeStamped = async (id: string, body: string) => {
    await writeFile(fileOf(id), body);
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

  it('is written when a writer releases a log it validated, and removed with the session', async () => {
    const session = await store.create({ id: 'stamped', title: 't' });
    session.append('turn/start', { turn: 1 });
    expect(await hasStamp('stamped')).toBe(false);
    await session.close();
    const stamp = JSON.parse(await readFile(stampOf('stamped'), 'utf8')) as { size: number; crc32: number };
    const bytes = await readFile(fileOf('stamped'));
    // With the log's change time as the writer left it (SessionStore.reopen after another writer).
    const changed = async (): Promise<string> => String((await stat(fileOf('stamped'), { bigint: true })).ctimeNs);
    expect(stamp).toEqual({ size: bytes.length, crc32: crc32(bytes), ctimeNs: await changed() });
    // Reopened (repaired: the turn was open), validated on read, stamped again for the new bytes.
    await (await store.open('stamped')).close();
    const again = await readFile(fileOf('stamped'));
    expect(JSON.parse(await readFile(stampOf('stamped'), 'utf8'))).toEqual({
      size: again.length,
      crc32: crc32(again),
      ctimeNs: await changed(),
    });
    await store.delete('stamped');
    expect(await hasStamp('stamped')).toBe(false);
  });

  it('never stamps a log whose open failed validation', async () => {
    await writeFile(
      fileOf('broken'),
      `${JSON.stringify(header('broken'))}\n{"seq":0,"type":"turn/end","time":1,"data":{"turn":1,"reason":{"kind":"completed"}}}\n`,
    );
    await expect(store.open('broken')).rejects.toMatchObject({ code: 'INVALID_RELATIONSHIP' });
    expect(await hasStamp('broken')).toBe(false);
  });

  it('gives forks of a stamped log exactly the children of a log decoded in full, for every cut (property)', async () => {
    await fc.assert(
      fc.asyncProperty(arbitraryLog(), async (log) => {
        const events: SessionEvent[] = log;
        fc.pre(events.length > 0);
        const id = `parent-${String((ids += 1))}`;
        await store.import({ header: header(id), events });
        expect(await hasStamp(id)).toBe(true);
        const observed = await store.observe(id);
        expect(observed.events).toEqual(events);
        expect(observed.needsRepair).toBe(
          events.findLast((event) => event.type === 'turn/start' || event.type === 'turn/end')?.type === 'turn/start',
        );
        for (const cut of new Set([0, Math.floor(events.length / 2), events.length - 1])) {
          const fast = await store.fork(id, { atSeq: cut, id: `${id}-v-${String(cut)}` });
          const fromObservation = await store.fork(observed, { atSeq: cut, id: `${id}-o-${String(cut)}` });
          await rm(stampOf(id));
          const full = await store.fork(id, { atSeq: cut, id: `${id}-f-${String(cut)}` });
          await writeVerifiedStamp(dir.path, id, { size: (await stat(fileOf(id))).size, crc32: crc32(await readFile(fileOf(id))) });
          for (const child of [fast, fromObservation, full]) {
            expect(child.nextSeq).toBe(full.events.length);
            expect(child.latest('turn/start', 'turn/end')).toEqual(
              full.events.findLast((event) => event.type === 'turn/start' || event.type === 'turn/end'),
            );
            expect(child.title).toEqual(full.title);
            expect(child.config).toEqual(full.config);
            expect(child.eventsFrom(cut + 1)).toEqual(buildForkSeed(events, cut).slice(cut + 1));
            expect(child.events).toEqual(buildForkSeed(events, cut));
            await child.close();
            const stored = decodeJsonl(await storedLogText(dir.path, child.id));
            expect(stored.events).toEqual(buildForkSeed(events, cut));
          }
          // The inherited lines are the parent's bytes in every case.
          const lines = async (child: string) => (await storedLogText(dir.path, child)).split('\n').slice(1, cut + 2);
          expect(await lines(fast.id)).toEqual(await lines(full.id));
          expect(await lines(fromObservation.id)).toEqual(await lines(id));
        }
      }),
      { numRuns: 25 },
    );
  });

  it('gives a child copied from verified bytes the line ends of those bytes: its own live forks copy exactly its lines', async () => {
    const events = new LogBuilder().title('t').turnStart().user('one').turnEnd().turnStart().user('two').events;
    // Bytes no encoder of ours writes (spaces after separators): only a copy reproduces them.
    await forgeStamped(
      'ends',
      `${[header('ends'), ...events].map((value) => JSON.stringify(value, null, 1).replaceAll('\n', ' ')).join('\n')}\n`,
    );
    const child = await store.fork('ends', { atSeq: 5, id: 'ends-child' });
    child.append('session/title', { title: 'grown' });
    await child.flush();
    const lines = async (id: string, count: number) => (await storedLogText(dir.path, id)).split('\n').slice(1, count + 1);
    for (let cut = 0; cut < child.nextSeq; cut++) {
      const grandchild = await store.fork('ends-child', { atSeq: cut, id: `ends-grandchild-${String(cut)}` });
      await grandchild.close();
      expect(await lines(grandchild.id, cut + 1)).toEqual(await lines(child.id, cut + 1));
      expect(decodeJsonl(await storedLogText(dir.path, grandchild.id)).events).toEqual(buildForkSeed(child.events, cut));
    }
    await child.close();
  });

  it('trusts bytes that match the stamp: a fork reads only its cut and latest turn, and the rest is decoded when read', async () => {
    const log = new LogBuilder().title('first').turnStart().user('one').turnEnd().turnStart().user('two').turnEnd().events;
    const lines = log.map((event) => JSON.stringify(event));
    // A line no reader could decode, in the first turn: only a reader of every event meets it.
    lines[2] = '{"seq":2, not json';
    await forgeStamped('forged', `${JSON.stringify(header('forged'))}\n${lines.join('\n')}\n`);
    const child = await store.fork('forged', { atSeq: 6, id: 'forged-child' });
    expect(child.nextSeq).toBe(8);
    expect(child.title).toBe('first');
    expect(child.latest('turn/end')?.seq).toBe(6);
    expect(() => child.events).toThrow(/expected the event at seq 2 on line 4/);
    await child.close();
    // Without the stamp the same bytes are decoded in full and refused.
    await rm(stampOf('forged'));
    await expect(store.fork('forged', { atSeq: 6, id: 'forged-child-2' })).rejects.toMatchObject({ code: 'MALFORMED_JSON' });
  });

  it('merges a fork’s configPatch over the config at the cut read from the bytes, decoding no other event of the prefix', async () => {
    const log = new LogBuilder().turnStart().user('one').turnEnd().turnStart().user('two').turnEnd().events;
    const config: SessionEvent = { seq: log.length, type: 'session/config', time: 5, data: { tools: ['read'], model: 'm1' } };
    const lines = [...log, config].map((event) => JSON.stringify(event));
    // A line no reader could decode, in the first turn: only a reader of every event meets it.
    lines[1] = '{"seq":1, not json';
    await forgeStamped('configured', `${JSON.stringify(header('configured'))}\n${lines.join('\n')}\n`);
    const child = await store.fork('configured', { atSeq: config.seq, id: 'configured-child', configPatch: { model: 'm2' } });
    expect(child.config).toEqual({ tools: ['read'], model: 'm2' });
    expect(child.latest('session/config')?.data).toEqual({ tools: ['read'], model: 'm2' });
    expect(() => child.events).toThrow(/expected the event at seq 1 on line 3/);
    await child.close();
  });

  it('validates a stamped log in full again once one byte of it changed', async () => {
    const session = await store.create({ id: 'edited' });
    session.append('turn/start', { turn: 1 });
    session.append('turn/end', { turn: 1, reason: { kind: 'completed' } });
    await session.close();
    const original = await readFile(fileOf('edited'), 'utf8');
    // Same size, one byte different: the turn now ends a turn that never started.
    await writeFile(fileOf('edited'), original.replace('"turn":1,"reason"', '"turn":2,"reason"'));
    await expect(store.observe('edited')).rejects.toMatchObject({ code: 'INVALID_RELATIONSHIP' });
    await expect(store.fork('edited', { atSeq: 1 })).rejects.toMatchObject({ code: 'INVALID_RELATIONSHIP' });
  });

  /** A stamped log whose first turn ends a turn that never started: only a validator of every event refuses it. */
  const forgeInvalidStamped = async (id: string) => {
    const log = new LogBuilder().title('first').turnStart().user('one').turnEnd().turnStart().user('two').turnEnd().events;
    const lines = log.map((event) => JSON.stringify(event));
    lines[3] = (lines[3] as string).replace('"turn":1', '"turn":9');
    const body = `${JSON.stringify(header(id))}\n${lines.join('\n')}\n`;
    await forgeStamped(id, body);
    return { body, count: log.length };
  };

  it('opens a stamped log validating none of its events, each line decoded once', async () => {
    const { count } = await forgeInvalidStamped('open-trusted');
    const session = await store.open('open-trusted');
    // The stamped lines, then the new lifecycle's marker: the refused turn/end was never validated.
    expect(session.events.slice(0, count).map((event) => event.seq)).toEqual([...Array(count).keys()]);
    expect(session.title).toBe('first');
    session.append('turn/start', { turn: 3 });
    session.append('turn/end', { turn: 3, reason: { kind: 'completed' } });
    await session.close();
    // Without the stamp the same bytes are validated at open and refused.
    await rm(stampOf('open-trusted'));
    await expect(store.open('open-trusted')).rejects.toMatchObject({ code: 'INVALID_RELATIONSHIP' });
  });

  it('validates at open the bytes of a stamped log that changed or grew after its stamp, and repairs a torn tail', async () => {
    const { body } = await forgeInvalidStamped('open-changed');
    const valid = body.replace('"turn":9', '"turn":1');
    await forgeStamped('open-changed', valid);
    // Same size, one byte different from what the stamp vouches for.
    await writeFile(fileOf('open-changed'), body);
    await expect(store.open('open-changed')).rejects.toMatchObject({ code: 'INVALID_RELATIONSHIP' });
    // The stamped bytes, then a line the stamp does not cover that ends a turn never started.
    const grown = `${valid}{"seq":7,"type":"turn/end","time":9,"data":{"turn":9,"reason":{"kind":"completed"}}}\n`;
    await writeFile(fileOf('open-changed'), grown);
    await expect(store.open('open-changed')).rejects.toMatchObject({ code: 'INVALID_RELATIONSHIP' });
    // The stamped bytes, then a torn line: validated, the tail dropped, the session opened.
    await writeFile(fileOf('open-changed'), `${valid}{"seq":7,"ty`);
    const session = await store.open('open-changed');
    expect(session.events[7]?.type).not.toBe('turn/end');
    await session.close();
    expect((await readFile(fileOf('open-changed'), 'utf8')).startsWith(valid)).toBe(true);
    expect(await readFile(fileOf('open-changed'), 'utf8')).not.toContain('{"seq":7,"ty"');
  });

  it('finds the latest title by its envelope, not by the same text inside an event’s data', async () => {
    const log = new LogBuilder().title('real').events;
    const decoy: SessionEvent = {
      seq: log.length,
      type: 'plugin/note',
      time: 5,
      ignorable: true,
      data: { type: 'session/title', title: 'decoy' },
    };
    await store.import({ header: header('decoy'), events: [...log, decoy] });
    const child = await store.fork('decoy', { atSeq: decoy.seq, id: 'decoy-child' });
    expect(child.title).toBe('real');
    await child.close();
  });

  it('encodes the stamp’s log from its events when its bytes cannot be copied (a stamped V4 header is decoded in full)', async () => {
    const events = new LogBuilder().title('v4').events;
    await forgeStamped('old', encodeJsonl({ header: header('old'), events }).replace('"version":7', '"version":4'));
    const child = await store.fork('old', { atSeq: 0, id: 'old-child' });
    await child.close();
    expect(decodeJsonl(await storedLogText(dir.path, 'old-child')).events).toEqual(buildForkSeed(events, 0));
  });

  it('summarizes a stamped log from its latest lines exactly as the same log decoded in full', async () => {
    const session = await store.create({ id: 'listed', title: 'first', config: { cwd: '/work/a' } });
    session.append('session/title', { title: 'second' });
    session.append('session/config', { tools: ['read'] });
    session.append('turn/start', { turn: 1 });
    await session.close();
    const stamped = (await store.list()).find((summary) => summary.id === 'listed');
    expect(stamped).toMatchObject({ title: 'second', cwd: '/work/a', needsRepair: true, lastSeq: 5 });
    await rm(stampOf('listed'));
    // A new stamp in the backend's listing (the file is unchanged): touch it so the cached summary is dropped.
    await writeFile(fileOf('listed'), await readFile(fileOf('listed')));
    expect((await store.list()).find((summary) => summary.id === 'listed')).toEqual(stamped);
  });
});

describe('a verified stamp that cannot be written', () => {
  it('leaves no temp file behind a writer that died before renaming it', async () => {
    const dir = await makeTempDir();
    try {
      await mkdir(join(dir.path, '.verified'), { recursive: true });
      await writeFile(join(dir.path, '.verified', 'dead.0b6f.tmp'), '{"size":1');
      const store = await openSessionStore({ dir: dir.path });
      expect(await readdir(join(dir.path, '.verified'))).toEqual([]);
      await store.close();
    } finally {
      await dir.remove();
    }
  });

  it('costs a full decode on the next read and nothing else', async () => {
    const dir = await makeTempDir();
    try {
      // The stamps' folder name is taken by a file: every stamp write fails.
      await writeFile(join(dir.path, '.verified'), 'not a folder');
      const store = await openSessionStore({ dir: dir.path });
      const session = await store.create({ id: 'plain', title: 'kept' });
      await session.close();
      const child = await store.fork('plain', { atSeq: 0, id: 'plain-child' });
      expect(child.title).toBe('kept');
      await child.close();
      expect(await readFile(join(dir.path, '.verified'), 'utf8')).toBe('not a folder');
      await store.close();
    } finally {
      await dir.remove();
    }
  });
});
