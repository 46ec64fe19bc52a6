import type { CoreEvent } from 'dsh-codec';
import { describe, expect, it } from 'vitest';
import { findOpenStepCut } from './find-open-step-cut.js';
import { generateV4Log } from './generate-v4-log.js';

describe('findOpenStepCut', () => {
  it('returns the first tool/call, at or after from, of a step declaring two or more calls', () => {
    const { events } = generateV4Log({ events: 1_000, seed: 8 });
    const cut = findOpenStepCut(events, 500);
    expect(cut).toBeGreaterThanOrEqual(500);
    const call = events[cut] as CoreEvent;
    const declared = events[cut - 1] as CoreEvent;
    expect(call.type).toBe('tool/call');
    expect(declared.type).toBe('assistant/message');
    if (declared.type !== 'assistant/message') return;
    expect(declared.data.message.content.filter((block) => block.type === 'tool-call').length).toBeGreaterThanOrEqual(2);
    for (let seq = 500; seq < cut; seq += 1) {
      const event = events[seq] as CoreEvent;
      const before = events[seq - 1] as CoreEvent;
      const earlier =
        event.type === 'tool/call' &&
        before.type === 'assistant/message' &&
        before.data.message.content.filter((block) => block.type === 'tool-call').length >= 2;
      expect(earlier).toBe(false);
    }
  });

  it('throws when no such step follows', () => {
    const { events } = generateV4Log({ events: 1_000, seed: 8 });
    expect(() => findOpenStepCut(events, events.length)).toThrow(/no step with two or more calls/);
  });
});
