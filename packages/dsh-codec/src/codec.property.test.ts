import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CodecError, createEventChecker, decodeJsonl, encodeJsonl, migrate, validate, type FormatVersion } from 'dsh-codec';
import { logPlan, renderLog, toJsonl, withoutReasoning, type LogPlan } from './__fixtures__/arbitrary-logs.js';

const versions: FormatVersion[] = [0, 1, 2, 3, 4, 5, 6, 7];
const options = { sessionId: 'prop-session' };

/** V0 has no titles and no turn-end messages: the plan as V0 can express it. */
function asV0(plan: LogPlan): LogPlan {
  return { ...plan, title: undefined, turns: plan.turns.map((turn) => ({ ...turn, message: undefined })) };
}

describe('generated valid logs', () => {
  it('are valid under their own version’s validator', () => {
    fc.assert(
      fc.property(logPlan, fc.constantFrom(...versions), (plan, version) => {
        expect(validate(version, renderLog(plan, version))).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });

  it('decode to V7, and migrating twice changes nothing', () => {
    fc.assert(
      fc.property(logPlan, fc.constantFrom(...versions), (plan, version) => {
        const raw = renderLog(plan, version);
        const decoded = decodeJsonl(toJsonl(raw), options);
        expect(decoded.sourceVersion).toBe(version);
        const migrated = migrate(raw, version, options);
        expect({ header: decoded.header, events: decoded.events }).toEqual(migrated);
        expect(migrate(migrated, 7)).toEqual(migrated);
        expect(migrate(raw, version, options)).toEqual(migrated);
      }),
      { numRuns: 150 },
    );
  });

  it('round-trip encode → decode, byte-stable', () => {
    fc.assert(
      fc.property(logPlan, fc.constantFrom(...versions), (plan, version) => {
        const decoded = decodeJsonl(toJsonl(renderLog(plan, version)), options);
        const text = encodeJsonl(decoded);
        const again = decodeJsonl(text);
        expect(again).toEqual({ header: decoded.header, events: decoded.events, sourceVersion: 7 });
        expect(encodeJsonl(again)).toBe(text);
      }),
      { numRuns: 150 },
    );
  });

  it('one plan written by any version decodes to the same V7 log (the migration table, end to end)', () => {
    fc.assert(
      fc.property(logPlan, (withReasoning) => {
        const plan = withoutReasoning(withReasoning);
        const current = decodeJsonl(toJsonl(renderLog(plan, 5)));
        for (const version of [1, 2, 3, 4] as const) {
          const decoded = decodeJsonl(toJsonl(renderLog(version === 1 ? { ...plan, title: undefined } : plan, version)));
          const reference = version === 1 ? decodeJsonl(toJsonl(renderLog({ ...plan, title: undefined }, 5))) : current;
          expect(decoded.events).toEqual(reference.events);
          expect(decoded.header).toEqual(reference.header);
        }
        const v0 = asV0(plan);
        expect(decodeJsonl(toJsonl(renderLog(v0, 0)), options)).toMatchObject({ events: decodeJsonl(toJsonl(renderLog(v0, 5))).events });
      }),
      { numRuns: 150 },
    );
  });

  it('are accepted event by event by the event checker', () => {
    fc.assert(
      fc.property(logPlan, (plan) => {
        const checker = createEventChecker();
        for (const event of renderLog(plan, 5).events) expect(checker.accept(event)).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });

  it('V4 refuses a log exactly when it holds a reasoning block; V5 accepts it either way', () => {
    fc.assert(
      fc.property(logPlan, (plan) => {
        const v5 = renderLog(plan, 5);
        const asV4 = { header: { ...(v5.header as object), version: 4 }, events: v5.events };
        const hasReasoning = toJsonl(v5).includes('"type":"reasoning"');
        expect(validate(5, v5)).toEqual([]);
        expect(validate(4, asV4).length > 0).toBe(hasReasoning);
        if (!hasReasoning)
          expect(decodeJsonl(toJsonl(asV4))).toMatchObject({
            header: { ...(v5.header as object), version: 7 },
            events: v5.events,
            sourceVersion: 4,
          });
      }),
      { numRuns: 150 },
    );
  });

  it('cut anywhere, keep every complete line and report the rest as a torn tail', () => {
    fc.assert(
      fc.property(logPlan, fc.double({ min: 0, max: 1, noNaN: true }), (plan, fraction) => {
        const raw = renderLog(plan, 5);
        const text = toJsonl(raw);
        const headerEnd = text.indexOf('\n') + 1;
        const cut = headerEnd + Math.floor(fraction * (text.length - headerEnd));
        const prefix = text.slice(0, cut);
        const decoded = decodeJsonl(prefix);
        const complete = prefix.slice(headerEnd).split('\n').length - 1;
        expect(decoded.events).toEqual(raw.events.slice(0, complete));
        if (prefix.endsWith('\n')) expect(decoded.tornTail).toBeUndefined();
        else
          expect(decoded.tornTail).toEqual({
            offset: Buffer.byteLength(prefix.slice(0, prefix.lastIndexOf('\n') + 1)),
            line: complete + 2,
          });
      }),
      { numRuns: 200 },
    );
  });
});

/** Runs `fn`; anything thrown must be a CodecError. */
function onlyCodecErrors(fn: () => unknown): void {
  try {
    fn();
  } catch (error) {
    if (!CodecError.is(error)) throw error;
    expect(['MALFORMED_JSON', 'INVALID_HEADER', 'INVALID_EVENT', 'INVALID_RELATIONSHIP', 'UNSUPPORTED_VERSION', 'CORRUPT']).toContain(
      error.code,
    );
  }
}

const jsonLine = fc.oneof(
  fc.json({ maxDepth: 3 }),
  fc.string({ maxLength: 30 }),
  fc.constantFrom('', '{', '[]', 'null', '{"seq":0}', '{"format":"dsh-session","version":4}'),
);
const headerLine = fc.oneof(
  fc.constant('{"format":"dsh-session","version":4,"id":"g","createdAt":0,"inheritedEventCount":0}'),
  fc
    .integer({ min: -1, max: 9 })
    .map((version) => `{"format":"dsh-session","version":${String(version)},"id":"g","createdAt":0,"inheritedEventCount":0}`),
  fc.constant('{"seq":0,"type":"turn/start","time":0,"data":{"turn":1}}'),
);

describe('generated garbage', () => {
  it('decodeJsonl throws only CodecError on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        onlyCodecErrors(() => decodeJsonl(text, options));
      }),
      { numRuns: 300 },
    );
  });

  it('decodeJsonl throws only CodecError on a plausible header followed by arbitrary lines', () => {
    fc.assert(
      fc.property(headerLine, fc.array(jsonLine, { maxLength: 8 }), fc.boolean(), (header, lines, newline) => {
        onlyCodecErrors(() => decodeJsonl([header, ...lines].join('\n') + (newline ? '\n' : ''), options));
      }),
      { numRuns: 300 },
    );
  });

  it('decodeJsonl throws only CodecError on randomly damaged valid logs', () => {
    const edit = fc.record({
      at: fc.double({ min: 0, max: 1, noNaN: true }),
      remove: fc.integer({ min: 0, max: 8 }),
      insert: fc.string({ maxLength: 8 }),
    });
    fc.assert(
      fc.property(logPlan, fc.constantFrom(...versions), fc.array(edit, { minLength: 1, maxLength: 4 }), (plan, version, edits) => {
        let text = toJsonl(renderLog(plan, version));
        for (const { at, remove, insert } of edits) {
          const position = Math.floor(at * text.length);
          text = text.slice(0, position) + insert + text.slice(position + remove);
        }
        onlyCodecErrors(() => decodeJsonl(text, options));
      }),
      { numRuns: 300 },
    );
  });

  it('validate never throws on arbitrary values, for every version', () => {
    const anything = fc.anything({
      maxDepth: 3,
      withBigInt: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withSparseArray: true,
      withNullPrototype: true,
      withBoxedValues: true,
      withTypedArray: true,
    });
    fc.assert(
      fc.property(fc.constantFrom(...versions), anything, fc.array(anything, { maxLength: 5 }), (version, header, events) => {
        expect(Array.isArray(validate(version, { header, events }))).toBe(true);
        expect(Array.isArray(createEventChecker().accept(events[0]))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('encodeJsonl throws only CodecError on arbitrary artifacts', () => {
    fc.assert(
      fc.property(fc.anything({ maxDepth: 3 }), fc.array(fc.anything({ maxDepth: 3 }), { maxLength: 4 }), (header, events) => {
        onlyCodecErrors(() => encodeJsonl({ header, events } as never));
      }),
      { numRuns: 200 },
    );
  });

  it('data nested too deep to write back is refused with a CodecError, never a stack overflow', () => {
    const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const header = '{"format":"dsh-session","version":7,"id":"g","createdAt":0,"inheritedEventCount":0}';
    const line = (depth: number) => `{"seq":0,"type":"plugin/deep","time":0,"data":${nested(depth)},"ignorable":true}`;
    const error = (() => {
      try {
        return decodeJsonl(`${header}\n${line(100_000)}\n{"seq":1}\n`);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toMatchObject({ code: 'INVALID_EVENT', line: 2 });
    expect(createEventChecker().accept(JSON.parse(line(100_000)))[0]?.message).toContain('nesting deeper than');
    // Within the limit, a deep value decodes and is written back unchanged.
    const ok = `${header}\n${line(512)}\n`;
    expect(encodeJsonl(decodeJsonl(ok))).toBe(ok);
    expect(() => decodeJsonl(`${header}\n${line(513)}\n`)).toThrow(/nesting deeper than 512/);
  });
});
