import { logEvent } from '@dsh/test-utils';
import { expect, test } from 'vitest';
import { afterEvent, withDelta } from './streaming-text.js';
import type { WireEvent } from './wire.js';

const event = logEvent<WireEvent>;

test('deltas of one step add up; a new step starts its own text', () => {
  let streaming = withDelta(undefined, { turn: 1, step: 1, text: 'Hel' }, []);
  streaming = withDelta(streaming, { turn: 1, step: 1, text: 'lo' }, []);
  expect(streaming).toEqual({ turn: 1, step: 1, text: 'Hello' });
  expect(withDelta(streaming, { turn: 1, step: 2, text: 'Next' }, [])).toEqual({ turn: 1, step: 2, text: 'Next' });
  expect(withDelta(streaming, { turn: 1, step: 1, reasoning: 'hmm' }, [])).toBe(streaming);
});

test("the step's persisted message replaces the streamed text; a late delta of that step does not bring it back", () => {
  const streaming = withDelta(undefined, { turn: 2, step: 1, text: 'Hi' }, []);
  expect(afterEvent(streaming, event(7, 'tool/call', { turn: 2, step: 1 }))).toBe(streaming);
  const message = event(8, 'assistant/message', { turn: 2, step: 1, message: {} });
  expect(afterEvent(streaming, message)).toBeUndefined();
  expect(withDelta(undefined, { turn: 2, step: 1, text: 'late' }, [message])).toBeUndefined();
});

test('a turn that ends without a message (cancelled, error) clears what it streamed', () => {
  const streaming = withDelta(undefined, { turn: 3, step: 2, text: 'partial' }, []);
  expect(afterEvent(streaming, event(9, 'turn/end', { turn: 3, reason: { kind: 'cancelled' } }))).toBeUndefined();
  expect(afterEvent(streaming, event(9, 'turn/end', { turn: 2, reason: { kind: 'completed' } }))).toBe(streaming);
});
