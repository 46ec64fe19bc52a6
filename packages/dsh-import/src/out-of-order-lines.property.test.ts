/**
 * Property (SPEC §26 "Lines out of order"): a Claude Code file whose prompts were written after the
 * line that follows them (as interactive 2.1.197 writes when typed fast) reads as the same file in
 * chain order — the same import, the same repair, and at every entry uuid the same fork child byte
 * for byte, on the text path and the file (byte) path alike.
 */
import { Buffer } from 'node:buffer';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { claudeCodeTranscript } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import { forkNativeFile, forkNativeTranscript, importTranscript, repairNativeTranscript } from './index.js';
import { uuidsOf } from './__fixtures__/mutated-claude-code-file.js';

const NOW = 1_800_000_000_000;
const CHILD_ID = 'c0ffee00-0000-4000-8000-000000000002';

const shape = fc.record({
  turns: fc.integer({ min: 1, max: 5 }),
  branchAtTurn: fc.option(fc.integer({ min: 2, max: 5 }), { nil: undefined }),
  compactInTurn: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
  endMidCall: fc.boolean(),
});

const REAL = [
  process.env.DSH_TRANSCRIPTS,
  join(import.meta.dirname, '../../../../shared/data/transcripts'),
  '/work/shared/data/transcripts',
]
  .filter((dir): dir is string => dir !== undefined && dir !== '')
  .map((dir) => join(dir, 'claude-code', 'feipi-8a283a61.jsonl'))
  .find((file) => existsSync(file));

type Shape = { turns: number; branchAtTurn: number | undefined; compactInTurn: number | undefined; endMidCall: boolean };

function pair(options: Shape): { inOrder: string; outOfOrder: string } {
  const { branchAtTurn, compactInTurn, ...rest } = options;
  const shaped = {
    ...rest,
    ...(branchAtTurn !== undefined && branchAtTurn <= options.turns ? { branchAtTurn } : {}),
    ...(compactInTurn === undefined ? {} : { compactInTurn }),
  };
  return {
    inOrder: claudeCodeTranscript(shaped).text,
    outOfOrder: claudeCodeTranscript({ ...shaped, outOfOrder: true }).text,
  };
}

describe('Claude Code lines written out of order', () => {
  it('the generator really writes prompts before their parents are read (the case is not vacuous)', () => {
    const { inOrder, outOfOrder } = pair({ turns: 2, branchAtTurn: undefined, compactInTurn: undefined, endMidCall: true });
    expect(outOfOrder).not.toBe(inOrder);
    expect([...outOfOrder.split('\n')].sort()).toStrictEqual([...inOrder.split('\n')].sort());
  });

  it('imports to the same sessions as the file in chain order', () => {
    fc.assert(
      fc.property(shape, (options) => {
        const { inOrder, outOfOrder } = pair(options);
        const a = importTranscript(inOrder);
        const b = importTranscript(outOfOrder);
        expect(b.sessions).toStrictEqual(a.sessions);
      }),
      { numRuns: 25, seed: 26_1 },
    );
  });

  it('forks at every uuid to the child of the file in chain order, on the text and the byte path', () => {
    fc.assert(
      fc.property(shape, fc.nat(), (options, pick) => {
        const { inOrder, outOfOrder } = pair(options);
        const uuids = uuidsOf(inOrder);
        const at = uuids[pick % uuids.length] as string;
        const fork = { at, sessionId: CHILD_ID, now: NOW };
        const expected = forkNativeTranscript(inOrder, fork);
        const text = forkNativeTranscript(outOfOrder, fork);
        const file = forkNativeFile(Buffer.from(outOfOrder, 'utf8'), fork);
        expect(text.text).toBe(expected.text);
        expect(Buffer.from(file.bytes).toString('utf8')).toBe(expected.text);
        expect({ cut: text.cut, closed: text.closedCalls }).toStrictEqual({ cut: expected.cut, closed: expected.closedCalls });
        expect({ cut: file.cut, closed: file.closedCalls }).toStrictEqual({ cut: expected.cut, closed: expected.closedCalls });
      }),
      { numRuns: 40, seed: 26_2 },
    );
  });

  it('repairs the same calls with the same closers', () => {
    fc.assert(
      fc.property(shape, (options) => {
        const { inOrder, outOfOrder } = pair({ ...options, endMidCall: true });
        const a = repairNativeTranscript(inOrder, { now: NOW });
        const b = repairNativeTranscript(outOfOrder, { now: NOW });
        expect(a.closedCalls.length).toBeGreaterThan(0);
        expect(b).toStrictEqual(a);
      }),
      { numRuns: 15, seed: 26_3 },
    );
  });

  // The shape on a real Claude Code 2.1.145 file (read where it lies): the first prompt
  // written after its attachment, thinking and tool call, and a tool result written before its call.
  it.skipIf(REAL === undefined)('reads a real file with a prompt after its call and a result before its call as written in order', () => {
    const inOrder = readFileSync(REAL as string, 'utf8');
    const lines = inOrder.split('\n');
    const uuidAt = (index: number): string => (JSON.parse(lines[index] as string) as { uuid: string }).uuid;
    expect([uuidAt(2), uuidAt(5), uuidAt(18), uuidAt(20)].map((uuid) => uuid.slice(0, 8))).toStrictEqual([
      '50f54c9d',
      'ae6df8d6',
      'ec1fabf9',
      '75d14254',
    ]);
    const moved = [
      ...lines.slice(0, 2),
      ...lines.slice(3, 6),
      lines[2],
      ...lines.slice(6, 18),
      lines[20],
      ...lines.slice(18, 20),
      ...lines.slice(21),
    ];
    const outOfOrder = moved.join('\n');
    expect(outOfOrder.length).toBe(inOrder.length);
    expect(importTranscript(outOfOrder).sessions).toStrictEqual(importTranscript(inOrder).sessions);
    for (const at of [uuidAt(5), uuidAt(18), uuidAt(20)]) {
      const fork = { at, sessionId: CHILD_ID, now: NOW };
      const expected = forkNativeTranscript(inOrder, fork);
      expect(expected.text).toContain(uuidAt(2));
      expect(forkNativeTranscript(outOfOrder, fork).text).toBe(expected.text);
      expect(Buffer.from(forkNativeFile(Buffer.from(outOfOrder, 'utf8'), fork).bytes).toString('utf8')).toBe(expected.text);
    }
  });
});
