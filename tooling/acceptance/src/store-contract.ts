/**
 * The `SessionStore` contract (SPEC §5, §6, §8, §11), written once and run against every backend:
 * `defineStoreContract(name, harness)` registers the suite for one store. A harness opens any number
 * of stores on one shared storage (like processes sharing a directory or a database) and cleans up.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from 'dsh-codec';
import { SessionError, type Session, type SessionStore } from 'dsh-session';
import { buildForkSeed } from 'dsh-session/fork';
import { arbitraryLog, completedTurnRows, type LogJsonRow, logRow } from '@dsh/test-utils';
import { appendAll, rejection } from './support.js';

/** One storage shared by the stores it opens. */
export type StoreHarness = {
  /** Opens another store on this harness's storage. */
  open(): Promise<SessionStore>;
  /** Removes the storage (stores are closed before). */
  cleanup(): Promise<void>;
};

/** A turn left open as a crash leaves it: a step whose two calls have no results. */
const OPEN_TURN: LogJsonRow[] = [
  logRow.turnStart(2),
  logRow.user('u-2', 'go'),
  logRow.stepStart(2, 1),
  logRow.assistant(2, 1, 'calling', ['p', 'q']),
  logRow.call(2, 1, 'p'),
  logRow.call(2, 1, 'q'),
];

/** Appends through `session.append` every event of a generated log from index `from`. */
function appendEvents(session: Session, events: readonly SessionEvent[], from: number): void {
  for (const event of events.slice(from)) {
    session.append(event.type, event.data, {
      ...(event.surfaceOp === undefined ? {} : { surfaceOp: event.surfaceOp }),
      ...(event.ignorable === undefined ? {} : { ignorable: event.ignorable }),
    });
  }
}

/** Registers the store contract suite for the stores `makeHarness` opens. */
export function defineStoreContract(name: string, makeHarness: () => Promise<StoreHarness>): void {
  describe(`store contract: ${name}`, () => {
    let harness: StoreHarness;
    let stores: SessionStore[];
    let store: SessionStore;
    const another = async (): Promise<SessionStore> => {
      const opened = await harness.open();
      stores.push(opened);
      return opened;
    };
    beforeEach(async () => {
      harness = await makeHarness();
      stores = [];
      store = await another();
    });
    afterEach(async () => {
      await Promise.allSettled(stores.map((opened) => opened.close()));
      await harness.cleanup();
    });

    it('§11 create persists the session with its title and config; flush makes appends durable for another store', async () => {
      const session = await store.create({ id: 'alpha', title: 'A', config: { cwd: '/w', tools: ['read'] } });
      appendAll(session, completedTurnRows(1, ['c1']));
      await session.flush();
      const other = await another();
      const inspection = await other.inspect('alpha');
      expect(inspection.events).toEqual(session.events);
      expect(inspection.header).toEqual(session.header);
      expect(inspection.needsRepair).toBe(false);
      expect(session.events.slice(0, 2).map((event) => event.type)).toEqual(['session/title', 'session/config']);
    });

    it('§8 SESSION_EXISTS for a taken id, in this store and in another one; concurrent creates: exactly one wins', async () => {
      await (await store.create({ id: 'taken' })).close();
      expect((await rejection(store.create({ id: 'taken' }))).code).toBe('SESSION_EXISTS');
      const other = await another();
      expect((await rejection(other.create({ id: 'taken' }))).code).toBe('SESSION_EXISTS');
      const results = await Promise.allSettled([
        store.create({ id: 'race' }),
        other.create({ id: 'race' }),
        other.fork('taken', { atSeq: 0, id: 'race' }),
      ]);
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
      for (const result of results) if (result.status === 'rejected') expect((result.reason as SessionError).code).toBe('SESSION_EXISTS');
    });

    it('§8 invalid session ids are refused before storage is touched', async () => {
      await (await store.create({ id: 'ok' })).close();
      for (const id of ['../x', "a'; DROP TABLE sessions; --", '', 'x'.repeat(129), 'sp ace', 'dot.id']) {
        for (const attempt of [
          store.create({ id }),
          store.open(id),
          store.inspect(id),
          store.delete(id),
          store.fork('ok', { atSeq: 0, id }),
          store.fork(id, { atSeq: 0 }),
        ]) {
          const error = await rejection(attempt);
          expect(error.code, id).toBe('INVALID_SESSION_ID');
        }
      }
      expect((await store.list()).map((summary) => summary.id)).toEqual(['ok']);
    });

    it('§8 one writer per session: another store gets SESSION_BUSY naming the holder and suggesting a fork, until it is closed', async () => {
      const session = await store.create({ id: 'held' });
      await session.flush();
      const other = await another();
      const busy = await rejection(other.open('held'));
      expect(busy.code).toBe('SESSION_BUSY');
      expect(busy.message).toMatch(/fork/);
      expect(SessionError.is(busy) ? busy.holder?.pid : undefined).toBe(process.pid);
      expect(busy.message).toContain(String(process.pid));
      expect((await rejection(other.delete('held'))).code).toBe('SESSION_BUSY');
      expect((await other.list()).find((summary) => summary.id === 'held')?.busy).toBe(true);
      await session.close();
      const reopened = await other.open('held');
      expect(reopened.events.slice(0, session.events.length)).toEqual(session.events);
      expect((await store.list()).find((summary) => summary.id === 'held')?.busy).toBe(true);
      expect((await rejection(store.open('held'))).code).toBe('SESSION_BUSY');
    });

    it('§6 open repairs an interrupted turn with interrupted closers, durably; inspect never writes; reopening grows nothing', async () => {
      const crashed = await store.create({ id: 'c' });
      appendAll(crashed, [...completedTurnRows(1), ...OPEN_TURN]);
      await crashed.close();
      const stored = (await store.inspect('c')).events;
      const other = await another();
      const inspection = await other.inspect('c');
      expect(inspection.needsRepair).toBe(true);
      expect(inspection.events).toEqual(stored);
      await other.list();
      expect((await other.inspect('c')).events).toEqual(stored);
      const repaired = await other.open('c');
      const added = repaired.events.slice(stored.length);
      expect(added.map((event) => event.type)).toEqual(['tool/result', 'tool/result', 'step/end', 'turn/end', 'session/end-seed']);
      expect(added[3]?.data).toEqual({ turn: 2, reason: { kind: 'interrupted' } });
      expect(repaired.firstLifecycleSeq).toBe(stored.length);
      await repaired.close();
      expect((await store.inspect('c')).events).toEqual(repaired.events);
      for (let round = 0; round < 2; round++) {
        const again = await store.open('c');
        expect(again.events).toEqual(repaired.events);
        await again.close();
      }
    });

    it('§5.2 fork at every seq of a live source: the child is buildForkSeed(source, atSeq), durable, with its header counters', async () => {
      const source = await store.create({ id: 'src', title: 'source' });
      appendAll(source, [...completedTurnRows(1, ['a']), ...OPEN_TURN]);
      await source.flush();
      const events = [...source.events];
      const other = await another();
      for (let atSeq = 0; atSeq < events.length; atSeq++) {
        const child = await store.fork('src', { atSeq, id: `kid-${String(atSeq)}` });
        expect(child.events).toEqual(buildForkSeed(events, atSeq));
        expect(child.header).toMatchObject({ parentSession: 'src', forkCut: atSeq, inheritedEventCount: atSeq + 1 });
        expect(child.inheritedEventCount).toBe(atSeq + 1);
        expect(child.firstLifecycleSeq).toBe(atSeq + 1);
        await child.close();
        const read = await other.inspect(`kid-${String(atSeq)}`);
        expect(read.events).toEqual(child.events);
        expect(read.header).toEqual(child.header);
      }
      expect((await other.inspect('src')).events).toEqual(events);
    });

    it('§5.2 fork of a cold source stored by another store, and of a live source at a seq not flushed yet', async () => {
      const source = await store.create({ id: 'cold' });
      appendAll(source, completedTurnRows(1, ['a', 'b']));
      await source.close();
      const other = await another();
      const child = await other.fork('cold', { atSeq: 7, id: 'cold-kid' });
      expect(child.events).toEqual(buildForkSeed(source.events, 7));
      const live = await store.create({ id: 'live' });
      appendAll(live, completedTurnRows(1));
      const unflushed = live.events.length - 1;
      const early = await store.fork('live', { atSeq: unflushed, id: 'early' });
      expect(early.events).toEqual(buildForkSeed(live.events, unflushed));
      await early.close();
      expect((await other.inspect('early')).events).toEqual(early.events);
    });

    it('§5.2 fork refusals: SESSION_EXISTS first, then SESSION_NOT_FOUND, then INVALID_CUT naming the last seq; nothing is created', async () => {
      const source = await store.create({ id: 's' });
      appendAll(source, completedTurnRows(1));
      await source.flush();
      await (await store.create({ id: 'busy-id' })).close();
      expect((await rejection(store.fork('missing', { atSeq: 99, id: 'busy-id' }))).code).toBe('SESSION_EXISTS');
      expect((await rejection(store.fork('missing', { atSeq: 99, id: 'n' }))).code).toBe('SESSION_NOT_FOUND');
      const last = source.events.length - 1;
      for (const atSeq of [-1, 1.5, last + 1, Number.NaN]) {
        const error = await rejection(store.fork('s', { atSeq, id: 'n' }));
        expect(error.code).toBe('INVALID_CUT');
        expect(error.message).toContain(String(last));
      }
      expect(await store.has('n')).toBe(false);
      expect((await store.list()).map((summary) => summary.id).sort()).toEqual(['busy-id', 's']);
    });

    it('§14 deleting a parent and a grandparent leaves every descendant readable and unchanged', async () => {
      const root = await store.create({ id: 'root' });
      appendAll(root, [...completedTurnRows(1, ['a']), ...completedTurnRows(2)]);
      await root.flush();
      const child = await store.fork('root', { atSeq: 9, id: 'child' });
      appendAll(child, completedTurnRows(2));
      await child.close();
      const grandchild = await store.fork('child', { atSeq: child.events.length - 3, id: 'grandchild' });
      appendAll(grandchild, completedTurnRows(3));
      await grandchild.close();
      const other = await another();
      const before = { child: (await other.inspect('child')).events, grandchild: (await other.inspect('grandchild')).events };
      await root.close();
      await store.delete('root');
      expect((await rejection(other.inspect('root'))).code).toBe('SESSION_NOT_FOUND');
      expect((await other.inspect('child')).events).toEqual(before.child);
      await other.delete('child');
      expect(JSON.stringify((await other.inspect('grandchild')).events)).toBe(JSON.stringify(before.grandchild));
      const reopened = await store.open('grandchild');
      expect(reopened.events.slice(0, before.grandchild.length)).toEqual(before.grandchild);
      await reopened.close();
      expect((await store.list()).map((summary) => summary.id)).toEqual(['grandchild']);
    });

    it('§11 list reports lineage and state; delete removes a session nobody holds', async () => {
      const parent = await store.create({ id: 'p', title: 'parent' });
      appendAll(parent, [...completedTurnRows(1), ...OPEN_TURN]);
      await parent.close();
      await (await store.fork('p', { atSeq: 2, id: 'c', title: 'kid' })).close();
      const summaries = await (await another()).list();
      expect(summaries.find((summary) => summary.id === 'c')).toMatchObject({
        parentSession: 'p',
        forkCut: 2,
        inheritedEventCount: 3,
        title: 'kid',
        busy: false,
      });
      expect(summaries.find((summary) => summary.id === 'p')).toMatchObject({ title: 'parent', needsRepair: true, inheritedEventCount: 0 });
      await store.delete('c');
      expect(await store.has('c')).toBe(false);
      expect((await rejection(store.delete('c'))).code).toBe('SESSION_NOT_FOUND');
      expect((await rejection(store.open('c'))).code).toBe('SESSION_NOT_FOUND');
    });

    it('§8 group commit: concurrent writers on many sessions lose nothing and keep every log contiguous', async () => {
      const sessions = await Promise.all(Array.from({ length: 8 }, (_, index) => store.create({ id: `w${String(index)}` })));
      await Promise.all(
        sessions.map(async (session) => {
          for (let turn = 1; turn <= 5; turn++) {
            appendAll(session, completedTurnRows(turn, [`c${String(turn)}`]));
            await session.flush();
          }
        }),
      );
      const other = await another();
      for (const session of sessions) {
        const read = await other.inspect(session.id);
        expect(read.events).toEqual(session.events);
        expect(read.events.map((event) => event.seq)).toEqual(read.events.map((_, index) => index));
      }
    });

    it('§5 property: any generated log, forked at any seq, reads back as buildForkSeed from every store', async () => {
      const base = await store.create({ id: 'base' });
      const start = [...base.events];
      await base.close();
      const other = await another();
      let run = 0;
      await fc.assert(
        fc.asyncProperty(arbitraryLog({ after: start, maxTurns: 3 }), fc.nat(), async (log, pick) => {
          run++;
          const source = await store.create({ id: `g${String(run)}` });
          appendEvents(source, log, start.length);
          await source.flush();
          const atSeq = pick % source.events.length;
          const child = await store.fork(source.id, { atSeq, id: `g${String(run)}-kid` });
          expect(child.events).toEqual(buildForkSeed(source.events, atSeq));
          await child.close();
          expect((await other.inspect(child.id)).events).toEqual(child.events);
          await source.close();
        }),
        { numRuns: 15 },
      );
    });

    it('§11 a closed session refuses appends; a closed store refuses operations', async () => {
      const session = await store.create({ id: 'x' });
      await session.close();
      expect(SessionError.is(await rejection(() => session.append('session/title', { title: 'late' })))).toBe(true);
      await store.close();
      expect((await rejection(store.list())).code).toBe('STORE_CLOSED');
    });
  });
}
