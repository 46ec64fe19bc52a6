import { logEvent } from '@dsh/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DshEvent, SessionEvent } from 'dsh-codec';
import { deriveHistory } from './derive-history.js';
import { SessionHistory } from './session-history.js';
import { recordedSystemPromptOf, SYSTEM_PROMPT_EVENT } from './system-prompt.js';

/** A growing log read as the agent reads a Session: its length and windows of it (counting the events handed out). */
function growingLog(events: SessionEvent[]) {
  let length = 0;
  let read = 0;
  return {
    grow(to: number) {
      length = to;
    },
    get read() {
      return read;
    },
    get nextSeq() {
      return length;
    },
    eventsFrom(seq: number, end = length) {
      const window = events.slice(seq, Math.min(end, length));
      read += window.length;
      // Typed as a Session hands events out; some here are malformed on purpose (the reader must cope).
      return window as DshEvent[];
    },
  };
}

const message = (seq: number, role: 'user' | 'assistant') =>
  logEvent<SessionEvent>(seq, role === 'user' ? 'user/message' : 'assistant/message', {
    message: { id: `m${String(seq)}`, role, content: [{ type: 'text', text: String(seq) }] },
  });

/** Events whose kinds the arbitrary picks: messages, a non-surface event, replacements of an earlier range. */
const logArbitrary = fc
  .array(fc.oneof(fc.constant('user'), fc.constant('other'), fc.tuple(fc.nat(30), fc.nat(30))), { maxLength: 60 })
  .map((kinds) =>
    kinds.map((kind, seq): SessionEvent => {
      if (kind === 'user') return message(seq, 'user');
      if (kind === 'other') return logEvent<SessionEvent>(seq, 'step/start', { turn: 1, step: 1 });
      const [a, b] = kind;
      const event = message(seq, 'assistant');
      if (seq === 0) return event;
      return { ...event, surfaceOp: { op: 'replace', start: Math.min(a, b, seq - 1), end: Math.min(Math.max(a, b), seq - 1) } };
    }),
  );

describe('SessionHistory', () => {
  it('gives deriveHistory of the log as it grows, reading each event once (property)', () => {
    fc.assert(
      fc.property(logArbitrary, fc.array(fc.nat(60), { maxLength: 6 }), (events, cuts) => {
        const log = growingLog(events);
        const history = new SessionHistory();
        for (const cut of [...cuts.map((at) => Math.min(at, events.length)).sort((a, b) => a - b), events.length]) {
          log.grow(cut);
          expect(history.messages(log)).toEqual(deriveHistory(events.slice(0, cut)));
        }
        expect(log.read).toBe(events.length);
      }),
    );
  });

  it('hands every event to the visitor once, in order, across windows of a long log', () => {
    const events = Array.from({ length: 10_000 }, (_, seq) => message(seq, seq % 2 === 0 ? 'user' : 'assistant'));
    const log = growingLog(events);
    log.grow(events.length);
    const seen: number[] = [];
    new SessionHistory().advance(log, (event) => seen.push(event.seq));
    expect(seen).toEqual(events.map((event) => event.seq));
  });

  it('keeps the refusal of a surface event without its message for every request', () => {
    const events: SessionEvent[] = [message(0, 'user'), { seq: 1, type: 'assistant/message', time: 1, data: {} }, message(2, 'user')];
    const log = growingLog(events);
    log.grow(3);
    const history = new SessionHistory();
    history.advance(log);
    expect(() => history.messages(log)).toThrow(expect.objectContaining({ code: 'INVALID_EVENT' }) as Error);
    expect(() => history.messages(log)).toThrow(expect.objectContaining({ code: 'INVALID_EVENT' }) as Error);
  });
});

describe('recordedSystemPromptOf', () => {
  const record = (seq: number, data: unknown) => logEvent<SessionEvent>(seq, SYSTEM_PROMPT_EVENT, data);
  const session = (events: SessionEvent[]) => ({
    get events(): readonly DshEvent[] {
      throw new Error('the whole log was read');
    },
    latest: (...types: string[]) => events.findLast((event) => types.includes(event.type)) as DshEvent | undefined,
  });

  it('reads the latest record alone when it is well formed', () => {
    const events = [record(0, { systemPrompt: 'old' }), record(1, { systemPrompt: 'new', appendSystemPrompt: 'more' })];
    expect(recordedSystemPromptOf(session(events))).toEqual({ systemPrompt: 'new', appendSystemPrompt: 'more' });
    expect(recordedSystemPromptOf(session([]))).toBeUndefined();
  });

  it('falls back to the latest well-formed record when the latest is malformed, as recordedSystemPrompt does', () => {
    const events = [record(0, { systemPrompt: 'kept', isDefault: true }), record(1, { systemPrompt: 7 })];
    const withEvents = { events: events as DshEvent[], latest: session(events).latest };
    expect(recordedSystemPromptOf(withEvents)).toEqual({ systemPrompt: 'kept', isDefault: true });
  });
});
