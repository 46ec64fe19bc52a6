import { logEvent } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from 'dsh-codec';
import { latestMetadata } from 'dsh-session';
import { storeKinds } from '../__fixtures__/store-kinds.js';

const event = (seq: number, type: string, data: object) => logEvent<SessionEvent>(seq, type, data, { time: 1000 + seq });

describe('latestMetadata', () => {
  it('takes the latest title, the latest config whole, and the cwd of the latest config that names one', () => {
    const events = [
      event(0, 'session/title', { title: 'first' }),
      event(1, 'session/config', { cwd: '/work/a', model: 'm1' }),
      event(2, 'session/title', { title: 'second' }),
      event(3, 'session/config', { tools: ['read'] }),
      event(4, 'session/end-seed', {}),
    ];
    expect(latestMetadata(events, { cwd: '/header' })).toEqual({ title: 'second', config: { tools: ['read'] }, cwd: '/work/a' });
  });

  it("falls back to the header's cwd, and leaves out what the log never said", () => {
    expect(latestMetadata([event(0, 'session/config', { model: 'm' })], { cwd: '/header' })).toEqual({
      config: { model: 'm' },
      cwd: '/header',
    });
    expect(latestMetadata([event(0, 'session/end-seed', {})])).toEqual({});
  });

  describe.each(storeKinds)('of an observation ($name)', (kind) => {
    it('reads the stored log and its header, live or cold', async () => {
      const kit = await kind.make();
      try {
        const session = await kit.store.create({ id: 's', title: 'draft', config: { cwd: '/work/s', model: 'm1' } });
        session.append('session/title', { title: 'final' });
        session.append('session/config', { model: 'm2' });
        await session.flush();
        const expected = { title: 'final', config: { model: 'm2' }, cwd: '/work/s' };
        expect(latestMetadata(await kit.store.observe('s'))).toEqual(expected);
        await session.close();
        const cold = await kit.another();
        expect(latestMetadata(await cold.observe('s'))).toEqual(expected);
        await cold.close();
      } finally {
        await kit.cleanup();
      }
    });
  });
});
