import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  copyLosslessJson,
  createEventChecker,
  encodeEvent,
  encodeJsonl,
  isLosslessJson,
  serializeEvent,
  type SessionEvent,
  type SessionHeader,
} from 'dsh-codec';
import { arbitraryLog } from '@dsh/test-utils';
// The frozen rule `isLosslessJson` must agree with; internal, so it is imported directly.
import { findLossyJson } from './shared/find-lossy-json.js';

const header: SessionHeader = { format: 'dsh-session', version: 7, id: 's', createdAt: 0, inheritedEventCount: 0 };

/** Values built to hit every lossy case, mixed with plain JSON. */
const awkward = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom<unknown>(undefined, Number.NaN, Infinity, -Infinity, -0, 0, 1n, null, '', 'x', true, () => 1, Symbol('s')),
    fc.double(),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b', '__proto__', 'constructor'), tie('value'), { maxKeys: 3 }),
    tie('value').map((inner) => Object.assign(Object.create(null) as object, { inner })),
    tie('value').map((inner) => {
      const sparse: unknown[] = [inner];
      sparse[2] = 1;
      return sparse;
    }),
    tie('value').map((inner) => Object.assign([inner], { named: 1 })),
    tie('value').map((inner) => Object.defineProperty({ inner }, 'hidden', { value: 1, enumerable: false })),
    tie('value').map((inner) => ({ inner, [Symbol('k')]: 1 })),
    tie('value').map((inner) => new Map([['k', inner]])),
  ),
})).value;

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level += 1) value = level % 2 === 0 ? [value] : { v: value };
  return value;
}

describe('isLosslessJson', () => {
  it('gives the frozen findLossyJson verdict for any value', () => {
    fc.assert(
      fc.property(awkward, (value) => {
        expect(isLosslessJson(value)).toBe(findLossyJson(value) === undefined);
      }),
      { numRuns: 2000 },
    );
  });

  it('accepts nesting up to 512 levels and refuses deeper, like findLossyJson', () => {
    for (const depth of [511, 512, 513, 2000])
      expect(isLosslessJson(nested(depth)), `depth ${String(depth)}`).toBe(findLossyJson(nested(depth)) === undefined);
    expect(isLosslessJson(nested(511))).toBe(true);
    expect(isLosslessJson(nested(600))).toBe(false);
  });

  it('refuses a cycle whose containers are referenced many times without walking it exponentially', () => {
    const node: Record<string, unknown> = {};
    for (const key of ['a', 'b', 'c', 'd']) node[key] = node;
    expect(isLosslessJson(node)).toBe(false);
  });
});

/** Every object and array of a JSON tree, depth first. */
function containersOf(value: unknown): object[] {
  if (typeof value !== 'object' || value === null) return [];
  return [value, ...Object.values(value).flatMap(containersOf)];
}

describe('copyLosslessJson', () => {
  it('copies exactly what isLosslessJson accepts: an equal tree of fresh frozen plain containers, sharing none with the original', () => {
    fc.assert(
      fc.property(awkward, (value) => {
        const copy = copyLosslessJson(value);
        expect(copy === undefined).toBe(!isLosslessJson(value));
        if (copy === undefined) return;
        expect(copy).toEqual(value);
        expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
        const originals = new Set(containersOf(value));
        for (const container of containersOf(copy)) {
          expect(Object.isFrozen(container)).toBe(true);
          expect(originals.has(container)).toBe(false);
          expect([Object.prototype, Array.prototype]).toContain(Object.getPrototypeOf(container));
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps an own "__proto__" key as a key, never as the copy’s prototype', () => {
    const value = JSON.parse('{"__proto__":{"polluted":true},"a":1}') as unknown;
    const copy = copyLosslessJson(value) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'a']);
    expect(JSON.stringify(copy)).toBe('{"__proto__":{"polluted":true},"a":1}');
  });

  it('refuses nesting past 512 levels and cycles, like isLosslessJson', () => {
    expect(copyLosslessJson(nested(511))).toStrictEqual(nested(511));
    expect(copyLosslessJson(nested(600))).toBeUndefined();
    const node: Record<string, unknown> = {};
    node.self = node;
    expect(copyLosslessJson(node)).toBeUndefined();
  });
});

describe('the event checker on validated events', () => {
  it('advance() leaves the checker in the state accept() would, for every prefix of generated logs', () => {
    fc.assert(
      fc.property(arbitraryLog(), fc.nat(), (log, pick) => {
        const events = log as unknown as SessionEvent[];
        const split = events.length === 0 ? 0 : pick % (events.length + 1);
        const checked = createEventChecker();
        const advanced = createEventChecker();
        for (const event of events.slice(0, split)) {
          expect(checked.accept(event)).toEqual([]);
          advanced.advance(event);
        }
        expect(advanced.nextSeq).toBe(checked.nextSeq);
        // The rest of the log, and an invalid turn/start, get the same verdicts from both.
        for (const event of events.slice(split)) expect(advanced.accept(event)).toEqual(checked.accept(event));
        const bogus = { seq: events.length, type: 'turn/start', time: 0, data: { turn: 99 } };
        expect(advanced.accept(bogus)).toEqual(checked.accept(bogus));
      }),
      { numRuns: 80 },
    );
  });

  it('advance() refuses an event out of order', () => {
    const checker = createEventChecker();
    expect(() => {
      checker.advance({ seq: 1, type: 'session/title', time: 0, data: { title: 't' } });
    }).toThrow(RangeError);
  });

  it('accept(event, true) still refuses -0, overflowing numbers and hostile nesting in a plain tree', () => {
    for (const data of [
      { title: 't', n: -0 },
      { title: 't', n: Infinity },
      { title: 't', n: nested(600) },
    ]) {
      const checker = createEventChecker();
      expect(checker.accept({ seq: 0, type: 'plugin/x', time: 0, data, ignorable: true }, true).map((issue) => issue.code)).toEqual([
        'INVALID_EVENT',
      ]);
      expect(checker.nextSeq).toBe(0);
    }
  });
});

describe('serializeEvent', () => {
  it('writes exactly the line encodeEvent writes, for every event of generated logs', () => {
    fc.assert(
      fc.property(arbitraryLog(), (log) => {
        const events = log as unknown as SessionEvent[];
        for (const event of events) expect(serializeEvent(event)).toBe(encodeEvent(event));
        const text = `${JSON.stringify(header)}\n${events.map((event) => serializeEvent(event)).join('')}`;
        expect(text).toBe(encodeJsonl({ header, events }));
      }),
      { numRuns: 60 },
    );
  });
});
