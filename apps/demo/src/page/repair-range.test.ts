import { logEvent } from '@dsh/test-utils';
import { expect, test } from 'vitest';
import { repairRange } from './repair-range.js';
import type { WireEvent } from './wire.js';

const event = logEvent<WireEvent>;

test('the repair is every event after the stored log up to the new lifecycle marker', () => {
  const events = [
    event(0, 'turn/start', { turn: 1 }),
    event(1, 'tool/call'),
    event(2, 'tool/result'),
    event(3, 'tool/result'),
    event(4, 'step/end'),
    event(5, 'turn/end', { turn: 1, reason: { kind: 'interrupted' } }),
    event(6, 'session/end-seed'),
    event(7, 'input/queued'),
  ];
  expect(repairRange(events, 2)).toEqual({ start: 2, end: 5, results: 2, turn: 1 });
});

test('a session that needed only the marker reports no repair', () => {
  expect(repairRange([event(0, 'turn/end', { turn: 1 }), event(1, 'session/end-seed')], 1)).toBeUndefined();
  expect(repairRange([event(0, 'turn/end', { turn: 1 })], 1)).toBeUndefined();
});
