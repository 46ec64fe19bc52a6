import { describe, expect, it } from 'vitest';
import { splitStream } from '@dsh/test-utils';
import { Agent, AgentError, createAnthropicModel, type Model, type ModelMessage } from 'dsh-agent';
import { dataOf } from '../__fixtures__/agent-fixtures.js';
import { readFileStub } from './__fixtures__/read-file-stub.js';
import { strictServerSuite } from './__fixtures__/strict-server-suite.js';
import { anthropicPairingViolation, anthropicThinkingViolation, IssuedReasoning, readWireFixture } from './__fixtures__/wire-fixtures.js';

const thinkingTool = readWireFixture('anthropic-stream-thinking-tool.sse');
const redactedText = readWireFixture('anthropic-stream-redacted-text.sse');
const THINKING = 'The user wants a.txt; I will read it withread_file.';
const SIGNATURE = /^EqQBCkgIBxABGAIiQL2h.*==$/;
const TOOL_USE = 'toolu_01T1x1fJ34qAmk2tNTrN7Up6';

const suite = strictServerSuite();
let issued: IssuedReasoning;

/**
 * A Messages endpoint with thinking enabled that refuses (400, Anthropic's wording) a thinking
 * block whose signature or text was altered, redacted data it did not issue, a tool-use cycle
 * whose assistant message lost its thinking, and every pairing error. Request 0 replays signed
 * thinking + a tool_use; later requests replay redacted thinking + a text answer.
 */
async function anthropicServer(): Promise<Model> {
  issued = new IssuedReasoning();
  const server = await suite.serve((request, index) => {
    const violation = anthropicPairingViolation(request.body) ?? anthropicThinkingViolation(request.body, issued);
    if (violation !== undefined)
      return { status: 400, json: { type: 'error', error: { type: 'invalid_request_error', message: violation } } };
    return { chunks: splitStream(issued.record(index === 0 ? thinkingTool : redactedText), 29) };
  });
  return createAnthropicModel({
    model: 'claude-sonnet-4-5',
    baseUrl: server.origin,
    apiKey: 'sk-ant-test',
    thinkingBudget: 2048,
    retry: { sleep: () => Promise.resolve(), maxAttempts: 1 },
  });
}

type SentBlock = { type: string; thinking?: string; signature?: string; data?: string };
const sent = (index: number) => suite.sent<{ role: string; content: SentBlock[] }>(index);

/** The history after request 0: the user's prompt, the signed tool-use step as `content`, its result. */
function toolCycle(content: ModelMessage['content']): ModelMessage[] {
  return [
    { id: 'u', role: 'user', content: [{ type: 'text', text: 'read a.txt' }] },
    { id: 'a', role: 'assistant', content },
    { id: 'r', role: 'tool', callId: TOOL_USE, content: [{ type: 'text', text: 'héllo' }], isError: false },
  ];
}

const call = { type: 'tool-call', id: TOOL_USE, name: 'read_file', arguments: '{"path": "a.txt"}' } as const;

describe('Anthropic thinking signatures across a tool-using turn (strict local server)', () => {
  it('the strict server refuses an altered signature, altered text and a tool cycle without its thinking', async () => {
    const model = await anthropicServer();
    const first = await model.complete({ messages: toolCycle([]).slice(0, 1), tools: [] });
    const signature = first.reasoning?.[0]?.providerData?.signature;
    if (typeof signature !== 'string') throw new Error('expected a signed thinking block from request 0');
    const attempts: ModelMessage['content'][] = [
      [
        { type: 'reasoning', text: THINKING, providerData: { wire: 'anthropic-messages', signature: `${signature.slice(0, -4)}AAA=` } },
        call,
      ],
      [{ type: 'reasoning', text: `${THINKING} (edited)`, providerData: { wire: 'anthropic-messages', signature } }, call],
      [call],
      // Reasoning without provider data is never sent as thinking, so this is a cycle without its thinking too.
      [{ type: 'reasoning', text: THINKING }, call],
    ];
    for (const content of attempts) {
      await expect(model.complete({ messages: toolCycle(content), tools: [] })).rejects.toSatisfy(
        (error) => AgentError.is(error) && error.code === 'MODEL_HTTP_ERROR' && / 400: .*(signature|thinking block)/.test(error.message),
      );
    }
    const accepted = await model.complete({
      messages: toolCycle([{ type: 'reasoning', text: THINKING, providerData: { wire: 'anthropic-messages', signature } }, call]),
      tools: [],
    });
    expect(accepted.text).toBe('a.txt says “héllo”.');
  });

  it('persists signed and redacted thinking first and sends both back verbatim, in the turn and after it', async () => {
    const model = await anthropicServer();
    const session = await suite.store.create({ id: 'anthropic-parent' });
    const agent = new Agent({ session, model, tools: [readFileStub], cwd: process.cwd() });
    agent.enqueue('read a.txt');
    expect(await agent.idle()).toMatchObject({ isError: false, text: 'a.txt says “héllo”.' });
    agent.enqueue('thanks');
    expect(await agent.idle()).toMatchObject({ isError: false });
    await session.close();

    const assistants = dataOf<{ message: { content: { type: string; providerData?: Record<string, string> }[] } }>(
      session.events,
      'assistant/message',
    );
    expect(assistants[0]?.message.content.map((block) => block.type)).toEqual(['reasoning', 'text', 'tool-call']);
    expect(assistants[0]?.message.content[0]).toEqual({
      type: 'reasoning',
      text: THINKING,
      providerData: { wire: 'anthropic-messages', signature: expect.stringMatching(SIGNATURE) as unknown },
    });
    expect(assistants[1]?.message.content[0]).toEqual({
      type: 'reasoning',
      text: '',
      providerData: { wire: 'anthropic-messages', redactedData: expect.stringMatching(/^EmwKAhgB/) as unknown },
    });
    const inTurn = sent(1);
    expect(inTurn[1]?.content[0]).toEqual({
      type: 'thinking',
      thinking: THINKING,
      signature: assistants[0]?.message.content[0]?.providerData?.signature,
    });
    const later = sent(2);
    expect(later.map((message) => message.content[0]?.type)).toEqual(['text', 'thinking', 'tool_result', 'redacted_thinking', 'text']);
    expect(later[3]?.content[0]?.data).toBe(assistants[1]?.message.content[0]?.providerData?.redactedData);
    expect(await suite.storedLog('anthropic-parent')).toEqual(session.events);
  });

  for (const cut of ['assistant/message', 'tool/call'] as const) {
    it(`forks at the ${cut} of the signed step and continues the child, accepted`, async () => {
      const run = await suite.forkAndContinue(await anthropicServer(), 'an', cut, {});
      const request = sent(-1);
      expect(request.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
      expect(request[1]?.content[0]).toMatchObject({
        type: 'thinking',
        thinking: THINKING,
        signature: expect.stringMatching(SIGNATURE) as unknown,
      });
      expect(request[2]?.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: TOOL_USE, is_error: true });
      await suite.expectChildKeepsAssistant(run);
    });
  }
});
