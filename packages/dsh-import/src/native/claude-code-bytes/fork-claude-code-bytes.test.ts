/**
 * The byte path of the native fork (`forkClaudeCodeBytes`: its child's chunks, `claudeCodeChildChunks`,
 * and its count, `claudeCodeEventCount`) in the cases the generated files of the property tests
 * leave out: a kept last line without a final newline, a file with no session id, a message id used
 * again after a new prompt — each against the text path (`forkNativeTranscript`), for a child id as
 * long as the source's (the ids written over the copy) and for one that is not (the bytes moved).
 */
import { Buffer } from 'node:buffer';
import { claudeCodeTranscript } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import { forkNativeTranscript } from '../../index.js';
import { forkClaudeCodeBytes } from './fork-claude-code-bytes.js';

const CHILD_IDS = ['c0ffee00-0000-4000-8000-000000000001', 'c1'];

function lines(): Record<string, unknown>[] {
  return claudeCodeTranscript({ turns: 3 })
    .text.trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The last line holding a string uuid. */
function lastUuid(values: readonly Record<string, unknown>[]): string {
  return values.findLast((value) => typeof value.uuid === 'string')?.uuid as string;
}

/** The byte path's fork of `text` at `at`, next to the text path's. */
function both(text: string, at: string, sessionId: string) {
  const options = { at, sessionId, now: 1_800_000_000_000 };
  const fast = forkClaudeCodeBytes(Buffer.from(text, 'utf8'), options);
  if (fast === undefined) throw new Error('the byte path declined the fork');
  const { bytes, chunks: _chunks, ...facts } = fast;
  const { text: expected, ...expectedFacts } = forkNativeTranscript(text, options);
  return { text: Buffer.from(bytes).toString('utf8'), facts, expected, expectedFacts };
}

describe('forkClaudeCodeBytes', () => {
  it.each(CHILD_IDS)('ends a kept last line that has no newline with one, as the text path does (child id %s)', (sessionId) => {
    const all = lines();
    const values = all.slice(0, all.findLastIndex((value) => typeof value.uuid === 'string') + 1);
    const text = values.map((value) => JSON.stringify(value)).join('\n');
    const fork = both(text, lastUuid(values), sessionId);
    expect(fork.text).toBe(fork.expected);
    expect(fork.text.endsWith('\n')).toBe(true);
    expect(fork.facts).toStrictEqual(fork.expectedFacts);
  });

  it.each(CHILD_IDS)('rewrites only the first line of a file with no session id, as the text path does (child id %s)', (sessionId) => {
    // An empty session id nested in each line: the text path replaces it in the first line alone.
    const values = lines().map(({ sessionId: _dropped, ...value }) => ({ ...value, hook: { sessionId: '' } }));
    const text = `${values.map((value) => JSON.stringify(value)).join('\n')}\n`;
    const fork = both(text, lastUuid(values), sessionId);
    expect(fork.facts.parentSessionId).toBeUndefined();
    expect(fork.text).toBe(fork.expected);
    expect(fork.text.split('\n')[1]).toContain('"sessionId":""');
  });

  it.each(CHILD_IDS)(
    'counts a message id used again after a new prompt as a new response, as the reader does (child id %s)',
    (sessionId) => {
      const values = lines();
      const assistants = values.filter((value) => value.type === 'assistant' && value.isSidechain !== true);
      const first = (assistants[0] as { message: { id: string } }).message.id;
      const reused = assistants.at(-1) as { message: { id: string } };
      expect(reused.message.id).not.toBe(first);
      reused.message.id = first;
      const text = `${values.map((value) => JSON.stringify(value)).join('\n')}\n`;
      const fork = both(text, lastUuid(values), sessionId);
      expect(fork.facts).toStrictEqual(fork.expectedFacts);
      expect(fork.text).toBe(fork.expected);
    },
  );
  it.each(CHILD_IDS)(
    'reports the seq of the whole line’s reading when the cut call’s line changes the cwd inside a response that goes on (child id %s)',
    (sessionId) => {
      const values = lines();
      const calls = (value: Record<string, unknown>): boolean =>
        value.type === 'assistant' && JSON.stringify((value.message as { content?: unknown }).content).includes('"tool_use"');
      const idOf = (value: Record<string, unknown>): unknown => (value.message as { id?: unknown }).id;
      // A call whose response goes on in a later line (another call of the same message).
      const cut = values.find(
        (value, index) => calls(value) && values.slice(index + 1).some((later) => calls(later) && idOf(later) === idOf(value)),
      );
      if (cut === undefined) throw new Error('the generated transcript has no response with two call lines');
      cut.cwd = '/elsewhere';
      const text = `${values.map((value) => JSON.stringify(value)).join('\n')}\n`;
      const fork = both(text, cut.uuid as string, sessionId);
      expect(fork.facts).toStrictEqual(fork.expectedFacts);
      expect(fork.text).toBe(fork.expected);
    },
  );
});
