import { logEvent } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import type { SessionEvent, SurfaceOp } from 'dsh-codec';
import { deriveHistory } from 'dsh-agent';
import { deriveSurface } from './derive-history.js';

function user(seq: number, text: string, surfaceOp?: SurfaceOp): SessionEvent {
  return {
    seq,
    type: 'user/message',
    time: 0,
    data: { message: { id: `u${seq}`, role: 'user', content: [{ type: 'text', text }] } },
    ...(surfaceOp === undefined ? {} : { surfaceOp }),
  };
}
const other = logEvent<SessionEvent>;

describe('deriveHistory', () => {
  it('keeps only surface events, in log order', () => {
    const events: SessionEvent[] = [
      other(0, 'session/end-seed'),
      other(1, 'input/queued', { inputId: 'i', message: { id: 'q', role: 'user', content: [] } }),
      other(2, 'turn/start', { turn: 1 }),
      user(3, 'hi'),
      other(4, 'step/start', { turn: 1, step: 1 }),
      {
        seq: 5,
        type: 'assistant/message',
        time: 0,
        data: {
          turn: 1,
          step: 1,
          message: { id: 'a5', role: 'assistant', content: [{ type: 'tool-call', id: 'c', name: 't', arguments: '{}' }] },
        },
      },
      other(6, 'tool/call', { turn: 1, step: 1, callId: 'c', name: 't', arguments: '{}', effect: 'read-only' }),
      {
        seq: 7,
        type: 'tool/result',
        time: 0,
        data: { turn: 1, step: 1, message: { id: 'r7', role: 'tool', callId: 'c', content: [], isError: false } },
      },
      other(8, 'compaction/start', { turn: null }),
    ];
    expect(deriveHistory(events).map((message) => message.id)).toEqual(['u3', 'a5', 'r7']);
  });

  it('a replace swaps the surface nodes start..end for itself, at the first replaced position', () => {
    const events = [user(0, 'a'), user(1, 'b'), user(2, 'c'), user(3, 'd'), user(4, 'summary', { op: 'replace', start: 1, end: 2 })];
    expect(deriveSurface(events).map((node) => node.seq)).toEqual([0, 4, 3]);
  });

  it('a later replace can cover an earlier replacement by its own seq', () => {
    const events = [
      user(0, 'a'),
      user(1, 'b'),
      user(2, 's1', { op: 'replace', start: 0, end: 1 }),
      user(3, 'c'),
      user(4, 's2', { op: 'replace', start: 0, end: 3 }),
      user(5, 'd'),
    ];
    expect(deriveHistory(events).map((message) => message.id)).toEqual(['u4', 'u5']);
  });

  it('a replace whose range holds no node lands in seq order', () => {
    const events = [user(0, 'a'), other(1, 'turn/start', { turn: 1 }), user(5, 'c'), user(6, 'x', { op: 'replace', start: 1, end: 2 })];
    expect(deriveSurface(events).map((node) => node.seq)).toEqual([0, 6, 5]);
  });

  it('carries reasoning blocks through unchanged, in place, with their provider data', () => {
    const content = [
      { type: 'reasoning' as const, text: '', providerData: { type: 'redacted_thinking', data: 'EmwK' } },
      { type: 'text' as const, text: 'Reading.' },
      { type: 'reasoning' as const, text: 'Then list.' },
      { type: 'tool-call' as const, id: 'c', name: 'read', arguments: '{}' },
    ];
    const assistant: SessionEvent = {
      seq: 1,
      type: 'assistant/message',
      time: 0,
      data: { turn: 1, step: 1, message: { id: 'a1', role: 'assistant', content } },
    };
    const history = deriveHistory([user(0, 'hi'), assistant]);
    expect(history[1]).toEqual({ id: 'a1', role: 'assistant', content });
    expect(history[1]?.content).toEqual(structuredClone(content));
  });
});
