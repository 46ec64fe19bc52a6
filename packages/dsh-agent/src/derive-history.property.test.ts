import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from 'dsh-codec';
import { deriveSurface } from './derive-history.js';

type Step = { kind: 'append' } | { kind: 'replace'; a: number; b: number } | { kind: 'other' };

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  fc.constant<Step>({ kind: 'append' }),
  fc.constant<Step>({ kind: 'other' }),
  fc.record({ kind: fc.constant('replace' as const), a: fc.nat(40), b: fc.nat(40) }),
);

function build(steps: readonly Step[]): SessionEvent[] {
  return steps.map((step, seq) => {
    if (step.kind === 'other') return { seq, type: 'session/title', time: 0, data: { title: 't' } };
    const event: SessionEvent = {
      seq,
      type: 'user/message',
      time: 0,
      data: { message: { id: `m${seq}`, role: 'user', content: [] } },
    };
    if (step.kind === 'append') return event;
    const start = Math.min(step.a, step.b, seq - 1);
    const end = Math.min(Math.max(step.a, step.b), seq - 1);
    return seq === 0 ? event : { ...event, surfaceOp: { op: 'replace', start: Math.max(start, 0), end } };
  });
}

describe('deriveSurface with replace (property)', () => {
  it('each replace leaves no node of its range but itself, and keeps the order of the others', () => {
    fc.assert(
      fc.property(fc.array(stepArbitrary, { maxLength: 40 }), (steps) => {
        const events = build(steps);
        for (let length = 1; length <= events.length; length += 1) {
          const before = deriveSurface(events.slice(0, length - 1)).map((node) => node.seq);
          const event = events[length - 1]!;
          const after = deriveSurface(events.slice(0, length)).map((node) => node.seq);
          const op = event.surfaceOp;
          if (event.type !== 'user/message') {
            expect(after).toEqual(before);
          } else if (op === undefined) {
            expect(after).toEqual([...before, event.seq]);
          } else {
            const kept = before.filter((seq) => seq < op.start || seq > op.end);
            expect(after.filter((seq) => seq !== event.seq)).toEqual(kept);
            expect(after.filter((seq) => seq === event.seq)).toHaveLength(1);
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});
