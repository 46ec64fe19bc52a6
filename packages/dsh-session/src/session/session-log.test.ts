import { describe, expect, it } from 'vitest';
import type { SessionEvent } from 'dsh-codec';
import { arraySource, type EventSource } from '../sources/event-source.js';
import { SessionLog } from './session-log.js';

// A resumed long log is read by its agent in windows from seq 0; the latest title and config are
// noted on the way, so reading them afterwards searches nothing (SPEC §24: a search from the end of a
// log whose only config is its first event reads the whole file).

const events: SessionEvent[] = [
  { seq: 0, type: 'session/config', time: 0, data: { cwd: '/first' } },
  { seq: 1, type: 'session/title', time: 1, data: { title: 'first' } },
  { seq: 2, type: 'turn/start', time: 2, data: { turn: 1 } },
  { seq: 3, type: 'session/title', time: 3, data: { title: 'second' } },
  { seq: 4, type: 'turn/end', time: 4, data: { turn: 1, reason: { kind: 'completed' } } },
];

/** `source` counting the searches made through it. */
function counted(source: EventSource): { source: EventSource; searches: () => number } {
  let searches = 0;
  return {
    source: {
      ...source,
      findLast(types, end) {
        searches += 1;
        return source.findLast(types, end);
      },
    },
    searches: () => searches,
  };
}

describe('SessionLog metadata of an inherited prefix', () => {
  it('knows the latest title and config once the prefix was read in order, without a search', () => {
    const { source, searches } = counted(arraySource(events));
    const log = new SessionLog('s');
    log.inherit(source, events.length, true);
    const before = searches();
    log.range(0, 2);
    log.range(2, 5);
    expect(log.title).toBe('second');
    expect(log.config).toEqual({ cwd: '/first' });
    expect(searches()).toBe(before);
  });

  it('searches as before when the prefix was read out of order or not to its end', () => {
    const { source, searches } = counted(arraySource(events));
    const log = new SessionLog('s');
    log.inherit(source, events.length, true);
    log.range(2, 5);
    log.range(0, 3);
    const before = searches();
    expect(log.title).toBe('second');
    expect(log.config).toEqual({ cwd: '/first' });
    expect(searches()).toBeGreaterThan(before);
  });

  it('keeps a title appended after the prefix over the one the prefix holds', () => {
    const log = new SessionLog('s');
    log.inherit(arraySource(events), events.length, true);
    log.accept({ seq: 5, type: 'session/title', time: 5, data: { title: 'own' } });
    log.range(0, 6);
    expect(log.title).toBe('own');
    expect(log.config).toEqual({ cwd: '/first' });
  });
});
