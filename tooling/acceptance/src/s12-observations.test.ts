/** SPEC §12 — observations and the fork path: observe(), fork from an observation, the version open() read, durable fork idempotency. */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CURRENT_FORMAT_VERSION } from 'dsh-codec';
import { openSessionStore, type SessionStore } from 'dsh-session';
import { buildForkSeed } from 'dsh-session/fork';
import { createHost } from 'dsh-host';
import { completedTurnRows, logRow, makeTempDir, type TempDir } from '@dsh/test-utils';
import { appendAll, headerOf, jsonl, rejection, toEvents } from './support.js';

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

const OPEN_STEP = [
  logRow.title('p'),
  ...completedTurnRows(1, ['a1']),
  logRow.turnStart(2),
  logRow.user('u2', 'go'),
  logRow.stepStart(2, 1),
  logRow.assistant(2, 1, '', ['x', 'y']),
  logRow.call(2, 1, 'x', 'side-effect'),
];

describe('§12 observations', () => {
  it('§12 observe(id) returns one immutable observation { header, events, formatVersion, needsRepair, live }', async () => {
    const session = await store.create({ id: 'live' });
    appendAll(session, OPEN_STEP);
    await session.flush();
    const live = await store.observe('live');
    expect(live).toMatchObject({ header: { id: 'live' }, formatVersion: CURRENT_FORMAT_VERSION, needsRepair: false, live: true });
    expect(live.events).toEqual(session.events);
    expect(Object.isFrozen(live) && Object.isFrozen(live.events)).toBe(true);
    await session.close();
    const cold = await store.observe('live');
    expect(cold).toMatchObject({ live: false, needsRepair: true });
    expect(cold.events).toEqual(live.events);
  });

  it('§12 observing never writes, not even for a log that needs repair', async () => {
    const text = jsonl(headerOf(4, 'crashed'), toEvents(OPEN_STEP));
    await writeFile(join(dir.path, 'crashed.jsonl'), text);
    expect((await store.observe('crashed')).needsRepair).toBe(true);
    const again = await openSessionStore({ dir: dir.path });
    try {
      expect((await again.inspect('crashed')).needsRepair).toBe(true);
    } finally {
      await again.close();
    }
  });

  it('§12 fork(observation) neither reads nor decodes the source again: it forks what was observed', async () => {
    await writeFile(join(dir.path, 'gone.jsonl'), jsonl(headerOf(4, 'gone'), toEvents(OPEN_STEP)));
    const observation = await store.observe('gone');
    // The source disappears after it was observed: a fork from the observation cannot have read it.
    await rm(join(dir.path, 'gone.jsonl'));
    const cut = OPEN_STEP.length - 1;
    const child = await store.fork(observation, { atSeq: cut, id: 'child' });
    expect(child.events.slice(0, buildForkSeed(observation.events, cut).length)).toEqual(buildForkSeed(observation.events, cut));
    expect(child.header).toMatchObject({ parentSession: 'gone', forkCut: cut, inheritedEventCount: cut + 1 });
    expect((await rejection(store.fork('gone', { atSeq: 0, id: 'other' }))).code).toBe('SESSION_NOT_FOUND');
  });

  it('§12 the cut is checked against the observation itself; -0 is seq 0', async () => {
    const session = await store.create({ id: 'p' });
    const observation = await store.observe('p');
    appendAll(session, completedTurnRows(1));
    await session.flush();
    expect((await rejection(store.fork(observation, { atSeq: observation.events.length, id: 'late' }))).code).toBe('INVALID_CUT');
    const zero = await store.fork(observation, { atSeq: JSON.parse('-0') as number, id: 'zero' });
    expect(Object.is(zero.header.forkCut, 0)).toBe(true);
  });

  it('§12 open(id) reports the format version it read', async () => {
    await writeFile(join(dir.path, 'old.jsonl'), jsonl(headerOf(3, 'old'), toEvents([logRow.title('old'), ...completedTurnRows(1)])));
    const session = await store.open('old');
    expect(session.formatVersion).toBe(3);
    const fresh = await store.create({ id: 'fresh' });
    expect(fresh.formatVersion).toBe(CURRENT_FORMAT_VERSION);
  });
});

describe('§12 durable fork idempotency', () => {
  async function forkOverHttp(atSeq: number, key: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const host = createHost({ store });
    try {
      const response = await host.fetch(
        new Request('http://127.0.0.1/api/sessions/parent/fork', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': key },
          body: JSON.stringify({ atSeq }),
        }),
      );
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    } finally {
      await host.close();
    }
  }

  it('§12 the key and a digest of the request are stored in the child header (V5 forkRequest); the same key after a restart returns the same child', async () => {
    const parent = await store.create({ id: 'parent' });
    appendAll(parent, [logRow.title('p'), ...completedTurnRows(1, ['a1'])]);
    await parent.close();
    const first = await forkOverHttp(3, 'order-42');
    expect(first.status).toBe(201);
    const childId = String(first.body.sessionId);
    const child = await store.observe(childId);
    expect(child.header.forkRequest).toMatchObject({ key: 'order-42', digest: expect.any(String) });
    // Restart: a new store over the same directory, a new host; nothing is remembered in memory.
    await store.close();
    store = await openSessionStore({ dir: dir.path });
    const again = await forkOverHttp(3, 'order-42');
    expect(again.status).toBe(201);
    expect(again.body.sessionId).toBe(childId);
    expect((await store.list()).filter((summary) => summary.parentSession === 'parent')).toHaveLength(1);
  });

  it('§12 a different request under the same key is refused with 422 IDEMPOTENCY_MISMATCH, after a restart too', async () => {
    const parent = await store.create({ id: 'parent' });
    appendAll(parent, [logRow.title('p'), ...completedTurnRows(1, ['a1'])]);
    await parent.close();
    expect((await forkOverHttp(3, 'order-43')).status).toBe(201);
    await store.close();
    store = await openSessionStore({ dir: dir.path });
    const mismatch = await forkOverHttp(2, 'order-43');
    expect(mismatch.status).toBe(422);
    expect((mismatch.body.error as { code: string }).code).toBe('IDEMPOTENCY_MISMATCH');
    expect((await store.list()).filter((summary) => summary.parentSession === 'parent')).toHaveLength(1);
  });
});
