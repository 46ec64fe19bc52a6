import { logEvent } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from 'dsh-codec';
import { findEvents, selectForkCut } from 'dsh-session';
import { storeKinds } from '../__fixtures__/store-kinds.js';

const event = (seq: number, type: string, data: object) => logEvent<SessionEvent>(seq, type, data, { time: 1000 + seq });

describe('findEvents', () => {
  const events = [
    event(0, 'session/title', { title: 'a' }),
    event(1, 'session/config', { cwd: '/w' }),
    event(2, 'session/title', { title: 'b' }),
    event(3, 'session/config', { model: 'm' }),
    event(4, 'session/title', { title: 'c' }),
  ];

  it('returns the events of the given types in seq order, also when the types interleave', () => {
    expect(findEvents(events, ['session/title', 'session/config']).map((found) => found.seq)).toEqual([0, 1, 2, 3, 4]);
    expect(findEvents(events, ['session/config']).map((found) => found.seq)).toEqual([1, 3]);
    expect(findEvents(events, ['turn/start'])).toEqual([]);
  });

  it('keeps only the events before a seq, and only the latest few when asked', () => {
    expect(findEvents(events, ['session/title'], { before: 4 }).map((found) => found.seq)).toEqual([0, 2]);
    expect(findEvents(events, ['session/title', 'session/config'], { latest: 2 }).map((found) => found.seq)).toEqual([3, 4]);
    expect(findEvents(events, ['session/title'], { before: 4, latest: 1 }).map((found) => found.seq)).toEqual([2]);
    expect(findEvents(events, ['session/title'], { before: 0 })).toEqual([]);
    expect(findEvents(events, ['session/title', 'session/config'], { after: 2 }).map((found) => found.seq)).toEqual([3, 4]);
    expect(findEvents(events, ['session/title'], { after: 0, before: 4 }).map((found) => found.seq)).toEqual([2]);
  });

  describe.each(storeKinds)('of an observation ($name)', (kind) => {
    it('reads the same events from a live and a stored log, and selectForkCut takes the cut fork would', async () => {
      const kit = await kind.make();
      try {
        const session = await kit.store.create({ id: 's', title: 'one' });
        session.append('session/title', { title: 'two' });
        session.append('session/config', { cwd: '/w' });
        session.append('session/title', { title: 'three' });
        await session.flush();
        const titles = (found: SessionEvent[]) => found.map((item) => (item.data as { title: string }).title);
        expect(titles(findEvents(await kit.store.observe('s'), ['session/title']))).toEqual(['one', 'two', 'three']);
        await session.close();
        const cold = await kit.another();
        const observation = await cold.observe('s');
        expect(titles(findEvents(observation, ['session/title'], { latest: 2 }))).toEqual(['two', 'three']);
        const cut = selectForkCut(observation, 'latest-closed-turn');
        expect(cut).toBe(selectForkCut(observation.events, 'latest-closed-turn'));
        const child = await cold.fork(observation, { atSeq: 'latest-closed-turn' });
        expect(child.header.forkCut).toBe(cut);
        await child.close();
        await cold.close();
      } finally {
        await kit.cleanup();
      }
    });
  });
});
