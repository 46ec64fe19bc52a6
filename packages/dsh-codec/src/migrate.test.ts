import { logEvents, type LogRow } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import { CodecError, migrate } from 'dsh-codec';

type Raw = Record<string, unknown>;
const events = (...rows: LogRow[]) => logEvents<Raw>(rows, { time: (seq) => 5000 + seq });

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

function thrown(fn: () => unknown): CodecError {
  try {
    fn();
  } catch (error) {
    if (CodecError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a CodecError');
}

const v0 = events(
  ['turn/start', { turn: 1 }],
  ['user/message', { text: '' }],
  ['step/start', { turn: 1, step: 1 }],
  [
    'assistant/message',
    {
      turn: 1,
      step: 1,
      text: 'Reading.',
      toolCalls: [
        { id: 'a', name: 'read', arguments: '{"p":1}' },
        { id: 'b', name: 'list', arguments: '{}' },
      ],
    },
  ],
  ['tool/call', { turn: 1, step: 1, callId: 'a', name: 'read', arguments: '{"p":1}' }],
  ['tool/result', { turn: 1, step: 1, callId: 'a', output: 'contents', isError: false }],
  ['tool/call', { turn: 1, step: 1, callId: 'b', name: 'list', arguments: '{}' }],
  ['tool/result', { turn: 1, step: 1, callId: 'b', output: '', isError: true }],
  ['step/end', { turn: 1, step: 1 }],
  ['turn/end', { turn: 1, reason: 'error' }],
);

describe('migrate', () => {
  describe('V0 → V1 → … → V7', () => {
    const migrated = migrate(deepFreeze({ events: v0 }), 0, { sessionId: 'old-session' });
    const data = (seq: number) => migrated.events[seq]?.data as Record<string, unknown>;

    it('synthesizes the header from the session id and the first event time', () => {
      expect(migrated.header).toEqual({ format: 'dsh-session', version: 7, id: 'old-session', createdAt: 5000, inheritedEventCount: 0 });
      expect(migrate({ events: [] }, 0, { sessionId: 'empty' }).header.createdAt).toBe(0);
    });

    it('gives every message the id legacy-<seq> and content blocks by the V0 rules', () => {
      expect(data(1)).toEqual({ message: { id: 'legacy-1', role: 'user', content: [] } });
      expect(data(3)).toEqual({
        turn: 1,
        step: 1,
        message: {
          id: 'legacy-3',
          role: 'assistant',
          content: [
            { type: 'text', text: 'Reading.' },
            { type: 'tool-call', id: 'a', name: 'read', arguments: '{"p":1}' },
            { type: 'tool-call', id: 'b', name: 'list', arguments: '{}' },
          ],
        },
      });
      expect(data(5)).toEqual({
        turn: 1,
        step: 1,
        message: { id: 'legacy-5', role: 'tool', callId: 'a', content: [{ type: 'text', text: 'contents' }], isError: false },
      });
    });

    it('maps error results, tool effects and reasons by the V2 → V3 rules', () => {
      expect(data(7)).toMatchObject({
        message: { id: 'legacy-7', content: [], isError: true },
        error: { name: 'ToolError', code: 'TOOL_FAILED' },
      });
      expect(data(4)).toMatchObject({ effect: 'unknown' });
      expect(data(9)).toEqual({ turn: 1, reason: { kind: 'error', error: { message: '', code: 'UNKNOWN' } } });
    });

    it('refuses a V0 log without a session id', () => {
      expect(thrown(() => migrate({ events: v0 }, 0)).code).toBe('INVALID_HEADER');
    });
  });

  it('V1 → V2 adds inheritedEventCount 0 and keeps cwd', () => {
    const header = { format: 'dsh-session', version: 1, id: 's', createdAt: 1, cwd: '/w' };
    expect(migrate({ header, events: [] }, 1).header).toEqual({
      format: 'dsh-session',
      version: 7,
      id: 's',
      createdAt: 1,
      cwd: '/w',
      inheritedEventCount: 0,
    });
  });

  it('V2 → V3 maps aborted to cancelled and error messages into error {message, code: "UNKNOWN"}', () => {
    const header = { format: 'dsh-session', version: 2, id: 's', createdAt: 1, inheritedEventCount: 0 };
    const log = events(
      ['turn/start', { turn: 1 }],
      ['turn/end', { turn: 1, reason: { kind: 'aborted', message: 'Ctrl-C' } }],
      ['turn/start', { turn: 2 }],
      ['turn/end', { turn: 2, reason: { kind: 'error', message: 'HTTP 503' } }],
      ['turn/start', { turn: 3 }],
      ['turn/end', { turn: 3, reason: { kind: 'completed', message: 'done' } }],
    );
    const reasons = migrate({ header, events: log }, 2)
      .events.filter((event) => event.type === 'turn/end')
      .map((event) => (event.data as { reason: unknown }).reason);
    expect(reasons).toEqual([
      { kind: 'cancelled' },
      { kind: 'error', error: { message: 'HTTP 503', code: 'UNKNOWN' } },
      { kind: 'completed' },
    ]);
  });

  it.each([3, 4, 5, 6] as const)('V%i → V7 changes only the header version and preserves the events themselves', (version) => {
    const header = { format: 'dsh-session', version, id: 's', createdAt: 1, parentSession: 'p', forkCut: 0, inheritedEventCount: 1 };
    const log = events(['session/title', { title: 't' }], ['session/end-seed', { inherited: true }]);
    const migrated = migrate({ header, events: log }, version);
    expect(migrated.header).toEqual({ ...header, version: 7 });
    migrated.events.forEach((event, index) => {
      expect(event).toBe(log[index]);
    });
  });

  it('refuses an input that is invalid in its own version, with every issue', () => {
    const error = thrown(() =>
      migrate({ events: [{ seq: 0, type: 'turn/start', time: 0, data: { turn: 2 } }, { seq: 3 }] }, 0, { sessionId: 's' }),
    );
    expect(error.code).toBe('INVALID_RELATIONSHIP');
    expect(error.issues.length).toBeGreaterThan(1);
    expect(error.message).toContain('migrating from V0');
  });

  it('from V7 it validates and returns the log unchanged', () => {
    const header = {
      format: 'dsh-session',
      version: 7,
      id: 's',
      createdAt: 1,
      inheritedEventCount: 0,
      forkRequest: { key: 'k', digest: 'd' },
    };
    const log = events(['session/title', { title: 't' }]);
    expect(migrate({ header, events: log }, 7)).toEqual({ header, events: log });
  });

  it('refuses a V4 log holding a reasoning block (V4 is frozen), which V5 admits', () => {
    const reasoning = { type: 'reasoning', text: '', providerData: { signature: 'sig' } };
    const log = events(
      ['turn/start', { turn: 1 }],
      ['step/start', { turn: 1, step: 1 }],
      [
        'assistant/message',
        { turn: 1, step: 1, message: { id: 'a', role: 'assistant', content: [reasoning, { type: 'text', text: 'hi' }] } },
      ],
    );
    const header = { format: 'dsh-session', version: 4, id: 's', createdAt: 1, inheritedEventCount: 0 };
    expect(thrown(() => migrate({ header, events: log }, 4))).toMatchObject({
      code: 'INVALID_EVENT',
      message: expect.stringContaining('migrating from V4'),
    });
    expect(migrate({ header: { ...header, version: 5 }, events: log }, 5).events).toEqual(log);
  });
});
