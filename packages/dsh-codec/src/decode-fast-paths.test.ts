// The open path's allocation-free checks against the checks they stand in for, on damaged logs of
// every version read the way the decoder reads them (fresh from JSON.parse, hostile numbers included):
// a fast check may only say "sound" where the full check finds nothing, and the validators fed parsed
// values must give exactly the verdicts `validate` gives.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeJsonl, validate, type FormatVersion } from 'dsh-codec';
import { logPlan, renderLog } from './__fixtures__/arbitrary-logs.js';
import { REMOVE, edit, paths } from './__fixtures__/mutated-payloads.js';
import { checkV0Envelope, v0EnvelopeIsValid } from './v0/check-envelope.js';
import { checkV4EventShape, v4EventShapeIsValid } from './v4/check-event-shape.js';
import { checkV5EventShape, v5EventShapeIsValid } from './v5/check-event-shape.js';
import { checkV6EventShape, v6EventShapeIsValid } from './v6/check-event-shape.js';
import { validateParsed } from './validate.js';
import { migrateToCurrent } from './migrate.js';
import { migrateOwnedV0 } from './migrate-owned-v0.js';
import type { V0Event } from './v0/schemas.js';

/** One damage to one event: a value replaced or removed anywhere in it, a key added, or a number made hostile. */
const damage = fc.record({
  event: fc.nat(),
  at: fc.nat(),
  kind: fc.constantFrom('replace', 'remove', 'add', 'number', 'none'),
  value: fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    fc.constantFrom<unknown>('', 'forked', true, { op: 'replace', start: 0, end: 0 }, { kind: 'forked' }),
  ),
  key: fc.constantFrom('extra', 'surfaceOp', 'ignorable', 'data', 'seq', 'kind', 'type', 'error', 'inherited'),
  literal: fc.constantFrom('-0', '1e400', '-1e400', '1.5', '9007199254740993', '-1', '0'),
});
type Damage = typeof damage extends fc.Arbitrary<infer T> ? T : never;

/** The lines of `events` after `change` (the ones that still parse). */
function damagedLines(original: readonly string[], change: Damage): string[] {
  const events = original.map((line) => JSON.parse(line) as unknown);
  const lines = [...original];
  if (lines.length > 0 && change.kind !== 'none') {
    const index = change.event % lines.length;
    const event = events[index];
    const all = paths(event);
    const path = all[change.at % all.length] as (string | number)[];
    if (change.kind === 'number') {
      // The n-th number token of the line (outside or inside strings: a broken line is skipped below).
      let seen = 0;
      const target = change.at % 4;
      lines[index] = (lines[index] as string).replace(/-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g, (token) =>
        seen++ === target ? change.literal : token,
      );
    } else if (change.kind === 'add') {
      const target = path.reduce<unknown>((value, key) => (value as Record<string | number, unknown>)[key], event);
      if (typeof target === 'object' && target !== null && !Array.isArray(target))
        lines[index] = JSON.stringify(edit(event, path, { ...target, [change.key]: change.value }));
    } else {
      lines[index] = JSON.stringify(edit(event, path, change.kind === 'remove' ? REMOVE : change.value));
    }
  }
  return lines.filter((line) => {
    try {
      JSON.parse(line);
      return true;
    } catch {
      return false;
    }
  });
}

const damagedLog = fc
  .record({
    plan: logPlan,
    version: fc.constantFrom<FormatVersion>(0, 1, 2, 3, 4, 5),
    changes: fc.array(damage, { minLength: 1, maxLength: 3 }),
  })
  .map(({ plan, version, changes }) => {
    const raw = renderLog(plan, version);
    let lines = raw.events.map((event) => JSON.stringify(event));
    for (const change of changes) lines = damagedLines(lines, change);
    const text = [...(raw.header === undefined ? [] : [JSON.stringify(raw.header)]), ...lines].map((line) => `${line}\n`).join('');
    return { version, header: raw.header, events: lines.map((line) => JSON.parse(line) as unknown), text };
  });

describe('the open path on damaged logs read from text', () => {
  it('validates V0–V3 events fed as parsed values exactly as validate does', () => {
    fc.assert(
      fc.property(damagedLog, ({ version, header, events }) => {
        if (version > 3) return;
        const artifact = header === undefined ? { events } : { header, events };
        expect(validateParsed(version as 0 | 1 | 2 | 3, artifact)).toEqual(validate(version, artifact));
      }),
      { numRuns: 600 },
    );
  });

  it('calls an envelope or event shape sound only where the full check finds no issue', () => {
    let sound = 0;
    let unsound = 0;
    fc.assert(
      fc.property(damagedLog, ({ events }) => {
        events.forEach((event, index) => {
          if (v0EnvelopeIsValid(event, index, true)) expect(checkV0Envelope(event, index, 0)).toEqual([]);
          for (const [fast, full] of [
            [v4EventShapeIsValid, checkV4EventShape],
            [v5EventShapeIsValid, checkV5EventShape],
            [v6EventShapeIsValid, checkV6EventShape],
          ] as const) {
            if (fast(event, index, true)) {
              sound++;
              expect(full(event, index)).toEqual([]);
            } else if (full(event, index).length > 0) unsound++;
          }
        });
      }),
      { numRuns: 600 },
    );
    // Both verdicts occur, so the implication above was tested both ways round.
    expect(sound).toBeGreaterThan(100);
    expect(unsound).toBeGreaterThan(10);
  });

  it('decodes a damaged log to the events validate accepts, or refuses it with the issue validate reports first', () => {
    fc.assert(
      fc.property(damagedLog, ({ version, header, events, text }) => {
        const artifact = header === undefined ? { events } : { header, events };
        // A V0 log's first line tells the decoder the version: one that is not a plain event is a header question.
        const first = events[0];
        if (version === 0 && (typeof first !== 'object' || first === null || Array.isArray(first) || 'format' in first)) return;
        const issues = validate(version, artifact);
        let decoded: ReturnType<typeof decodeJsonl> | undefined;
        let refused: unknown;
        try {
          decoded = decodeJsonl(text, { sessionId: 'prop-session' });
        } catch (error) {
          refused = error;
        }
        if (issues.length > 0) {
          expect(decoded).toBeUndefined();
          expect(refused).toMatchObject({ code: issues[0]?.code });
          expect((refused as Error).message).toContain(issues[0]?.message);
        } else if (decoded !== undefined) {
          expect(decoded.events).toHaveLength(events.length);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('rewrites an owned V0 log in place to exactly what the migration steps build, key order included', () => {
    fc.assert(
      fc.property(logPlan, fc.constantFrom(-1, 0, 1_700_000_000_000), (plan, shift) => {
        const lines = renderLog(plan, 0).events.map((event) => JSON.stringify({ ...event, time: event.time + shift }));
        const parse = () => lines.map((line) => JSON.parse(line) as V0Event);
        const steps = migrateToCurrent({ events: parse() }, 0, { sessionId: 'p' });
        const owned = parse();
        const inPlace = migrateOwnedV0(owned, { sessionId: 'p' });
        expect(JSON.stringify(inPlace)).toBe(JSON.stringify(steps));
        expect(inPlace.events).toBe(owned);
      }),
      { numRuns: 300 },
    );
    expect(() => migrateOwnedV0([], {})).toThrow(expect.objectContaining({ code: 'INVALID_HEADER' }) as Error);
  });
});
