/**
 * SPEC §25: `session.events` narrows by `type`. The type assertions are checked by this package's
 * `typecheck` (tsc reads tests); the same branches run here against a real session's log.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  isPluginEvent,
  type CoreEventDataMap,
  type DshEvent,
  type JsonValue,
  type PluginEvent,
  type SessionEvent,
  type TurnEndReason,
} from 'dsh-codec';
import { createMemoryStore } from 'dsh-session';

async function sessionWithEveryKind() {
  const store = createMemoryStore();
  const session = await store.create({ id: 'narrow', config: { cwd: '/w' } });
  session.append('agent/system-prompt', { text: 'be brief' }, { ignorable: true });
  session.append('turn/start', { turn: 1 });
  session.append('user/message', { message: { id: 'u1', role: 'user', content: [{ type: 'text', text: 'hi' }] } });
  session.append('workspace/checkpoint', { tree: 'abc', after: 'turn-start', ms: 1 }, { ignorable: true });
  session.append('step/start', { turn: 1, step: 1 });
  session.append('assistant/message', {
    turn: 1,
    step: 1,
    message: { id: 'a1', role: 'assistant', content: [{ type: 'tool-call', id: 'c1', name: 'read', arguments: '{}' }] },
  });
  session.append('tool/call', { turn: 1, step: 1, callId: 'c1', name: 'read', arguments: '{}', effect: 'read-only' });
  session.append('my-plugin/progress', { percent: 50 }, { ignorable: true });
  session.append('tool/result', {
    turn: 1,
    step: 1,
    message: { id: 'r1', role: 'tool', callId: 'c1', content: [{ type: 'text', text: 'ok' }], isError: false },
  });
  session.append('step/end', { turn: 1, step: 1 });
  session.append('turn/end', { turn: 1, reason: { kind: 'completed' } });
  return { store, session };
}

describe('session.events narrows by type', () => {
  it('narrows each core type to its payload, with no cast', async () => {
    const { session } = await sessionWithEveryKind();
    expectTypeOf(session.events).toEqualTypeOf<readonly DshEvent[]>();
    const seen: string[] = [];
    for (const event of session.events) {
      if (event.type === 'tool/call') {
        expectTypeOf(event.data).toEqualTypeOf<CoreEventDataMap['tool/call']>();
        seen.push(`call ${event.data.callId} ${event.data.name} ${event.data.effect}`);
      } else if (event.type === 'tool/result') {
        expectTypeOf(event.data.message.isError).toEqualTypeOf<boolean>();
        seen.push(`result ${event.data.message.callId}`);
      } else if (event.type === 'turn/start') {
        expectTypeOf(event.data).toEqualTypeOf<{ turn: number }>();
        seen.push(`turn ${String(event.data.turn)}`);
      } else if (event.type === 'turn/end') {
        expectTypeOf(event.data.reason).toEqualTypeOf<TurnEndReason>();
        seen.push(`end ${event.data.reason.kind}`);
      } else if (event.type === 'assistant/message') {
        seen.push(`assistant ${event.data.message.role} step ${String(event.data.step)}`);
      } else if (event.type === 'workspace/checkpoint') {
        expectTypeOf(event).toEqualTypeOf<PluginEvent<'workspace/checkpoint'>>();
        expectTypeOf(event.ignorable).toEqualTypeOf<true>();
        seen.push(`checkpoint ${JSON.stringify(event.data)}`);
      }
    }
    expect(seen).toEqual([
      'turn 1',
      'checkpoint {"tree":"abc","after":"turn-start","ms":1}',
      'assistant assistant step 1',
      'call c1 read read-only',
      'result c1',
      'end completed',
    ]);
  });

  it('narrows in a switch, and leaves another plugin’s events to the default branch as plugin events', async () => {
    const { session } = await sessionWithEveryKind();
    const others: string[] = [];
    for (const event of session.events) {
      switch (event.type) {
        case 'session/config':
          expectTypeOf(event.data.cwd).toEqualTypeOf<string | undefined>();
          break;
        case 'user/message':
          expectTypeOf(event.data.message.role).toEqualTypeOf<'user'>();
          break;
        case 'step/start':
        case 'step/end':
          expectTypeOf(event.data.step).toEqualTypeOf<number>();
          break;
        case 'agent/system-prompt':
        case 'workspace/checkpoint':
          break;
        default:
          if (isPluginEvent(event)) {
            expectTypeOf(event.data).toEqualTypeOf<JsonValue>();
            others.push(event.type);
          }
      }
    }
    expect(others).toEqual(['my-plugin/progress']);
  });

  it('finds a third-party plugin event by its type with isPluginEvent, and still hands it out as a SessionEvent', async () => {
    const { session } = await sessionWithEveryKind();
    const progress = session.events.filter((event): event is PluginEvent => isPluginEvent(event, 'my-plugin/progress'));
    expectTypeOf(progress).toEqualTypeOf<PluginEvent[]>();
    expect(progress.map((event) => [event.type, event.data, event.ignorable])).toEqual([['my-plugin/progress', { percent: 50 }, true]]);
    // A typed event is still the envelope older code takes, and its type still a string.
    const asEnvelopes: readonly SessionEvent[] = session.events;
    const types = new Set<string>(asEnvelopes.map((event) => event.type));
    expect(types.has('my-plugin/progress')).toBe(true);
    expect(isPluginEvent(session.events[0] as DshEvent)).toBe(false);
  });

  it('types what append returns, what latest and eventsFrom return, and what a subscriber gets', async () => {
    const { session } = await sessionWithEveryKind();
    const received: DshEvent[] = [];
    const unsubscribe = session.subscribe((event) => {
      expectTypeOf(event).toEqualTypeOf<DshEvent>();
      received.push(event);
    });
    const appended = session.append('turn/start', { turn: 2 });
    unsubscribe();
    expectTypeOf(appended).toEqualTypeOf<DshEvent>();
    expect(received).toEqual([appended]);
    const latest = session.latest('turn/start');
    if (latest?.type !== 'turn/start') throw new Error('expected the turn/start just appended');
    expect(latest.data.turn).toBe(2);
    const last = session.eventsFrom(session.nextSeq - 1)[0];
    expect(last?.type === 'turn/start' ? last.data.turn : undefined).toBe(2);
  });

  it('refuses at compile time a core payload field on another type, and a bare third-party literal', async () => {
    const { session } = await sessionWithEveryKind();
    const event = session.events[0] as DshEvent;
    if (event.type === 'turn/start') {
      // @ts-expect-error a turn/start has no callId
      expect(event.data.callId).toBeUndefined();
    }
    // @ts-expect-error another plugin's type is compared through isPluginEvent, never as a bare literal
    expect(event.type === 'my-plugin/progress').toBe(false);
  });
});
