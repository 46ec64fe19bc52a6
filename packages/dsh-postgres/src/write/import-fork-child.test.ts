import { describe, expect, it } from 'vitest';
import type { SessionEvent, SessionHeader } from 'dsh-codec';
import { openPostgresStore } from 'dsh-postgres';
import { SessionError } from 'dsh-session';
import { postgresTestUrl } from '@dsh/test-utils';
import { testSchemas } from '../__fixtures__/test-schemas.js';

const url = postgresTestUrl();
const header = (id: string, lineage?: { parentSession: string; forkCut: number }): SessionHeader => ({
  format: 'dsh-session',
  version: 7,
  id,
  createdAt: 1000,
  ...(lineage ?? {}),
  inheritedEventCount: lineage === undefined ? 0 : lineage.forkCut + 1,
});
const message = (text: string) => ({ message: { id: 'u1', role: 'user', content: [{ type: 'text', text }] } });
const turn: SessionEvent[] = [
  { seq: 0, type: 'turn/start', time: 1000, data: { turn: 1 } },
  { seq: 1, type: 'user/message', time: 1000, data: message('hi') },
  { seq: 2, type: 'turn/end', time: 1001, data: { turn: 1, reason: { kind: 'completed' } } },
];
const marker: SessionEvent = { seq: 3, type: 'session/end-seed', time: 1001, data: { inherited: true } };

describe.skipIf(url === undefined)('SessionStore.import on PostgreSQL checks a fork child against its parent', () => {
  const made = testSchemas(url ?? '');

  it("stores a child whose first forkCut + 1 events are its parent's, and refuses one that differs (INVALID_EVENT naming the seq), storing nothing", async () => {
    const store = made.keep(
      await openPostgresStore({ connectionString: url ?? '', schema: made.schema('import_child'), hostId: 'import' }),
    );
    await store.import({ header: header('main'), events: turn });
    await store.import({ header: header('child', { parentSession: 'main', forkCut: 2 }), events: [...turn, marker] });
    expect((await store.inspect('child')).header.parentSession).toBe('main');
    const edited: SessionEvent[] = [
      turn[0] as SessionEvent,
      { ...(turn[1] as SessionEvent), data: message('edited') },
      turn[2] as SessionEvent,
      marker,
    ];
    const error = await store.import({ header: header('stale', { parentSession: 'main', forkCut: 2 }), events: edited }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(SessionError.is(error) && error.code).toBe('INVALID_EVENT');
    expect((error as Error).message).toContain('seq 1 differs');
    expect(await store.has('stale')).toBe(false);
  });
});
