import { describe, expect, it } from 'vitest';
import { splitStream } from '@dsh/test-utils';
import { Agent, AgentError, createOpenAIModel, type Model } from 'dsh-agent';
import { dataOf } from '../__fixtures__/agent-fixtures.js';
import { readFileStub } from './__fixtures__/read-file-stub.js';
import { strictServerSuite } from './__fixtures__/strict-server-suite.js';
import {
  deepSeekReasoningViolation,
  IssuedReasoning,
  openAIPairingViolation,
  openAIStream,
  readWireFixture,
} from './__fixtures__/wire-fixtures.js';

const FIRST_REASONING = 'The user wants the contents of a.txt. I should call read_file.';
const FIRST_CALL = 'call_00_x7Qd2mRk9LpT4sVb1NcZ8aYe';

const suite = strictServerSuite();
let issued: IssuedReasoning;

/**
 * A DeepSeek thinking-mode endpoint: refuses (400, DeepSeek's wording) a request that drops or
 * alters the `reasoning_content` of a tool call it issued, and what OpenAI refuses on pairing.
 * Request 0 replays the recorded reasoning + tool-call stream; later ones answer with reasoning.
 */
async function deepSeekServer(): Promise<Model> {
  issued = new IssuedReasoning();
  const server = await suite.serve((request, index) => {
    const violation = openAIPairingViolation(request.body) ?? deepSeekReasoningViolation(request.body, issued.deepSeek);
    if (violation !== undefined)
      return {
        status: 400,
        json: { error: { message: violation, type: 'invalid_request_error', param: null, code: 'invalid_request_error' } },
      };
    const stream =
      index === 0
        ? readWireFixture('deepseek-stream-reasoning-tool.sse')
        : openAIStream({ id: `ds-${index}`, reasoning: `Answer ${index}.`, text: `answer ${index}` });
    return { chunks: splitStream(issued.record(stream), 23) };
  });
  return createOpenAIModel({
    model: 'deepseek-reasoner',
    baseUrl: server.origin,
    apiKey: 'sk-test',
    retry: { sleep: () => Promise.resolve(), maxAttempts: 1 },
  });
}

const sent = (index: number) =>
  suite.sent<{ role: string; reasoning_content?: string; tool_calls?: { id: string }[]; content: unknown }>(index);

describe('DeepSeek reasoning_content across a tool-using turn (strict local server)', () => {
  it('the strict server refuses a history that drops the reasoning of a tool call it issued', async () => {
    const model = await deepSeekServer();
    await model.complete({ messages: [{ id: 'u', role: 'user', content: [{ type: 'text', text: 'read a.txt' }] }], tools: [] });
    const withoutReasoning = model.complete({
      messages: [
        { id: 'u', role: 'user', content: [{ type: 'text', text: 'read a.txt' }] },
        { id: 'a', role: 'assistant', content: [{ type: 'tool-call', id: FIRST_CALL, name: 'read_file', arguments: '{"path":"a.txt"}' }] },
        { id: 'r', role: 'tool', callId: FIRST_CALL, content: [{ type: 'text', text: 'héllo' }], isError: false },
      ],
      tools: [],
    });
    await expect(withoutReasoning).rejects.toSatisfy(
      (error) =>
        AgentError.is(error) &&
        error.code === 'MODEL_HTTP_ERROR' &&
        /reasoning_content in the thinking mode must be passed back/.test(error.message),
    );
  });

  it('persists reasoning first in the assistant message and sends it back in the turn and in later turns', async () => {
    const model = await deepSeekServer();
    const session = await suite.store.create({ id: 'deepseek-parent' });
    const agent = new Agent({ session, model, tools: [readFileStub], cwd: process.cwd(), system: '' });
    agent.enqueue('read a.txt');
    expect(await agent.idle()).toMatchObject({ isError: false, text: 'answer 1' });
    agent.enqueue('thanks');
    expect(await agent.idle()).toMatchObject({ isError: false, text: 'answer 2' });
    await session.flush();

    const assistants = dataOf<{ message: { content: unknown[] } }>(session.events, 'assistant/message');
    expect(assistants[0]?.message.content).toEqual([
      { type: 'reasoning', text: FIRST_REASONING, providerData: { wire: 'openai-chat', field: 'reasoning_content' } },
      { type: 'tool-call', id: FIRST_CALL, name: 'read_file', arguments: '{"path":"a.txt"}' },
    ]);
    expect(assistants[1]?.message.content[0]).toEqual({
      type: 'reasoning',
      text: 'Answer 1.',
      providerData: { wire: 'openai-chat', field: 'reasoning_content' },
    });
    // Step 2 of the tool-using turn: the call's reasoning goes back on its assistant message.
    expect(sent(1)[1]).toMatchObject({ role: 'assistant', reasoning_content: FIRST_REASONING, tool_calls: [{ id: FIRST_CALL }] });
    // The next turn: the tool-using turn keeps its reasoning (DeepSeek V4 requires it in every later request).
    expect(sent(2).map((message) => [message.role, message.reasoning_content])).toEqual([
      ['user', undefined],
      ['assistant', FIRST_REASONING],
      ['tool', undefined],
      ['assistant', 'Answer 1.'],
      ['user', undefined],
    ]);
    expect(await suite.storedLog('deepseek-parent')).toEqual(session.events);
    await session.close();
  });

  it('never sends the reasoning of a turn without tool calls back', async () => {
    const model = await deepSeekServer();
    // Skip request 0 (the tool-call stream): ask something answered in one step.
    await model.complete({ messages: [{ id: 'u0', role: 'user', content: [{ type: 'text', text: 'warm up' }] }], tools: [] });
    const session = await suite.store.create({ id: 'deepseek-plain' });
    const agent = new Agent({ session, model, system: '' });
    agent.enqueue('hi');
    await agent.idle();
    agent.enqueue('again');
    await agent.idle();
    expect(sent(2)).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'answer 1' },
      { role: 'user', content: 'again' },
    ]);
    await session.close();
  });

  for (const cut of ['assistant/message', 'tool/call'] as const) {
    it(`forks at the ${cut} of the reasoning-bearing step and continues the child, accepted`, async () => {
      const run = await suite.forkAndContinue(await deepSeekServer(), 'ds', cut, { system: '' });
      const request = sent(-1);
      expect(request.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'user']);
      expect(request[1]).toMatchObject({ reasoning_content: FIRST_REASONING, tool_calls: [{ id: FIRST_CALL }] });
      expect(String(request[2]?.content)).toMatch(/^Error: .*forked/);
      await suite.expectChildKeepsAssistant(run);
    });
  }
});
