import { CURRENT_FORMAT_VERSION, encodeJsonl, validate, type CoreEvent } from 'dsh-codec';
import { describe, expect, it } from 'vitest';
import { generateV4Log, v4Jsonl } from './generate-v4-log.js';

describe('generateV4Log', () => {
  it('writes exactly the requested number of events, valid under the current validator and V4 events', () => {
    for (const [events, seed] of [
      [22, 1],
      [23, 2],
      [101, 3],
      [1_000, 4],
      [4_321, 5],
    ] as const) {
      const log = generateV4Log({ events, seed });
      expect(log.events).toHaveLength(events);
      expect(validate(CURRENT_FORMAT_VERSION, log)).toEqual([]);
      expect(validate(4, { header: { ...log.header, version: 4 }, events: log.events })).toEqual([]);
    }
  });

  it('is deterministic for a seed and differs between seeds', () => {
    expect(v4Jsonl(generateV4Log({ events: 300, seed: 9 }))).toBe(v4Jsonl(generateV4Log({ events: 300, seed: 9 })));
    expect(v4Jsonl(generateV4Log({ events: 300, seed: 9 }))).not.toBe(v4Jsonl(generateV4Log({ events: 300, seed: 10 })));
  });

  it('writes the same lines as dsh-codec', () => {
    const log = generateV4Log({ events: 500, seed: 3 });
    expect(v4Jsonl(log)).toBe(encodeJsonl(log));
  });

  it('looks like a coding agent: queued input, multi-call steps, tool errors, a title and config', () => {
    const events = generateV4Log({ events: 2_000, seed: 4 }).events as CoreEvent[];
    const types = new Set(events.map((event) => event.type));
    for (const type of ['session/config', 'session/title', 'input/queued', 'tool/call', 'tool/result']) expect(types).toContain(type);
    const multiCall = events.some(
      (event) => event.type === 'assistant/message' && event.data.message.content.filter((block) => block.type === 'tool-call').length >= 2,
    );
    expect(multiCall).toBe(true);
    expect(events.some((event) => event.type === 'tool/result' && event.data.message.isError)).toBe(true);
  });

  it('refuses a history too small for a turn and its tail', () => {
    expect(() => generateV4Log({ events: 10 })).toThrow(/budget ≥ 20/);
  });
});
