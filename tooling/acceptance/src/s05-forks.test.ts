/** SPEC §5 — forks: buildForkSeed (§5.1), SessionStore.fork (§5.2), counters (§5.3), host fork points (§5.4). */
import { spawn } from 'node:child_process';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeJsonl, type SessionEvent } from 'dsh-codec';
import { createMemoryStore, openSessionStore, SessionError, type Session, type SessionStore } from 'dsh-session';
import { buildForkSeed } from 'dsh-session/fork';
import type { Model } from 'dsh-agent';
import { createHost, type Host } from 'dsh-host';
import { completedTurnRows, type LogJsonRow, logRow, makeTempDir, type TempDir } from '@dsh/test-utils';
import { appendAll, deepFreeze, jsonl, mentionsNumber, rejection, toEvents, v4Header } from './support.js';

/** A log that exercises every position: standalone events, a closed failed step, an open step mid-call. */
const RICH: LogJsonRow[] = [
  logRow.title('rich'),
  ...completedTurnRows(1, ['a1']),
  logRow.config({ cwd: '/w' }),
  logRow.queued('in-2', 'next'),
  logRow.turnStart(2),
  logRow.user('u2', 'next', 'in-2'),
  logRow.stepStart(2, 1),
  logRow.assistant(2, 1, '', ['x']),
  logRow.call(2, 1, 'x', 'side-effect'),
  logRow.stepEnd(2, 1),
  logRow.stepStart(2, 2),
  logRow.assistant(2, 2, '', ['b', 'c']),
  logRow.call(2, 2, 'b', 'idempotent'),
  logRow.plugin('acme/progress'),
  logRow.result(2, 2, 'b'),
  logRow.call(2, 2, 'c', 'side-effect'),
];

const isInheritedMarker = (event: SessionEvent | undefined) =>
  event?.type === 'session/end-seed' && JSON.stringify(event.data) === JSON.stringify({ inherited: true });

describe('§5.1 buildForkSeed', () => {
  const events = deepFreeze(toEvents(RICH));

  it('§5.1 returns the inclusive prefix, the inherited marker { seq: cut + 1, time of events[cut], data: { inherited: true } }, then forked closers', () => {
    for (let cut = 0; cut < events.length; cut += 1) {
      const seed = buildForkSeed(events, cut);
      expect(seed.slice(0, cut + 1)).toEqual(events.slice(0, cut + 1));
      expect(seed[cut + 1]).toStrictEqual({ seq: cut + 1, type: 'session/end-seed', time: events[cut]!.time, data: { inherited: true } });
      const closers = seed.slice(cut + 2);
      for (const closer of closers) expect(['tool/result', 'step/end', 'turn/end']).toContain(closer.type);
      if (closers.length > 0) expect(closers.at(-1)!.data).toMatchObject({ reason: { kind: 'forked' } });
      seed.forEach((event, index) => {
        expect(event.seq).toBe(index);
      });
    }
  });

  it('§5.1 inherited events are reused by reference, not deep-copied', () => {
    const cut = 12;
    const seed = buildForkSeed(events, cut);
    for (let index = 0; index <= cut; index += 1) expect(seed[index]).toBe(events[index]);
  });

  it('§5.1 cut = -1 inherits nothing: the seed is only the marker, stamped with the time argument', () => {
    expect(buildForkSeed(events, -1, 123_456)).toStrictEqual([
      { seq: 0, type: 'session/end-seed', time: 123_456, data: { inherited: true } },
    ]);
    expect(buildForkSeed([], -1, 7)).toStrictEqual([{ seq: 0, type: 'session/end-seed', time: 7, data: { inherited: true } }]);
  });

  it('§5.1 is pure: the source is not changed and a second call gives an equal seed', () => {
    const snapshot = JSON.stringify(events);
    const first = buildForkSeed(events, events.length - 1);
    expect(buildForkSeed(events, events.length - 1)).toEqual(first);
    expect(JSON.stringify(events)).toBe(snapshot);
  });

  it('§5.1 the closers close the open tail with the forked cause at the marker time', () => {
    const seed = buildForkSeed(events, events.length - 1);
    const closers = seed.slice(events.length + 1);
    expect(closers.map((event) => event.type)).toEqual(['tool/result', 'step/end', 'turn/end']);
    expect((closers[0]!.data as { message: { id: string } }).message.id).toBe(`forked-tool-result-c-${events.length + 1}`);
    for (const closer of closers) expect(closer.time).toBe(events.at(-1)!.time);
  });

  it('§5.1 a nested fork keeps the ancestor marker inside its copied prefix', () => {
    const child = buildForkSeed(events, 5);
    const grand = buildForkSeed(child, child.length - 1);
    expect(isInheritedMarker(grand[6])).toBe(true);
    expect(isInheritedMarker(grand[child.length])).toBe(true);
    expect(grand.length).toBe(child.length + 1);
  });
});

describe('§5.2 SessionStore.fork', () => {
  let store: SessionStore;
  let source: Session;
  beforeEach(async () => {
    store = createMemoryStore();
    source = await store.create({ id: 'parent' });
    appendAll(source, RICH);
    await source.flush();
  });
  afterEach(async () => {
    await store.close();
  });

  it('§5.2 accepts every existing integer seq exactly and never moves the cut: the child is buildForkSeed(source, atSeq)', async () => {
    const events = [...source.events];
    for (let atSeq = 0; atSeq < events.length; atSeq += 1) {
      const child = await store.fork('parent', { atSeq, id: `child-${atSeq}` });
      expect(child.events).toEqual(buildForkSeed(events, atSeq));
      expect(child.header.forkCut).toBe(atSeq);
      await child.close();
    }
  });

  it("§5.2 the child's header names parentSession, forkCut = atSeq and inheritedEventCount = atSeq + 1 (V7)", async () => {
    const child = await store.fork('parent', { atSeq: 9, id: 'kid' });
    expect(child.header).toMatchObject({
      format: 'dsh-session',
      version: 7,
      id: 'kid',
      parentSession: 'parent',
      forkCut: 9,
      inheritedEventCount: 10,
    });
    expect(child.id).toBe('kid');
    expect(Number.isInteger(child.header.createdAt)).toBe(true);
    expect((await store.inspect('kid')).header).toEqual(child.header);
  });

  it('§5.2 without an id the child gets a fresh valid id', async () => {
    const child = await store.fork('parent', { atSeq: 3 });
    expect(child.id).toMatch(/^[A-Za-z0-9_-]{1,128}$/);
    expect(child.id).not.toBe('parent');
  });

  it('§5.2 title and config options apply to the child', async () => {
    const child = await store.fork('parent', { atSeq: 3, id: 'titled', title: 'side quest', config: { cwd: '/elsewhere' } });
    const summary = (await store.list()).find((entry) => entry.id === 'titled');
    expect(summary?.title).toBe('side quest');
    expect(child.events.slice(0, 4)).toEqual(source.events.slice(0, 4));
    expect(
      child.events.some((event) => event.type === 'session/config' && JSON.stringify(event.data) === JSON.stringify({ cwd: '/elsewhere' })),
    ).toBe(true);
  });

  it('§5.2 the parent is unchanged, and stays writable', async () => {
    const before = JSON.stringify(source.events);
    const stored = JSON.stringify((await store.inspect('parent')).events);
    await store.fork('parent', { atSeq: source.events.length - 1, id: 'k' });
    expect(JSON.stringify(source.events)).toBe(before);
    expect(JSON.stringify((await store.inspect('parent')).events)).toBe(stored);
    expect(source.append('tool/result', logRow.result(2, 2, 'c')[1]).type).toBe('tool/result');
  });

  it('§5.2 forks a historical position of a parent that has since moved on and completed', async () => {
    const early = [...source.events.slice(0, 6)];
    appendAll(source, [logRow.result(2, 2, 'c'), logRow.stepEnd(2, 2), logRow.turnEnd(2), ...completedTurnRows(3)]);
    const child = await store.fork('parent', { atSeq: 5, id: 'history' });
    expect(child.events.slice(0, 6)).toEqual(early);
  });

  it('§5.2 SESSION_EXISTS is checked first: an existing child id wins over a missing source and a bad cut', async () => {
    await store.create({ id: 'taken' });
    for (const [sourceId, atSeq] of [
      ['missing', 0],
      ['parent', 999],
      ['parent', -1],
      ['missing', 1.5],
    ] as const) {
      const error = await rejection(store.fork(sourceId, { atSeq, id: 'taken' }));
      expect(SessionError.is(error)).toBe(true);
      expect(error.code).toBe('SESSION_EXISTS');
    }
    expect((await rejection(store.fork('parent', { atSeq: 0, id: 'parent' }))).code).toBe('SESSION_EXISTS');
  });

  it('§5.2 SESSION_EXISTS also against a stored session nobody holds open', async () => {
    const closed = await store.create({ id: 'stored-only' });
    await closed.close();
    expect((await rejection(store.fork('parent', { atSeq: 0, id: 'stored-only' }))).code).toBe('SESSION_EXISTS');
  });

  it('§5.2 SESSION_NOT_FOUND for a missing source comes before cut validation', async () => {
    for (const atSeq of [0, -1, 1.5, 10_000]) {
      const error = await rejection(store.fork('missing', { atSeq, id: 'fresh' }));
      expect(SessionError.is(error)).toBe(true);
      expect(error.code).toBe('SESSION_NOT_FOUND');
    }
  });

  it('§5.2 INVALID_CUT for a non-integer, negative or past-the-end seq, the message naming the last seq', async () => {
    const lastSeq = source.events.length - 1;
    for (const atSeq of [0.5, 2.25, Number.NaN, Number.POSITIVE_INFINITY, -1, -3, lastSeq + 1, lastSeq + 100]) {
      const error = await rejection(store.fork('parent', { atSeq, id: 'never' }));
      expect(SessionError.is(error), String(error)).toBe(true);
      expect(error.code).toBe('INVALID_CUT');
      expect(mentionsNumber(error.message, lastSeq), error.message).toBe(true);
    }
  });

  it('§5.2 forks at a seq the live source appended but has not flushed yet', async () => {
    const [appended] = appendAll(source, [logRow.result(2, 2, 'c')]);
    const child = await store.fork('parent', { atSeq: appended!.seq, id: 'fresh' });
    expect(child.events).toEqual(buildForkSeed(source.events, appended!.seq));
  });

  it('§5.2 INVALID_CUT for an atSeq that is not a number at all', async () => {
    for (const atSeq of ['3', null, undefined, {}]) {
      const error = await rejection(store.fork('parent', { atSeq: atSeq as number, id: 'never' }));
      expect(error.code, typeof atSeq).toBe('INVALID_CUT');
    }
  });

  it('§5.2 concurrent forks and creates with one child id: exactly one wins, the others get SESSION_EXISTS', async () => {
    const outcomes = await Promise.allSettled([
      store.fork('parent', { atSeq: 2, id: 'race' }),
      store.fork('parent', { atSeq: 3, id: 'race' }),
      store.create({ id: 'race' }),
    ]);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    for (const outcome of outcomes) if (outcome.status === 'rejected') expect((outcome.reason as SessionError).code).toBe('SESSION_EXISTS');
  });

  it('§5.2 a refused fork creates nothing', async () => {
    const before = (await store.list()).map((entry) => entry.id).sort();
    await rejection(store.fork('parent', { atSeq: 10_000, id: 'never' }));
    await rejection(store.fork('missing', { atSeq: 0, id: 'never' }));
    await rejection(store.fork('parent', { atSeq: -1, id: 'never' }));
    expect((await store.list()).map((entry) => entry.id).sort()).toEqual(before);
    expect((await rejection(store.open('never'))).code).toBe('SESSION_NOT_FOUND');
  });
});

describe('§5.2 SessionStore.fork on the JSONL store', () => {
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

  it('§5.2 the complete seed is durable when fork returns: another store reads the whole child', async () => {
    const parent = await store.create({ id: 'p' });
    appendAll(parent, RICH);
    const atSeq = parent.events.length - 1;
    const child = await store.fork('p', { atSeq, id: 'c' });
    const text = await readFile(join(dir.path, 'c.jsonl'), 'utf8');
    const decoded = decodeJsonl(text);
    expect(decoded.events).toEqual(child.events);
    expect(decoded.header).toEqual(child.header);
    const other = await openSessionStore({ dir: dir.path });
    try {
      const inspected = await other.inspect('c');
      expect(inspected.events).toEqual(buildForkSeed(parent.events, atSeq));
      expect(inspected.needsRepair).toBe(false);
    } finally {
      await other.close();
    }
  });

  it('§5.2 two store instances forking to one child id at once: exactly one child file, the loser gets SESSION_EXISTS', async () => {
    const parent = await store.create({ id: 'p' });
    appendAll(parent, RICH);
    await parent.flush();
    const other = await openSessionStore({ dir: dir.path });
    try {
      const outcomes = await Promise.allSettled([store.fork('p', { atSeq: 2, id: 'race' }), other.fork('p', { atSeq: 5, id: 'race' })]);
      const winners = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      expect(winners).toHaveLength(1);
      for (const outcome of outcomes)
        if (outcome.status === 'rejected') expect((outcome.reason as SessionError).code).toBe('SESSION_EXISTS');
      const stored = decodeJsonl(await readFile(join(dir.path, 'race.jsonl'), 'utf8'));
      expect(stored.events).toEqual(winners[0]!.value.events);
    } finally {
      await other.close();
    }
  });

  it('§5.2 the parent file is byte-for-byte unchanged by a fork', async () => {
    const parent = await store.create({ id: 'p' });
    appendAll(parent, RICH);
    await parent.close();
    const before = await readFile(join(dir.path, 'p.jsonl'));
    await store.fork('p', { atSeq: 7, id: 'c' });
    expect((await readFile(join(dir.path, 'p.jsonl'))).equals(before)).toBe(true);
  });

  it('§5.2 SESSION_EXISTS against a session stored by another store instance, and a refused fork leaves no file', async () => {
    const parent = await store.create({ id: 'p' });
    appendAll(parent, RICH);
    const other = await openSessionStore({ dir: dir.path });
    try {
      const mine = await other.create({ id: 'theirs' });
      await mine.flush();
      expect((await rejection(store.fork('p', { atSeq: 1, id: 'theirs' }))).code).toBe('SESSION_EXISTS');
    } finally {
      await other.close();
    }
    const files = (await readdir(dir.path)).sort();
    await rejection(store.fork('p', { atSeq: 10_000, id: 'ghost' }));
    await rejection(store.fork('nope', { atSeq: 0, id: 'ghost' }));
    expect((await readdir(dir.path)).sort()).toEqual(files);
  });
});

describe('§5.2 atomic fork under a crash', { timeout: 120_000 }, () => {
  it('§5.2 a process killed while forking leaves, for each child id, either no child or the whole child', async () => {
    const dir = await makeTempDir();
    try {
      // A large source makes each child file big enough for a kill to land mid-write if writes were not atomic.
      const specs: LogJsonRow[] = [];
      for (let turn = 1; turn <= 300; turn += 1) specs.push(...completedTurnRows(turn, ['a', 'b']));
      specs.push(logRow.turnStart(301), logRow.stepStart(301, 1), logRow.assistant(301, 1, '', ['x', 'y']), logRow.call(301, 1, 'x'));
      const source = toEvents(specs);
      await writeFile(join(dir.path, 'big.jsonl'), jsonl(v4Header('big'), source));
      const expected = buildForkSeed(source, source.length - 1);
      for (const delay of [0, 40, 120]) {
        const forker = spawn(
          process.execPath,
          ['--conditions=@dsh/source', '--import', 'tsx', join(import.meta.dirname, '__fixtures__', 'fork-loop.ts'), dir.path, 'big'],
          {
            cwd: join(import.meta.dirname, '..'),
            stdio: ['ignore', 'pipe', 'inherit'],
          },
        );
        const exited = new Promise<void>((resolve) =>
          forker.once('exit', () => {
            resolve();
          }),
        );
        await new Promise<void>((resolve) => {
          createInterface({ input: forker.stdout }).once('line', () => {
            resolve();
          });
          void exited.then(() => {
            resolve();
          });
        });
        await new Promise((resolve) => setTimeout(resolve, delay));
        forker.kill('SIGKILL');
        await exited;
        const store = await openSessionStore({ dir: dir.path });
        try {
          for (const name of await readdir(dir.path)) {
            const match = /^(c\d+)\.jsonl$/.exec(name);
            if (match === null) continue;
            const child = await store.inspect(match[1]!);
            expect(child.events).toEqual(expected);
            expect(child.needsRepair).toBe(false);
          }
          const listed = await store.list();
          expect(listed.every((summary) => summary.id === 'big' || /^c\d+$/.test(summary.id))).toBe(true);
        } finally {
          await store.close();
        }
        for (const name of await readdir(dir.path)) if (/^c\d+\.jsonl$/.test(name)) await rm(join(dir.path, name));
      }
    } finally {
      await dir.remove();
    }
  });
});

describe('§5.3 counters', () => {
  let store: SessionStore;
  beforeEach(() => {
    store = createMemoryStore();
  });
  afterEach(async () => {
    await store.close();
  });

  it('§5.3 a new session: inheritedEventCount 0, firstLifecycleSeq 0, firstLiveSeq = the constructor input length', async () => {
    const session = await store.create({ id: 'new', title: 't', config: { cwd: '/w' } });
    expect(session.inheritedEventCount).toBe(0);
    expect(session.firstLifecycleSeq).toBe(0);
    expect(session.firstLiveSeq).toBe(session.events.length);
    expect(session.header.inheritedEventCount).toBe(0);
  });

  it('§5.3 a new fork: inheritedEventCount = cut + 1, firstLifecycleSeq = the marker seq, firstLiveSeq = seed length', async () => {
    const parent = await store.create({ id: 'p' });
    appendAll(parent, RICH);
    const cut = parent.events.length - 1;
    const child = await store.fork('p', { atSeq: cut, id: 'c' });
    expect(child.inheritedEventCount).toBe(cut + 1);
    expect(child.firstLifecycleSeq).toBe(cut + 1);
    expect(isInheritedMarker(child.events[child.firstLifecycleSeq])).toBe(true);
    expect(child.firstLiveSeq).toBe(buildForkSeed(parent.events, cut).length);
    expect(child.firstLiveSeq).toBe(child.events.length);
  });

  it('§5.3 a restored session: firstLifecycleSeq = the stored length, firstLiveSeq = the full seed length', async () => {
    const session = await store.create({ id: 's' });
    appendAll(session, completedTurnRows(1));
    await session.close();
    const storedLength = (await store.inspect('s')).events.length;
    const restored = await store.open('s');
    expect(restored.firstLifecycleSeq).toBe(storedLength);
    expect(restored.firstLiveSeq).toBe(restored.events.length);
    expect(restored.events.at(-1)).toMatchObject({ type: 'session/end-seed', data: {} });
  });

  it('§5.3 a restored session after crash repair: closers and the new marker belong to the new lifecycle', async () => {
    const session = await store.create({ id: 's' });
    appendAll(session, [logRow.turnStart(1), logRow.user('u', 'q'), logRow.stepStart(1, 1)]);
    await session.close();
    const storedLength = (await store.inspect('s')).events.length;
    const restored = await store.open('s');
    expect(restored.firstLifecycleSeq).toBe(storedLength);
    expect(restored.events[storedLength]?.type).toBe('step/end');
    expect(restored.firstLiveSeq).toBe(restored.events.length);
  });

  it('§5.3 inheritedEventCount is durable: a reopened fork child keeps it from its header', async () => {
    const parent = await store.create({ id: 'p' });
    appendAll(parent, RICH);
    const child = await store.fork('p', { atSeq: 8, id: 'c' });
    appendAll(child, completedTurnRows(2));
    await child.close();
    const reopened = await store.open('c');
    expect(reopened.inheritedEventCount).toBe(9);
    expect(reopened.header.inheritedEventCount).toBe(9);
    expect(reopened.header.forkCut).toBe(8);
    expect(reopened.header.parentSession).toBe('p');
  });

  it('§5.3 nested forks keep ancestor markers inside their copied prefix; counters follow the final marker', async () => {
    const parent = await store.create({ id: 'p' });
    appendAll(parent, RICH);
    const cut = parent.events.length - 1;
    const child = await store.fork('p', { atSeq: cut, id: 'c' });
    appendAll(child, completedTurnRows(3));
    const childCut = child.events.length - 1;
    const grand = await store.fork('c', { atSeq: childCut, id: 'g' });
    expect(isInheritedMarker(grand.events[cut + 1])).toBe(true);
    expect(isInheritedMarker(grand.events[childCut + 1])).toBe(true);
    expect(grand.header).toMatchObject({ parentSession: 'c', forkCut: childCut, inheritedEventCount: childCut + 1 });
    expect(grand.inheritedEventCount).toBe(childCut + 1);
    expect(grand.firstLifecycleSeq).toBe(childCut + 1);
    expect(grand.firstLiveSeq).toBe(grand.events.length);
  });

  it("§5.3 a nested fork exactly at the ancestor's marker gives two consecutive markers; the final one counts", async () => {
    const parent = await store.create({ id: 'p' });
    appendAll(parent, RICH);
    const child = await store.fork('p', { atSeq: 4, id: 'c' });
    const grand = await store.fork('c', { atSeq: 5, id: 'g' });
    expect(isInheritedMarker(grand.events[5])).toBe(true);
    expect(isInheritedMarker(grand.events[6])).toBe(true);
    expect(grand.inheritedEventCount).toBe(6);
    expect(grand.firstLifecycleSeq).toBe(6);
    expect(child.events.length).toBeGreaterThan(0);
  });
});

describe('§5.4 host fork-point selection', () => {
  let store: SessionStore;
  let host: Host;
  beforeEach(() => {
    store = createMemoryStore();
    host = createHost({ store });
  });
  afterEach(async () => {
    await host.close();
    await store.close();
  });

  /** A cold session holding `specs` after its create seed. */
  async function cold(id: string, specs: LogJsonRow[]): Promise<SessionEvent[]> {
    const session = await store.create({ id });
    appendAll(session, specs);
    const events = [...session.events];
    await session.close();
    return events;
  }

  const seqOf = (events: readonly SessionEvent[], predicate: (event: SessionEvent) => boolean) => events.findLastIndex(predicate);

  it('§5.4 host.fork returns exactly { sessionId, parentSession, forkCut, inheritedEventCount } for an explicit atSeq', async () => {
    await cold('p', RICH);
    const result = await host.fork('p', { atSeq: 6 });
    expect(Object.keys(result).sort()).toEqual(['forkCut', 'inheritedEventCount', 'parentSession', 'sessionId']);
    expect(result).toMatchObject({ parentSession: 'p', forkCut: 6, inheritedEventCount: 7 });
    expect((await store.inspect(result.sessionId)).header).toMatchObject({ parentSession: 'p', forkCut: 6, inheritedEventCount: 7 });
  });

  it('§5.4 an explicit atSeq never moves, even inside an open step of a cold source', async () => {
    const events = await cold('p', RICH);
    for (const atSeq of [0, 3, events.length - 3, events.length - 1]) {
      const result = await host.fork('p', { atSeq });
      expect(result.forkCut).toBe(atSeq);
      expect((await store.inspect(result.sessionId)).events).toEqual(buildForkSeed(events, atSeq));
    }
  });

  it('§5.4 an explicit seq not in the observation is INVALID_CUT and creates nothing', async () => {
    const events = await cold('p', RICH);
    const before = (await store.list()).length;
    for (const atSeq of [-1, -2, events.length, events.length + 5, 1.5]) {
      const error = await rejection(host.fork('p', { atSeq }));
      expect(error.code, `atSeq ${atSeq}: ${error.message}`).toBe('INVALID_CUT');
    }
    expect((await store.list()).length).toBe(before);
  });

  it('§5.4 omitted atSeq: the latest closed turn plus its independent tail, up to the next input/queued', async () => {
    const events = await cold('p', [
      ...completedTurnRows(1),
      logRow.title('renamed'),
      logRow.config({ cwd: '/w' }),
      logRow.plugin('compaction/start'),
      logRow.plugin('compaction/end'),
      logRow.queued('in-2', 'next'),
      logRow.turnStart(2),
      logRow.user('u2', 'next', 'in-2'),
    ]);
    const expected = seqOf(events, (event) => event.type === 'input/queued') - 1;
    const result = await host.fork('p');
    expect(result.forkCut).toBe(expected);
    expect(result.inheritedEventCount).toBe(expected + 1);
    expect(events[expected]?.type).toBe('compaction/end');
  });

  it('§5.4 omitted atSeq keeps a manual compaction replacement and stops before the next turn/start', async () => {
    const session = await store.create({ id: 'p' });
    const turn = appendAll(session, completedTurnRows(1));
    appendAll(session, [
      logRow.plugin('compaction/start'),
      logRow.replaceUser('sum', 'summary', turn[1]!.seq, turn[3]!.seq),
      logRow.plugin('compaction/end'),
      logRow.turnStart(2),
      logRow.user('u2', 'x'),
    ]);
    const events = [...session.events];
    await session.close();
    const result = await host.fork('p');
    expect(result.forkCut).toBe(seqOf(events, (event) => event.type === 'turn/start') - 1);
    expect(events[result.forkCut]?.type).toBe('compaction/end');
    expect((await store.inspect(result.sessionId)).events.some((event) => event.surfaceOp !== undefined)).toBe(true);
  });

  it('§5.4 omitted atSeq counts a turn closed with any reason', async () => {
    const events = await cold('p', [
      ...completedTurnRows(1),
      logRow.turnStart(2),
      logRow.user('u', 'q'),
      logRow.turnEnd(2, { kind: 'cancelled' }),
      logRow.title('after'),
    ]);
    expect((await host.fork('p')).forkCut).toBe(events.length - 1);
  });

  it('§5.4 omitted atSeq with no closed turn: the standalone prefix before the first turn/start or input/queued', async () => {
    const events = await cold('p', [logRow.title('t'), logRow.config({ cwd: '/x' }), logRow.queued('i', 'hello'), logRow.turnStart(1)]);
    expect((await host.fork('p')).forkCut).toBe(seqOf(events, (event) => event.type === 'input/queued') - 1);
  });

  it('§5.4 a child never inherits pending input: its observation has no pending inputs and its queue starts empty', async () => {
    const events = await cold('p', [...completedTurnRows(1), logRow.queued('old', 'do not run me')]);
    const result = await host.fork('p', { atSeq: events.length - 1 });
    const observation = await host.observe(result.sessionId);
    expect(observation.pendingInputs).toEqual([]);
    expect(observation.events.some((event) => event.type === 'input/queued')).toBe(true);
    const { inputId } = await host.send(result.sessionId, 'fresh input');
    await host.idle(result.sessionId);
    const after = (await host.observe(result.sessionId)).events;
    const claimed = after.filter((event) => event.type === 'user/message').map((event) => (event.data as { inputId?: string }).inputId);
    expect(claimed).toContain(inputId);
    expect(claimed).not.toContain('old');
  });

  it('§5.4 a cold source whose last turn was interrupted forks from its stored events only', async () => {
    const events = await cold('p', RICH);
    const result = await host.fork('p', { atSeq: events.length - 1 });
    const child = (await store.inspect(result.sessionId)).events;
    expect(child).toEqual(buildForkSeed(events, events.length - 1));
    expect(JSON.stringify(child)).not.toMatch(/interrupted/);
  });

  it('§5.4 a live source: the fork is selected from one snapshot of the running log', async () => {
    const { sessionId } = await host.create({ title: 'live' });
    await host.send(sessionId, 'hello');
    await host.idle(sessionId);
    const observed = await host.observe(sessionId);
    expect(observed.live).toBe(true);
    const lastTurnEnd = seqOf(observed.events, (event) => event.type === 'turn/end');
    expect(lastTurnEnd).toBeGreaterThan(0);
    const result = await host.fork(sessionId);
    expect(result.forkCut).toBe(observed.events.length - 1);
    expect(result.forkCut).toBeGreaterThanOrEqual(lastTurnEnd);
    const child = await host.observe(result.sessionId);
    expect(child.events.slice(0, result.forkCut + 1)).toEqual(observed.events.slice(0, result.forkCut + 1));
  });
});

describe('§5.4 host fork from a live session in the middle of a turn', () => {
  it('§5.4 omitted atSeq excludes the running turn and its queued input; an explicit cut inside it gets forked closers', async () => {
    let release: (() => void) | undefined;
    let requested: (() => void) | undefined;
    const started = new Promise<void>((resolve) => {
      requested = resolve;
    });
    const model: Model = {
      name: 'gated',
      complete: () =>
        new Promise((resolve) => {
          requested!();
          release = () => {
            resolve({ text: 'finally', toolCalls: [] });
          };
        }),
    };
    const store = createMemoryStore();
    const host = createHost({ store, model });
    try {
      const { sessionId } = await host.create({ title: 'live' });
      await host.send(sessionId, 'first');
      await started;
      const observed = await host.observe(sessionId);
      expect(observed.live).toBe(true);
      const queuedAt = observed.events.findIndex((event) => event.type === 'input/queued');
      const stepStart = observed.events.findIndex((event) => event.type === 'step/start');
      expect(stepStart).toBeGreaterThan(queuedAt);
      const omitted = await host.fork(sessionId);
      expect(omitted.forkCut).toBe(queuedAt - 1);
      const child = await host.observe(omitted.sessionId);
      expect(child.events.some((event) => event.type === 'input/queued' || event.type === 'turn/start')).toBe(false);
      expect(child.pendingInputs).toEqual([]);
      const explicit = await host.fork(sessionId, { atSeq: stepStart });
      expect(explicit.forkCut).toBe(stepStart);
      const closed = (await host.observe(explicit.sessionId)).events.slice(stepStart + 2);
      expect(closed.map((event) => [event.type, event.data])).toEqual([
        ['step/end', { turn: 1, step: 1 }],
        ['turn/end', { turn: 1, reason: { kind: 'forked' } }],
      ]);
      release!();
      await host.idle(sessionId);
      const parent = await host.observe(sessionId);
      expect(parent.events.slice(0, stepStart + 1)).toEqual(observed.events.slice(0, stepStart + 1));
      expect(parent.events.at(-1)?.data).toMatchObject({ reason: { kind: 'completed' } });
    } finally {
      release?.();
      await host.close();
      await store.close();
    }
  });
});

describe('§5.4 host fork from a cold JSONL source that needs repair', () => {
  let dir: TempDir;
  afterEach(async () => {
    await dir.remove();
  });

  it('§5.4 observing and forking a crashed cold source writes nothing to it; the child holds forked closers only', async () => {
    dir = await makeTempDir();
    const events = toEvents([logRow.title('crashed'), ...RICH.slice(1)]);
    const file = join(dir.path, 'crashed.jsonl');
    await writeFile(file, jsonl(v4Header('crashed'), events));
    const bytes = await readFile(file);
    const store = await openSessionStore({ dir: dir.path });
    const host = createHost({ store });
    try {
      const observed = await host.observe('crashed');
      expect(observed.needsRepair).toBe(true);
      expect(observed.events).toEqual(events);
      const explicit = await host.fork('crashed', { atSeq: events.length - 1 });
      const child = (await store.inspect(explicit.sessionId)).events;
      expect(child).toEqual(buildForkSeed(events, events.length - 1));
      expect(JSON.stringify(child)).not.toContain('interrupted');
      const omitted = await host.fork('crashed');
      expect(omitted.forkCut).toBe(events.findIndex((event) => event.type === 'input/queued') - 1);
      expect((await readFile(file)).equals(bytes)).toBe(true);
    } finally {
      await host.close();
      await store.close();
    }
  });

  it('§5.4 omitted atSeq counts forked and interrupted turn ends as closed turns', async () => {
    dir = await makeTempDir();
    const store = await openSessionStore({ dir: dir.path });
    const host = createHost({ store });
    try {
      const parent = await store.create({ id: 'p' });
      appendAll(parent, RICH);
      const child = await store.fork('p', { atSeq: parent.events.length - 1, id: 'c' });
      expect(child.events.at(-1)?.data).toMatchObject({ reason: { kind: 'forked' } });
      await child.close();
      expect((await host.fork('c')).forkCut).toBe(child.events.length - 1);
      await parent.close();
      const repaired = await store.open('p');
      const interruptedEnd = repaired.events.findLastIndex((event) => event.type === 'turn/end');
      expect(repaired.events[interruptedEnd]?.data).toMatchObject({ reason: { kind: 'interrupted' } });
      await repaired.close();
      // The plain end-seed after the repair closers is standalone: it belongs to the tail.
      expect((await host.fork('p')).forkCut).toBe(repaired.events.length - 1);
    } finally {
      await host.close();
      await store.close();
    }
  });
});

describe('§5.4 host fork with an empty standalone prefix', () => {
  let dir: TempDir;
  afterEach(async () => {
    await dir.remove();
  });

  it('§5.4 no closed turn and nothing before the first turn/start: cut = -1, the child inherits nothing', async () => {
    dir = await makeTempDir();
    const events = toEvents([logRow.turnStart(1), logRow.user('u', 'hi'), logRow.stepStart(1, 1)]);
    await writeFile(join(dir.path, 'bare.jsonl'), jsonl(v4Header('bare'), events));
    const store = await openSessionStore({ dir: dir.path });
    const host = createHost({ store });
    try {
      const result = await host.fork('bare');
      expect(result).toEqual({ sessionId: result.sessionId, parentSession: 'bare', forkCut: -1, inheritedEventCount: 0 });
      const child = await store.inspect(result.sessionId);
      expect(child.events[0]).toMatchObject({ seq: 0, type: 'session/end-seed', data: { inherited: true } });
      expect(child.events.some((event) => event.type === 'turn/start')).toBe(false);
      expect(child.header).toMatchObject({ parentSession: 'bare', forkCut: -1, inheritedEventCount: 0 });
    } finally {
      await host.close();
      await store.close();
    }
  });
});
