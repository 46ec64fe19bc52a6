import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CURRENT_FORMAT_VERSION, validate, type SessionEvent, type SessionHeader } from 'dsh-codec';
import { SessionError, type Session } from 'dsh-session';
import { buildForkSeed } from 'dsh-session/fork';
import { LogBuilder } from '@dsh/test-utils';
import { storeKinds, type StoreKit } from '../__fixtures__/store-kinds.js';

const currentHeader = (id: string, extra: Partial<SessionHeader> = {}): SessionHeader => ({
  format: 'dsh-session',
  version: 7,
  id,
  createdAt: 1_000,
  inheritedEventCount: 0,
  ...extra,
});

/** A log as a writer that crashed mid-step leaves it: one started call, one never started. */
function crashedLog(): SessionEvent[] {
  return new LogBuilder()
    .endSeed()
    .title('crashed')
    .turn({ steps: [{ calls: [{ run: 'answered' }] }] })
    .turn({ steps: [{ calls: [{ run: 'started', effect: 'side-effect' }, { run: 'declared' }], open: true }], end: 'open' }).events;
}

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    if (SessionError.is(error)) return error.code;
    throw error;
  }
  return undefined;
}

async function errorOf(promise: Promise<unknown>): Promise<SessionError> {
  try {
    await promise;
  } catch (error) {
    if (SessionError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a SessionError');
}

function appendTurn(session: Session, turn: number, text = 'hello'): void {
  session.append('turn/start', { turn });
  session.append('user/message', { message: { id: `u${turn}`, role: 'user', content: [{ type: 'text', text }] } });
  session.append('step/start', { turn, step: 1 });
  session.append('assistant/message', {
    turn,
    step: 1,
    message: { id: `a${turn}`, role: 'assistant', content: [{ type: 'tool-call', id: `c${turn}`, name: 'read', arguments: '{}' }] },
  });
  session.append('tool/call', { turn, step: 1, callId: `c${turn}`, name: 'read', arguments: '{}', effect: 'read-only' });
}

describe.each(storeKinds)('$name', (kind) => {
  let kit: StoreKit;
  beforeEach(async () => {
    kit = await kind.make();
  });
  afterEach(async () => {
    await kit.cleanup();
  });

  describe('create', () => {
    it('persists the new session with its title, config and seed marker before returning it', async () => {
      const session = await kit.store.create({ id: 'new-1', title: 'Hello', config: { tools: ['read'], cwd: '/repo' } });
      expect(session.events.map((event) => event.type)).toEqual(['session/title', 'session/config', 'session/end-seed']);
      expect(session.header).toMatchObject({ format: 'dsh-session', version: 7, id: 'new-1', cwd: '/repo', inheritedEventCount: 0 });
      expect([session.firstLifecycleSeq, session.firstLiveSeq, session.inheritedEventCount]).toEqual([0, 3, 0]);
      const other = await kit.another();
      expect((await other.inspect('new-1')).events).toEqual(session.events);
      expect(await kit.store.has('new-1')).toBe(true);
      expect(await other.has('new-1')).toBe(true);
    });

    it('generates a valid id when none is given', async () => {
      const session = await kit.store.create();
      expect(session.id).toMatch(/^[A-Za-z0-9_-]{1,128}$/);
      expect(await kit.store.has(session.id)).toBe(true);
    });

    it('refuses an existing id with SESSION_EXISTS and invalid ids with INVALID_SESSION_ID', async () => {
      await kit.store.create({ id: 'taken' });
      expect(await codeOf(kit.store.create({ id: 'taken' }))).toBe('SESSION_EXISTS');
      expect(await codeOf((await kit.another()).create({ id: 'taken' }))).toBe('SESSION_EXISTS');
      for (const id of ['', '../escape', 'a/b', '.', 'a.jsonl', 'x'.repeat(129), 'spa ce', '..']) {
        expect(await codeOf(kit.store.create({ id })), id).toBe('INVALID_SESSION_ID');
        expect(await kit.store.has(id)).toBe(false);
      }
      expect((await kit.store.list()).map((summary) => summary.id)).toEqual(['taken']);
    });
  });

  describe('open and the single-writer lease', () => {
    it('refuses a session already held with SESSION_BUSY naming the holder and suggesting a fork', async () => {
      await kit.store.create({ id: 'held' });
      const error = await errorOf(kit.store.open('held'));
      expect(error.code).toBe('SESSION_BUSY');
      expect(error.message).toContain(`pid ${process.pid}`);
      expect(error.message).toMatch(/fork/);
      expect(error.holder?.pid).toBe(process.pid);
      const other = await kit.another();
      expect(await codeOf(other.open('held'))).toBe('SESSION_BUSY');
      // Forking a busy session works: it reads the stored events.
      const child = await other.fork('held', { atSeq: 0, id: 'from-busy' });
      expect(child.header.parentSession).toBe('held');
    });

    it('opens a closed session again, and SESSION_NOT_FOUND for an unknown id', async () => {
      const session = await kit.store.create({ id: 'again' });
      appendTurn(session, 1);
      await session.close();
      const other = await kit.another();
      const reopened = await other.open('again');
      expect(reopened.events.slice(0, session.events.length)).toEqual(session.events);
      expect(await codeOf(kit.store.open('missing'))).toBe('SESSION_NOT_FOUND');
      expect(await codeOf(kit.store.inspect('missing'))).toBe('SESSION_NOT_FOUND');
      expect(await codeOf(kit.store.open('../etc/passwd'))).toBe('INVALID_SESSION_ID');
    });

    it('releases every lease on store close, so another store can open the session', async () => {
      await kit.store.create({ id: 'released' });
      await kit.store.close();
      expect(await codeOf(kit.store.open('released'))).toBe('STORE_CLOSED');
      const other = await kit.another();
      const session = await other.open('released');
      expect(session.closed).toBe(false);
    });
  });

  describe('crash recovery', () => {
    it('inspect reports the stored events and needsRepair without writing', async () => {
      const events = crashedLog();
      await kit.plant(currentHeader('crashed'), events);
      const before = await kit.raw('crashed');
      const inspection = await kit.store.inspect('crashed');
      expect(inspection.needsRepair).toBe(true);
      expect(inspection.events).toEqual(events);
      expect(inspection.formatVersion).toBe(7);
      expect(await kit.raw('crashed')).toEqual(before);
      expect((await kit.store.list())[0]).toMatchObject({ id: 'crashed', needsRepair: true, busy: false, lastSeq: events.length - 1 });
      expect(await kit.raw('crashed')).toEqual(before);
    });

    it('open closes the interrupted turn once, persists it, and a reopen grows nothing', async () => {
      const events = crashedLog();
      await kit.plant(currentHeader('crashed'), events);
      const session = await kit.store.open('crashed');
      const repair = session.events.slice(events.length);
      expect(repair.map((event) => event.type)).toEqual(['tool/result', 'tool/result', 'step/end', 'turn/end', 'session/end-seed']);
      expect(repair.slice(0, 2).map((event) => (event.data as { message: { id: string } }).message.id)).toEqual([
        expect.stringMatching(new RegExp(`^interrupted-tool-result-call-\\d+-${events.length}$`)),
        expect.stringMatching(new RegExp(`^interrupted-tool-result-call-\\d+-${events.length + 1}$`)),
      ]);
      expect(repair.slice(0, 2).map((event) => (event.data as { error: { code: string } }).error.code)).toEqual([
        'TOOL_OUTCOME_UNKNOWN',
        'TOOL_NOT_STARTED',
      ]);
      expect(repair[3]!.data).toEqual({ turn: 2, reason: { kind: 'interrupted' } });
      expect(repair[4]!.data).toEqual({});
      expect(session.firstLifecycleSeq).toBe(events.length);
      expect(session.firstLiveSeq).toBe(events.length + 5);
      expect(session.events.slice(0, events.length)).toEqual(events);
      // Durable before open returned: another store sees the repair.
      const other = await kit.another();
      const inspection = await other.inspect('crashed');
      expect(inspection.events).toEqual(session.events);
      expect(inspection.needsRepair).toBe(false);
      await session.close();
      const reopened = await other.open('crashed');
      expect(reopened.events).toEqual(session.events);
      expect(reopened.firstLiveSeq).toBe(session.events.length);
      expect(reopened.firstLifecycleSeq).toBe(session.events.length);
      await reopened.close();
      const third = await other.open('crashed');
      expect(third.events).toHaveLength(session.events.length);
    });

    it('a live session resumes numbering after repair, and the log stays valid V7', async () => {
      await kit.plant(currentHeader('resume'), crashedLog());
      const session = await kit.store.open('resume');
      appendTurn(session, 3);
      await session.flush();
      const stored = await (await kit.another()).inspect('resume');
      expect(validate(7, { header: stored.header, events: stored.events })).toEqual([]);
      expect(stored.events).toEqual(session.events);
    });

    it('a fork child keeps its durable inheritedEventCount when reopened', async () => {
      const source = await kit.store.create({ id: 'src' });
      appendTurn(source, 1);
      await source.flush();
      const child = await kit.store.fork('src', { atSeq: 3, id: 'kid' });
      await child.close();
      const reopened = await kit.store.open('kid');
      expect(reopened.inheritedEventCount).toBe(4);
      expect(reopened.header).toMatchObject({ parentSession: 'src', forkCut: 3, inheritedEventCount: 4 });
      expect(reopened.firstLifecycleSeq).toBe(child.events.length);
    });
  });

  describe('fork', () => {
    it('forks at any exact seq: the child is the fork seed, the header carries lineage, the parent is unchanged', async () => {
      const source = await kit.store.create({ id: 'p', title: 'parent', config: { cwd: '/p' } });
      appendTurn(source, 1);
      await source.flush();
      const events = source.events.slice();
      const stored = await kit.raw('p');
      for (let cut = 0; cut < events.length; cut += 1) {
        const child = await kit.store.fork('p', { atSeq: cut, id: `c${cut}` });
        expect(child.events).toEqual(buildForkSeed(events, cut));
        expect(child.header).toMatchObject({ id: `c${cut}`, parentSession: 'p', forkCut: cut, inheritedEventCount: cut + 1, cwd: '/p' });
        expect([child.firstLifecycleSeq, child.firstLiveSeq]).toEqual([cut + 1, child.events.length]);
        const persisted = await (await kit.another()).inspect(`c${cut}`);
        expect(persisted.events).toEqual(child.events);
        expect(persisted.needsRepair).toBe(false);
      }
      expect(source.events).toEqual(events);
      expect(await kit.raw('p')).toEqual(stored);
    });

    it('appends the child’s own title and config after the seed, and the child continues turn numbering', async () => {
      const source = await kit.store.create({ id: 'p' });
      appendTurn(source, 1);
      const child = await kit.store.fork('p', { atSeq: source.events.length - 1, id: 'child', title: 'branch', config: { model: 'm2' } });
      expect(child.firstLiveSeq).toBe(child.events.length - 2);
      expect(child.events.slice(-2).map((event) => event.type)).toEqual(['session/title', 'session/config']);
      expect(child.title).toBe('branch');
      const turnStart = child.append('turn/start', { turn: 2 });
      expect(turnStart.seq).toBe(child.events.length - 1);
      await child.flush();
      expect((await (await kit.another()).inspect('child')).events).toEqual(child.events);
    });

    it('merges a configPatch over the config in force at the cut (not the latest), and a config replaces it, as one session/config', async () => {
      const source = await kit.store.create({ id: 'p', config: { cwd: '/base', tools: ['read'], model: 'm1' } });
      appendTurn(source, 1);
      const cut = source.nextSeq - 1;
      source.append('session/config', { cwd: '/later', model: 'm9' });
      await source.close();
      const patched = await kit.store.fork('p', { atSeq: cut, id: 'patched', configPatch: { model: 'm2' } });
      expect(
        patched.events
          .slice(cut + 1)
          .filter((event) => event.type === 'session/config')
          .map((event) => event.data),
      ).toEqual([{ tools: ['read'], cwd: '/base', model: 'm2' }]);
      expect(patched.config).toEqual({ tools: ['read'], cwd: '/base', model: 'm2' });
      expect(patched.header.cwd).toBe('/base');
      const replaced = await kit.store.fork('p', { atSeq: cut, id: 'replaced', config: { model: 'm2' }, configPatch: { cwd: '/ignored' } });
      expect(replaced.config).toEqual({ model: 'm2' });
      const moved = await kit.store.fork('p', { atSeq: cut, id: 'moved', configPatch: { cwd: '/elsewhere' } });
      expect(moved.header.cwd).toBe('/elsewhere');
      for (const child of [patched, replaced, moved]) await child.close();
      expect((await (await kit.another()).inspect('patched')).events).toEqual(patched.events);
    });

    it('checks the child id first (against live and stored sessions), then the source, then the cut; nothing is created on refusal', async () => {
      await kit.store.create({ id: 'p' });
      await kit.store.create({ id: 'live-child' });
      await kit.plant(currentHeader('stored-child'), [{ seq: 0, type: 'session/end-seed', time: 1, data: {} }]);
      expect(await codeOf(kit.store.fork('nope', { atSeq: 99, id: 'live-child' }))).toBe('SESSION_EXISTS');
      expect(await codeOf(kit.store.fork('nope', { atSeq: 99, id: 'stored-child' }))).toBe('SESSION_EXISTS');
      expect(await codeOf(kit.store.fork('nope', { atSeq: 0, id: 'fresh' }))).toBe('SESSION_NOT_FOUND');
      for (const atSeq of [1.5, -1, 1, 99, Number.NaN]) {
        const error = await errorOf(kit.store.fork('p', { atSeq, id: 'fresh' }));
        expect(error.code).toBe('INVALID_CUT');
        expect(error.message).toContain("the source's last seq is 0");
      }
      expect(await kit.store.has('fresh')).toBe(false);
      expect((await kit.store.list()).map((summary) => summary.id).sort()).toEqual(['live-child', 'p', 'stored-child']);
    });

    it('inherits nothing when the latest-closed-turn rule finds no standalone prefix; an explicit -1 stays INVALID_CUT', async () => {
      await kit.plant(currentHeader('queued'), [
        {
          seq: 0,
          type: 'input/queued',
          time: 5,
          data: { inputId: 'i1', message: { id: 'm1', role: 'user', content: [{ type: 'text', text: 'hi' }] } },
        },
      ]);
      expect(await codeOf(kit.store.fork('queued', { atSeq: -1, id: 'refused' }))).toBe('INVALID_CUT');
      const child = await kit.store.fork('queued', { atSeq: 'latest-closed-turn', id: 'empty', title: 'blank' });
      expect(child.events.map((event) => event.type)).toEqual(['session/end-seed', 'session/title']);
      expect(child.events[0]!.data).toEqual({ inherited: true });
      expect(child.header).toMatchObject({ forkCut: -1, inheritedEventCount: 0, parentSession: 'queued' });
      expect([child.firstLifecycleSeq, child.firstLiveSeq, child.inheritedEventCount]).toEqual([0, 1, 0]);
    });

    it('forks from an observation it produced, without reading the source again', async () => {
      const source = await kit.store.create({ id: 'p' });
      const observation = await kit.store.observe('p');
      appendTurn(source, 1);
      await source.flush();
      const child = await kit.store.fork(observation, { atSeq: 0, id: 'obs' });
      expect(child.events).toEqual(buildForkSeed(observation.events, 0));
      // The observation is the whole truth of the fork: a seq the source gained later is not in it.
      expect(await codeOf(kit.store.fork(observation, { atSeq: 3, id: 'obs2' }))).toBe('INVALID_CUT');
      expect(await kit.store.has('obs2')).toBe(false);
    });

    it('refuses an observation it did not produce (INVALID_OBSERVATION), creating nothing', async () => {
      await kit.store.create({ id: 'p' });
      const observation = await kit.store.observe('p');
      const forged = { ...observation };
      expect(await codeOf(kit.store.fork(forged, { atSeq: 0, id: 'forged' }))).toBe('INVALID_OBSERVATION');
      expect(await kit.store.has('forged')).toBe(false);
    });

    it('normalises atSeq -0 to 0 and refuses non-integers before anything is created', async () => {
      const source = await kit.store.create({ id: 'p' });
      const child = await kit.store.fork('p', { atSeq: JSON.parse('{"atSeq":-0}').atSeq as number, id: 'zero' });
      expect(Object.is(child.header.forkCut, 0)).toBe(true);
      expect(child.events.slice(0, 1)).toEqual(source.events.slice(0, 1));
      for (const atSeq of [2 ** 53, JSON.parse('1e400') as number, Number.NaN, '0' as unknown as number]) {
        expect(await codeOf(kit.store.fork('p', { atSeq, id: 'bad' }))).toBe('INVALID_CUT');
      }
      // Nothing was left reserved: the id is still free to use.
      await kit.store.create({ id: 'bad' });
    });

    it('observes a live session from memory and a cold one from storage, never writing', async () => {
      const live = await kit.store.create({ id: 'live', title: 't' });
      const observed = await kit.store.observe('live');
      expect(observed).toMatchObject({ sessionId: 'live', live: true, needsRepair: false, formatVersion: CURRENT_FORMAT_VERSION });
      expect(observed.events).toEqual(live.events);
      expect(Object.isFrozen(observed) && Object.isFrozen(observed.events)).toBe(true);
      await kit.plant(currentHeader('crashed'), crashedLog());
      const before = await kit.raw('crashed');
      const cold = await kit.store.observe('crashed');
      expect(cold).toMatchObject({ sessionId: 'crashed', live: false, needsRepair: true, formatVersion: CURRENT_FORMAT_VERSION });
      expect(cold.events).toEqual(crashedLog());
      expect(await kit.raw('crashed')).toEqual(before);
    });

    it('forks a cold interrupted source from its stored events only, never copying a repair', async () => {
      const events = crashedLog();
      await kit.plant(currentHeader('cold'), events);
      const before = await kit.raw('cold');
      const child = await kit.store.fork('cold', { atSeq: events.length - 1, id: 'warm' });
      expect(child.events).toEqual(buildForkSeed(events, events.length - 1));
      expect(child.events.some((event) => JSON.stringify(event.data).includes('interrupted'))).toBe(false);
      expect(child.events.at(-1)!.data).toEqual({ turn: 2, reason: { kind: 'forked' } });
      expect(await kit.raw('cold')).toEqual(before);
      expect((await kit.store.inspect('cold')).needsRepair).toBe(true);
    });

    it('nests: a fork of a fork keeps the ancestor marker and its lineage', async () => {
      const root = await kit.store.create({ id: 'root' });
      appendTurn(root, 1);
      const child = await kit.store.fork('root', { atSeq: root.events.length - 1, id: 'child' });
      appendTurn(child, 2);
      const grandchild = await kit.store.fork('child', { atSeq: child.events.length - 2, id: 'grandchild' });
      const markers = grandchild.events.filter((event) => event.type === 'session/end-seed' && event.data.inherited);
      expect(markers.map((event) => event.seq)).toEqual([root.events.length, child.events.length - 1]);
      expect(grandchild.header).toMatchObject({ parentSession: 'child', forkCut: child.events.length - 2 });
      expect(validate(7, { header: grandchild.header, events: grandchild.events })).toEqual([]);
    });
  });

  describe('list, has, delete', () => {
    it('lists sessions with lineage, state and format version, most recently updated first', async () => {
      const store = kit.store;
      const parent = await store.create({ id: 'parent', title: 'P', config: { cwd: '/p' } });
      appendTurn(parent, 1);
      await parent.flush();
      const child = await store.fork('parent', { atSeq: 2, id: 'child', title: 'C' });
      await child.close();
      const bare = await store.fork('parent', { atSeq: 1, id: 'bare' });
      await bare.close();
      const summaries = await store.list();
      const byId = Object.fromEntries(summaries.map((summary) => [summary.id, summary]));
      expect(byId.parent).toMatchObject({
        title: 'P',
        cwd: '/p',
        inheritedEventCount: 0,
        lastSeq: parent.events.length - 1,
        formatVersion: 7,
        busy: true,
        needsRepair: false,
      });
      expect(byId.child).toMatchObject({
        title: 'C',
        parentSession: 'parent',
        forkCut: 2,
        inheritedEventCount: 3,
        lastSeq: child.events.length - 1,
        busy: false,
        needsRepair: false,
      });
      expect(byId.child!.updatedAt).toBeGreaterThanOrEqual(byId.child!.createdAt);
      // A child made only of inherited events was still updated when it was created.
      expect(byId.bare!.updatedAt).toBe(byId.bare!.createdAt);
      const order = summaries.map((summary) => summary.updatedAt);
      expect([...order].sort((a, b) => b - a)).toEqual(order);
    });

    it('deletes a session nobody holds; refuses a held one; SESSION_NOT_FOUND afterwards', async () => {
      const held = await kit.store.create({ id: 'held' });
      expect(await codeOf(kit.store.delete('held'))).toBe('SESSION_BUSY');
      expect(await codeOf((await kit.another()).delete('held'))).toBe('SESSION_BUSY');
      await held.close();
      await kit.store.delete('held');
      expect(await kit.store.has('held')).toBe(false);
      expect(await codeOf(kit.store.delete('held'))).toBe('SESSION_NOT_FOUND');
      expect(await codeOf(kit.store.open('held'))).toBe('SESSION_NOT_FOUND');
      // The id can be used again.
      const again = await kit.store.create({ id: 'held' });
      expect(again.events).toHaveLength(1);
    });
  });
});
