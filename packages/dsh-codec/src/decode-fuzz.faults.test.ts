// Codec fuzzing with a fixed seed: mutated logs of every version decode to a valid current (V6) log or are
// refused with a typed CodecError — never another exception, never a decode that does not validate.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CodecError, CURRENT_FORMAT_VERSION, decodeJsonl, encodeJsonl, validate, type FormatVersion } from 'dsh-codec';
import { faultTrials, reportFaults } from '@dsh/test-utils';
import { logPlan, renderLog, toJsonl } from './__fixtures__/arbitrary-logs.js';

const SEED = 20261201;
const versions: FormatVersion[] = [0, 1, 2, 3, 4, 5, 6];

/** One mutation of a JSONL text: bytes flipped, cut, deleted, duplicated, or lines swapped and edited. */
const mutation = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('dupLine' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('swapLines' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    text: fc.constantFrom('\r', '\n', '\u0000', ',', '"', '}', '{"seq":-0}', 'null', '1e400', '\uFFFD', '\\u0000', '{"__proto__":1}'),
  }),
  fc.record({ kind: fc.constant('number' as const), value: fc.constantFrom('-0', '1e400', '1.5', '9007199254740993', '-1', '"0"') }),
);
type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;

function mutate(text: string, change: Mutation): string {
  const lines = text.split('\n');
  switch (change.kind) {
    case 'flip': {
      const bytes = Buffer.from(text, 'utf8');
      if (bytes.length === 0) return text;
      bytes[change.at % bytes.length] = change.byte;
      return bytes.toString('utf8');
    }
    case 'truncate':
      return text.slice(0, change.at % (text.length + 1));
    case 'delete': {
      const at = change.at % (text.length + 1);
      return text.slice(0, at) + text.slice(at + change.length);
    }
    case 'dupLine': {
      const at = change.at % lines.length;
      return [...lines.slice(0, at + 1), ...lines.slice(at)].join('\n');
    }
    case 'swapLines': {
      if (lines.length < 3) return text;
      const at = change.at % (lines.length - 2);
      [lines[at], lines[at + 1]] = [lines[at + 1] as string, lines[at] as string];
      return lines.join('\n');
    }
    case 'insert': {
      const at = change.at % (text.length + 1);
      return text.slice(0, at) + change.text + text.slice(at);
    }
    case 'number':
      // Every "seq" number of one line becomes a hostile number.
      return text.replace(/"seq":\d+/, `"seq":${change.value}`);
  }
}

describe('codec fuzzing (fixed seed)', { timeout: 3_600_000 }, () => {
  it('turns mutated logs into a valid current (V6) log or a typed CodecError, nothing else', () => {
    const runs = faultTrials(1_000, 100_000);
    let decoded = 0;
    let refused = 0;
    let escapes = 0;
    fc.assert(
      fc.property(logPlan, fc.constantFrom(...versions), fc.array(mutation, { minLength: 1, maxLength: 3 }), (plan, version, changes) => {
        let text = toJsonl(renderLog(plan, version));
        for (const change of changes) text = mutate(text, change);
        try {
          const result = decodeJsonl(text, { sessionId: 'fuzz' });
          // A decode is only right if what it returns is a valid current log that round-trips.
          expect(validate(CURRENT_FORMAT_VERSION, { header: result.header, events: result.events })).toEqual([]);
          expect(decodeJsonl(encodeJsonl(result), { sessionId: 'fuzz' }).events).toEqual(result.events);
          decoded += 1;
        } catch (error) {
          if (CodecError.is(error)) {
            refused += 1;
            return;
          }
          escapes += 1;
          throw error;
        }
      }),
      { seed: SEED, numRuns: runs },
    );
    reportFaults('codec-fuzz', { trials: runs, decoded, refused, escapes, seed: SEED });
    expect(escapes).toBe(0);
  });
});
