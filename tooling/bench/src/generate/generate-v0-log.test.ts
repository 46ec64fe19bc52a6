import { decodeJsonl, validate } from 'dsh-codec';
import { describe, expect, it } from 'vitest';
import { generateV0Log, v0Jsonl } from './generate-v0-log.js';

describe('generateV0Log', () => {
  it('writes exactly the requested number of events, valid under the frozen V0 validator', () => {
    for (const [events, seed] of [
      [20, 1],
      [21, 2],
      [777, 3],
      [3_000, 4],
    ] as const) {
      const { events: log } = generateV0Log({ events, seed });
      expect(log).toHaveLength(events);
      expect(validate(0, { events: log })).toEqual([]);
    }
  });

  it('decodes and migrates to V4 with every event kept', () => {
    const { events, conversation } = generateV0Log({ events: 1_000, seed: 6 });
    const decoded = decodeJsonl(v0Jsonl(events), { sessionId: 'legacy' });
    expect(decoded.sourceVersion).toBe(0);
    expect(decoded.events).toHaveLength(1_000);
    expect(decoded.events.filter((event) => event.type === 'turn/end')).toHaveLength(conversation.turns.length);
  });
});
