import { describe, expect, it } from 'vitest';
import { createStreamSlots, type HeldStream } from './stream-slots.js';

/** A stream whose held bytes the test sets; `closed` once the slots close it. */
function fakeStream(): HeldStream & { bytes: number; closed: boolean } {
  const stream = {
    bytes: 0,
    closed: false,
    held: () => stream.bytes,
    close: () => {
      stream.closed = true;
    },
  };
  return stream;
}

describe('createStreamSlots', () => {
  it('refuses one stream over max with TOO_MANY_STREAMS and frees a slot on release, once', () => {
    const slots = createStreamSlots(2);
    const first = slots.acquire();
    slots.acquire();
    expect(() => slots.acquire()).toThrow(expect.objectContaining({ code: 'TOO_MANY_STREAMS' }) as Error);
    first.release();
    first.release();
    expect(slots.open).toBe(1);
    slots.acquire();
    expect(slots.open).toBe(2);
  });

  it('closes the stream holding the most once all together hold more than maxTotalBytes', () => {
    const slots = createStreamSlots(8, 1000);
    const streams = [fakeStream(), fakeStream(), fakeStream()];
    const held = streams.map((stream) => {
      const slot = slots.acquire();
      slot.attach(stream);
      return slot;
    });
    const grow = (index: number, bytes: number): void => {
      streams[index]!.bytes = bytes;
      held[index]!.changed();
    };
    grow(0, 300);
    grow(1, 500);
    grow(2, 150);
    expect(streams.map((stream) => stream.closed)).toEqual([false, false, false]);
    // 300 + 500 + 250 passes 1000: the largest (not the one that grew) is closed.
    grow(2, 250);
    expect(streams.map((stream) => stream.closed)).toEqual([false, true, false]);
    // A stream that drained is measured again before anything else is closed.
    streams[0]!.bytes = 0;
    grow(2, 900);
    expect(streams.map((stream) => stream.closed)).toEqual([false, true, false]);
    grow(2, 1100);
    expect(streams.map((stream) => stream.closed)).toEqual([false, true, true]);
    // A released slot no longer counts.
    held[2]!.release();
    grow(0, 999);
    expect(streams[0]!.closed).toBe(false);
  });
});
