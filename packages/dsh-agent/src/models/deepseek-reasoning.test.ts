import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CURRENT_FORMAT_VERSION, decodeJsonl, validate, type SessionEvent } from 'dsh-codec';
import { openSessionStore, type SessionStore } from 'dsh-session';
import { makeTempDir, splitStream, startModelServer, type ModelServer, type TempDir } from '@dsh/test-utils';
import { Agent, AgentError, createOpenAIModel, defineTool, type Model, type Tool } from 'dsh-agent';
import { dataOf } from '../__fixtures__/agent-fixtures.js';
import { deepSeekReasoningViolation, IssuedReasoning, openAIPairingViolation, openAIStream, readWireFixture } from './__fixtures__/wire-fixtures.js';

const readFileTool: Tool = defineTool({
  name: 'read_file',
  description: 'Read a file.',
  input: z.strictObject({ path: z.string() }),
  effect: 'read-only',
  run: (args) => (args.path === 'a.txt' ? 'héllo' : `no such file ${args.path}`),
});

const FIRST_REASONING = 'The user wants the contents of a.txt. I should call read_file.';
const FIRST_CALL = 'call_00_x7Qd2mRk9LpT4sVb1NcZ8aYe';

let dir: TempDir;
let store: SessionStore;
let server: ModelServer | undefined;
let issued: IssuedReasoning;

beforeAll(async () => {
  dir = await makeTempDir();
  store = await openSessionStore({ dir: dir.path });
});
afterAll(async () => {
  await store.close();
  await dir.remove();
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * A DeepSeek thinking-mode endpoint: refuses (400, DeepSeek's wording) a request that drops or
 * alters the `reasoning_content` of a tool call it issued, and what OpenAI refuses on pairing.
 * Request 0 replays the recorded reasoning + tool-call stream; later ones answer with reasoning.
 */
async function deepSeekServer(): Promise<Model> {
  issued = new IssuedReasoning();
  server = await startModelServer((request, index) => {
    const violation = openAIPairingViolation(request.body) ?? deepSeekReasoningViolation(request.body, issued.deepSeek);
    if (violation !== undefined) return { status: 400, json: { error: { message: violation, type: 'invalid_request_error', param: null, code: 'invalid_request_error' } } };
    const stream = index === 0 ? readWireFixture('deepseek-stream-reasoning-tool.sse') : openAIStream({ id: `ds-${index}`, reasoning: `Answer ${index}.`, text: `answer ${index}` });
    return { chunks: splitStream(issued.record(stream), 23) };
  });
  return createOpenAIModel({ model: 'deepseek-reasoner', baseUrl: server.origin, apiKey: 'sk-test', retry: { sleep: () => Promise.resolve(), maxAttempts: 1 } });
}

function sent(index: number): { role: string; reasoning_content?: string; tool_calls?: { id: string }[]; content: unknown }[] {
  return (server!.requests[index]!.body as { messages: never[] }).messages;
}

/** The stored file decoded and validated as the current version (what a later `open` reads). */
async function storedLog(id: string): Promise<SessionEvent[]> {
  const decoded = decodeJsonl(await readFile(join(dir.path, `${id}.jsonl`), 'utf8'));
  expect(decoded.header.version).toBe(CURRENT_FORMAT_VERSION);
  expect(validate(CURRENT_FORMAT_VERSION, { header: decoded.header, events: decoded.events })).toEqual([]);
  return decoded.events;
}

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
    await expect(withoutReasoning).rejects.toSatisfy((error) => AgentError.is(error) && error.code === 'MODEL_HTTP_ERROR' && /reasoning_content in the thinking mode must be passed back/.test(error.message));
  });

  it('persists reasoning first in the assistant message and sends it back in the turn and in later turns', async () => {
    const model = await deepSeekServer();
    const session = await store.create({ id: 'deepseek-parent' });
    const agent = new Agent({ session, model, tools: [readFileTool], cwd: process.cwd(), system: '' });
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
    expect(assistants[1]?.message.content[0]).toEqual({ type: 'reasoning', text: 'Answer 1.', providerData: { wire: 'openai-chat', field: 'reasoning_content' } });
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
    expect(await storedLog('deepseek-parent')).toEqual(session.events);
    await session.close();
  });

  it('never sends the reasoning of a turn without tool calls back', async () => {
    const model = await deepSeekServer();
    // Skip request 0 (the tool-call stream): ask something answered in one step.
    await model.complete({ messages: [{ id: 'u0', role: 'user', content: [{ type: 'text', text: 'warm up' }] }], tools: [] });
    const session = await store.create({ id: 'deepseek-plain' });
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
      const model = await deepSeekServer();
      const parent = await store.create({ id: `ds-fork-parent-${cut.replace('/', '-')}` });
      const agent = new Agent({ session: parent, model, tools: [readFileTool], cwd: process.cwd(), system: '' });
      agent.enqueue('read a.txt');
      await agent.idle();
      await parent.close();
      const at = parent.events.find((event) => event.type === cut)!.seq;
      const childId = `ds-fork-child-${cut.replace('/', '-')}`;
      const child = await store.fork(parent.id, { atSeq: at, id: childId });
      expect(child.events.slice(0, at + 1)).toEqual(parent.events.slice(0, at + 1));
      const childAgent = new Agent({ session: child, model, tools: [readFileTool], cwd: process.cwd(), system: '' });
      childAgent.enqueue('go on');
      expect(await childAgent.idle()).toMatchObject({ isError: false, turn: 2 });
      const request = sent(server!.requests.length - 1);
      expect(request.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'user']);
      expect(request[1]).toMatchObject({ reasoning_content: FIRST_REASONING, tool_calls: [{ id: FIRST_CALL }] });
      expect(String(request[2]?.content)).toMatch(/^Error: .*forked/);
      await child.close();
      const stored = await storedLog(childId);
      expect(stored.find((event) => event.type === 'assistant/message')).toEqual(parent.events.find((event) => event.type === 'assistant/message'));
    });
  }
});
