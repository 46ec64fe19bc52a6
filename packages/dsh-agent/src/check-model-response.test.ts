import { describe, expect, it } from 'vitest';
import { createMemoryStore } from 'dsh-session';
import { Agent, type Model } from 'dsh-agent';

/** A custom Model whose `complete()` resolves with `value`, whatever it is. */
function returning(value: unknown): Model {
  return { name: 'custom', complete: () => Promise.resolve(value as never) };
}

const MALFORMED: [string, unknown][] = [
  ['undefined', undefined],
  ['a string', 'hello'],
  ['no toolCalls', { text: 'hi' }],
  ['text not a string', { text: 42, toolCalls: [] }],
  ['a tool call without a name', { text: '', toolCalls: [{ arguments: '{}' }] }],
  ['tool call arguments as an object', { text: '', toolCalls: [{ name: 'x', arguments: {} }] }],
  ['usage that is not JSON', { text: 'hi', toolCalls: [], usage: { inputTokens: 1n } }],
  ['reasoning without text', { text: 'hi', toolCalls: [], reasoning: [{}] }],
  ['an unknown stopReason', { text: 'hi', toolCalls: [], stopReason: 'done' }],
];

describe('a custom Model returning a malformed response (SPEC §25)', () => {
  it.each(MALFORMED)('%s: the turn ends error MODEL_RESPONSE_INVALID, closed, and the agent keeps working', async (_, value) => {
    const store = createMemoryStore();
    const session = await store.create({});
    const agent = new Agent({ session, model: returning(value), tools: [] });
    try {
      const { inputId } = agent.enqueue('hi');
      const result = await agent.result(inputId);
      expect(result.isError).toBe(true);
      expect(result.reason).toMatchObject({ kind: 'error', error: { code: 'MODEL_RESPONSE_INVALID' } });
      const reason = result.reason as { error: { message: string } };
      expect(reason.error.message).toContain('custom');
      const types = session.events.map((event) => event.type);
      expect(types.at(-1)).toBe('turn/end');
      expect(types).not.toContain('assistant/message');
      // The session is not closed behind the turn: another input is taken (and fails the same way).
      const next = agent.enqueue('again');
      expect((await agent.result(next.inputId)).reason).toMatchObject({ kind: 'error' });
    } finally {
      await agent.close();
      await session.close();
      await store.close();
    }
  });
});
