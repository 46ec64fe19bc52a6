import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { makeTempDir, startModelServer, type TempDir } from '@dsh/test-utils';
import type { SessionEvent, ToolResultMessage } from 'dsh-codec';
import { createMemoryStore, openSessionStore, type SessionStore } from 'dsh-session';
import {
  Agent,
  AgentError,
  createKeylessModel,
  createOpenAIModel,
  createScriptedModel,
  defineTool,
  demoTools,
  type Model,
  type ModelRequest,
} from 'dsh-agent';
import { countingTools, dataOf, gate, heldScriptedModel, typesFrom, until } from './__fixtures__/agent-fixtures.js';

const stores: SessionStore[] = [];
const dirs: TempDir[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) await dir.remove();
});
async function jsonlStore(): Promise<{ store: SessionStore; dir: string }> {
  const dir = await makeTempDir();
  dirs.push(dir);
  const store = await openSessionStore({ dir: dir.path });
  stores.push(store);
  return { store, dir: dir.path };
}
function memoryStore(): SessionStore {
  const store = createMemoryStore();
  stores.push(store);
  return store;
}

type ResultData = { message: ToolResultMessage; error?: { name: string; code: string } };
const results = (events: readonly SessionEvent[]) => dataOf<ResultData>(events, 'tool/result');

describe('agent loop', () => {
  it('writes input/queued, then turn/start → user/message → steps → turn/end in SPEC §9 order', async () => {
    const session = await memoryStore().create();
    const { tools, invocations } = countingTools();
    const model = createScriptedModel([
      {
        text: 'Looking.',
        toolCalls: [
          { name: 'lookup', arguments: { key: 'a' } },
          { name: 'save', arguments: { key: 'b', value: 'v' } },
        ],
      },
      { text: 'Done.' },
    ]);
    const agent = new Agent({ session, model, tools, cwd: process.cwd() });
    const { inputId } = agent.enqueue('go');
    expect(session.events.at(-1)?.type).toBe('input/queued');
    const result = await agent.result(inputId);

    expect(typesFrom(session.events, session.firstLiveSeq)).toEqual([
      'input/queued',
      'turn/start',
      'user/message',
      'step/start',
      'assistant/message',
      'tool/call',
      'tool/result',
      'tool/call',
      'tool/result',
      'step/end',
      'step/start',
      'assistant/message',
      'step/end',
      'turn/end',
    ]);
    expect(result).toMatchObject({ turn: 1, reason: { kind: 'completed' }, text: 'Done.', isError: false, inputIds: [inputId] });
    expect(dataOf(session.events, 'user/message')).toEqual([
      { message: { id: `user-${session.firstLiveSeq}`, role: 'user', content: [{ type: 'text', text: 'go' }] }, inputId },
    ]);
    expect(dataOf(session.events, 'tool/call').map((call) => (call as { effect: string }).effect)).toEqual(['read-only', 'side-effect']);
    expect(invocations.map((call) => call.name)).toEqual(['lookup', 'save']);
    // The second request saw the first step's results right after their calls.
    expect(model.requests[1]?.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'tool']);
    expect(await agent.idle()).toBe(result);
  });

  it('flushes before each model request and before each tool body runs', async () => {
    const { store, dir } = await jsonlStore();
    const session = await store.create({ id: 'durable' });
    const lastStoredType = async () => {
      const lines = (await readFile(join(dir, 'durable.jsonl'), 'utf8')).trimEnd().split('\n');
      return (JSON.parse(lines.at(-1)!) as { type: string }).type;
    };
    const seen: string[] = [];
    const script = createScriptedModel([{ toolCalls: [{ name: 'probe', arguments: {} }] }, { text: 'ok' }]);
    const model: Model = {
      name: 'probe-model',
      complete: async (request) => {
        seen.push(`model after ${await lastStoredType()}`);
        return script.complete(request);
      },
    };
    const probe = defineTool({
      name: 'probe',
      description: 'Reads what is durable.',
      input: z.object({}),
      effect: 'read-only',
      run: async () => {
        seen.push(`tool after ${await lastStoredType()}`);
        return 'probed';
      },
    });
    const agent = new Agent({ session, model, tools: [probe], cwd: process.cwd() });
    agent.enqueue('go');
    await agent.idle();
    expect(seen).toEqual(['model after step/start', 'tool after tool/call', 'model after step/start']);
    expect(await lastStoredType()).toBe('turn/end');
  });

  it('a turn claims all pending input; input queued during a turn waits for the next turn', async () => {
    const session = await memoryStore().create();
    const { model, hold } = heldScriptedModel([{ text: 'first' }, { text: 'second' }]);
    const agent = new Agent({ session, model });
    const a = agent.enqueue('a');
    await until(() => agent.currentTurn === 1);
    const b = agent.enqueue('b');
    const c = agent.enqueue({ text: 'c', inputId: 'my-input' });
    expect(c.inputId).toBe('my-input');
    expect(agent.pendingInputs().map((input) => input.inputId)).toEqual([b.inputId, 'my-input']);
    hold.open();
    expect((await agent.result(a.inputId)).inputIds).toEqual([a.inputId]);
    const second = await agent.result('my-input');
    expect(second).toMatchObject({ turn: 2, inputIds: [b.inputId, 'my-input'], text: 'second' });
    expect(agent.pendingInputs()).toEqual([]);
    const claims = dataOf<{ inputId?: string }>(session.events, 'user/message').map((data) => data.inputId);
    expect(claims).toEqual([a.inputId, b.inputId, 'my-input']);
  });

  it('unknown tools, unparsable arguments and schema failures become error results; the body never runs', async () => {
    const session = await memoryStore().create();
    const { tools, invocations } = countingTools();
    const model = createScriptedModel([
      {
        toolCalls: [
          { name: 'nope', arguments: {} },
          { name: 'lookup', arguments: '{"key": ' },
          { name: 'lookup', arguments: { key: 7 } },
          { name: 'lookup', arguments: { key: 'ok' } },
        ],
      },
      { text: 'handled' },
    ]);
    const agent = new Agent({ session, model, tools, cwd: process.cwd() });
    agent.enqueue('go');
    const result = await agent.idle();
    expect(result?.reason).toEqual({ kind: 'completed' });
    expect(results(session.events).map((data) => data.error?.code ?? 'ok')).toEqual([
      'TOOL_NOT_FOUND',
      'INVALID_TOOL_INPUT',
      'INVALID_TOOL_INPUT',
      'ok',
    ]);
    expect(results(session.events)[0]?.message.content[0]).toEqual({
      type: 'text',
      text: 'There is no tool named "nope" in this session (available: lookup, touch, save).',
    });
    expect(dataOf<{ effect: string }>(session.events, 'tool/call')[0]?.effect).toBe('unknown');
    expect(invocations).toHaveLength(1);
  });

  it('a throwing tool becomes an error result with its name and code, and the turn goes on', async () => {
    await using dir = await makeTempDir();
    const session = await memoryStore().create({ config: { cwd: dir.path } });
    const model = createScriptedModel([
      {
        toolCalls: [
          { name: 'read_file', arguments: { path: '../x' } },
          { name: 'read_file', arguments: { path: 'missing' } },
        ],
      },
      { toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'A' } }] },
      { text: 'done' },
    ]);
    const agent = new Agent({ session, model, tools: demoTools(), cwd: process.cwd() });
    agent.enqueue('go');
    expect((await agent.idle())?.text).toBe('done');
    expect(results(session.events).map((data) => [data.message.isError, data.error])).toEqual([
      [true, { name: 'AgentError', code: 'PATH_OUTSIDE_CWD' }],
      [true, { name: 'AgentError', code: 'FILE_NOT_FOUND' }],
      [false, undefined],
    ]);
    expect(await readFile(join(dir.path, 'a.txt'), 'utf8')).toBe('A');
  });

  it('a model failure ends the turn with kind error and the failure code', async () => {
    const session = await memoryStore().create();
    const agent = new Agent({ session, model: createScriptedModel([], { name: 'empty' }) });
    agent.enqueue('go');
    const result = await agent.idle();
    expect(result).toMatchObject({
      isError: true,
      reason: { kind: 'error', error: { code: 'SCRIPT_EXHAUSTED', message: 'empty: request 1 has no response; the script has 0' } },
    });
    expect(typesFrom(session.events, session.firstLiveSeq)).toEqual([
      'input/queued',
      'turn/start',
      'user/message',
      'step/start',
      'step/end',
      'turn/end',
    ]);
  });

  it('an OpenAI-compatible endpoint error ends the turn with kind error (real HTTP server)', async () => {
    await using server = await startModelServer((_, index) =>
      index === 0
        ? { json: { choices: [{ message: { role: 'assistant', content: 'hi there' } }] } }
        : { status: 429, json: { error: { message: 'Rate limit reached' } } },
    );
    const session = await memoryStore().create();
    const model = createOpenAIModel({ model: 'm', baseUrl: `${server.origin}/v1`, retry: { maxAttempts: 1 } });
    const agent = new Agent({ session, model, system: 'sys' });
    agent.enqueue('hello');
    expect(await agent.idle()).toMatchObject({ text: 'hi there', isError: false });
    agent.enqueue('again');
    const failed = await agent.idle();
    expect(failed?.reason).toEqual({
      kind: 'error',
      error: { code: 'MODEL_HTTP_ERROR', message: `openai: ${server.origin}/v1/chat/completions answered 429: Rate limit reached` },
    });
    expect((server.requests[1]?.body as { messages: unknown[] }).messages).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: 'hi there' },
      { role: 'user', content: 'again' },
    ]);
  });

  it('ends a turn that keeps calling tools with max-steps', async () => {
    const session = await memoryStore().create();
    const { tools, invocations } = countingTools();
    const call = { toolCalls: [{ name: 'lookup', arguments: { key: 'k' } }] };
    const model = createScriptedModel([call, call, call]);
    const agent = new Agent({ session, model, tools, maxSteps: 2, cwd: process.cwd() });
    agent.enqueue('loop');
    expect((await agent.idle())?.reason).toEqual({ kind: 'max-steps' });
    expect(invocations).toHaveLength(2);
    expect(model.unused()).toHaveLength(1);
    expect(typesFrom(session.events, session.events.length - 2)).toEqual(['step/end', 'turn/end']);
  });

  it('cancelling during the model request ends the turn cancelled, without an assistant message', async () => {
    const session = await memoryStore().create();
    const seen: ModelRequest[] = [];
    const model: Model = {
      name: 'waits',
      complete: (request) => {
        seen.push(request);
        return new Promise((_, reject) => {
          request.signal?.addEventListener('abort', () => {
            reject(request.signal?.reason as Error);
          });
        });
      },
    };
    const agent = new Agent({ session, model });
    expect(agent.cancel()).toBe(false);
    agent.enqueue('go');
    await until(() => seen.length === 1);
    expect(agent.cancel()).toBe(true);
    const result = await agent.idle();
    expect(result).toMatchObject({ reason: { kind: 'cancelled' }, isError: true, text: '' });
    expect(typesFrom(session.events, session.firstLiveSeq)).toEqual([
      'input/queued',
      'turn/start',
      'user/message',
      'step/start',
      'step/end',
      'turn/end',
    ]);
  });

  it('cancelling during a tool: the running call is outcome-unknown, later calls get not-started results, queued input then runs', async () => {
    const session = await memoryStore().create();
    const started = gate();
    const { tools, invocations } = countingTools();
    const slow = defineTool({
      name: 'slow',
      description: 'Waits until cancelled.',
      input: z.object({}),
      effect: 'side-effect',
      run: (_, ctx) =>
        new Promise<string>((_, reject) => {
          started.open();
          ctx.signal.addEventListener('abort', () => {
            reject(new Error('stopped by abort'));
          });
        }),
    });
    const model = createScriptedModel([
      {
        toolCalls: [
          { name: 'lookup', arguments: { key: 'a' } },
          { name: 'slow', arguments: {} },
          { name: 'save', arguments: { key: 'b', value: 'v' } },
        ],
      },
      { text: 'next turn' },
    ]);
    const agent = new Agent({ session, model, tools: [...tools, slow], cwd: process.cwd() });
    agent.enqueue('go');
    await started.promise;
    const queued = agent.enqueue('after cancel');
    agent.cancel();
    const next = await agent.result(queued.inputId);
    expect(next).toMatchObject({ turn: 2, text: 'next turn', isError: false });
    const turnEnds = dataOf<{ reason: { kind: string } }>(session.events, 'turn/end').map((data) => data.reason.kind);
    expect(turnEnds).toEqual(['cancelled', 'completed']);
    const [ok, running, notStarted] = results(session.events);
    expect(ok?.error).toBeUndefined();
    expect(running?.error).toEqual({ name: 'ToolCancelledError', code: 'TOOL_CANCELLED_OUTCOME_UNKNOWN' });
    expect(running?.message.id).toMatch(/^cancelled-tool-result-call-\d+-1-\d+$/);
    expect(running?.message.content[0]).toMatchObject({
      text: expect.stringContaining('cancelled while this tool call was running') as string,
    });
    expect(notStarted?.error).toEqual({ name: 'ToolCancelledError', code: 'TOOL_CANCELLED' });
    expect(notStarted?.message.content[0]).toMatchObject({ text: expect.stringContaining('did not run') as string });
    expect(invocations.map((call) => call.name)).toEqual(['lookup']);
  });

  it('session/config tools is availability: an unlisted tool does not exist for the model', async () => {
    const session = await memoryStore().create({ config: { tools: ['lookup'] } });
    const { tools, invocations } = countingTools();
    const model = createScriptedModel([
      { toolCalls: [{ name: 'save', arguments: { key: 'k', value: 'v' } }] },
      { text: 'no save' },
      { text: 'now with save' },
    ]);
    const agent = new Agent({ session, model, tools, cwd: process.cwd() });
    agent.enqueue('try');
    await agent.idle();
    expect(model.requests[0]?.tools.map((tool) => tool.name)).toEqual(['lookup']);
    expect(results(session.events)[0]?.error?.code).toBe('TOOL_NOT_FOUND');
    expect(invocations).toEqual([]);
    await agent.configure({ tools: ['lookup', 'save'] });
    expect(session.events.at(-1)).toMatchObject({ type: 'session/config', data: { tools: ['lookup', 'save'] } });
    agent.enqueue('again');
    await agent.idle();
    expect(model.requests[2]?.tools.map((tool) => tool.name)).toEqual(['lookup', 'save']);
  });

  it('a fork may override the config: the child offers only the tools its config lists', async () => {
    const store = memoryStore();
    const parent = await store.create({ id: 'cfg-parent' });
    const { tools } = countingTools();
    const parentModel = createScriptedModel([{ text: 'parent' }]);
    const parentAgent = new Agent({ session: parent, model: parentModel, tools, cwd: process.cwd() });
    parentAgent.enqueue('hi');
    await parentAgent.idle();
    const child = await store.fork('cfg-parent', { atSeq: parent.events.length - 1, config: { tools: ['touch'] } });
    const childModel = createScriptedModel([{ text: 'child' }]);
    const childAgent = new Agent({ session: child, model: childModel, tools, cwd: process.cwd() });
    childAgent.enqueue('hi');
    await childAgent.idle();
    expect(parentModel.requests[0]?.tools.map((tool) => tool.name)).toEqual(['lookup', 'touch', 'save']);
    expect(childModel.requests[0]?.tools.map((tool) => tool.name)).toEqual(['touch']);
  });

  it('reports streaming deltas without persisting them', async () => {
    const session = await memoryStore().create();
    const deltas: { turn: number; step: number; text?: string }[] = [];
    const agent = new Agent({ session, model: createKeylessModel(), onDelta: (delta) => deltas.push(delta) });
    agent.enqueue('hello');
    const result = await agent.idle();
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.every((delta) => delta.turn === 1 && delta.step === 1)).toBe(true);
    expect(deltas.map((delta) => delta.text).join('')).toBe(result?.text);
    expect(session.events.every((event) => !event.type.includes('delta'))).toBe(true);
  });

  it('assigns call-<seq>-<index> ids to calls without an id or with a repeated one', async () => {
    const session = await memoryStore().create();
    const { tools } = countingTools();
    const model = createScriptedModel([
      {
        toolCalls: [
          { id: 'x', name: 'lookup', arguments: { key: '1' } },
          { id: 'x', name: 'lookup', arguments: { key: '2' } },
          { name: 'lookup', arguments: { key: '3' } },
        ],
      },
      { text: 'ok' },
    ]);
    const agent = new Agent({ session, model, tools, cwd: process.cwd() });
    agent.enqueue('go');
    await agent.idle();
    const seq = session.events.find((event) => event.type === 'assistant/message')!.seq;
    expect(dataOf<{ callId: string }>(session.events, 'tool/call').map((call) => call.callId)).toEqual([
      'x',
      `call-${seq}-1`,
      `call-${seq}-2`,
    ]);
  });

  it('betweenTurns runs after the running turn and before the next one', async () => {
    const session = await memoryStore().create();
    const { model, hold } = heldScriptedModel([{ text: 'one' }, { text: 'two' }]);
    const agent = new Agent({ session, model });
    agent.enqueue('first');
    await until(() => agent.running);
    agent.enqueue('second');
    const titled = agent.betweenTurns(() => session.append('session/title', { title: 'Named' }).seq);
    hold.open();
    const seq = await titled;
    await agent.idle();
    const types = session.events.map((event) => event.type);
    expect(types.lastIndexOf('turn/end', seq)).toBeGreaterThan(types.indexOf('turn/start'));
    expect(types.indexOf('turn/start', seq)).toBeGreaterThan(seq);
    expect(session.title).toBe('Named');
  });

  it('refuses input after close and a session that ends inside an open turn', async () => {
    const store = memoryStore();
    const session = await store.create();
    const agent = new Agent({ session, model: createKeylessModel() });
    await expect(agent.result('never-queued')).rejects.toMatchObject({ code: 'INVALID_OPTION' });
    await agent.close();
    expect(() => agent.enqueue('late')).toThrow(expect.objectContaining({ code: 'AGENT_CLOSED' }));
    session.append('turn/start', { turn: 1 });
    let error: unknown;
    try {
      new Agent({ session, model: createKeylessModel() });
    } catch (caught) {
      error = caught;
    }
    expect(AgentError.is(error) && error.code).toBe('INVALID_OPTION');
  });
});

describe('pending input after resume and fork', () => {
  it('a resumed session runs input queued before the crash; numbering continues', async () => {
    const { store } = await jsonlStore();
    const session = await store.create({ id: 's' });
    const first = new Agent({ session, model: createScriptedModel([{ text: 'one' }]) });
    first.enqueue('one');
    await first.idle();
    const stranded = session.append('input/queued', {
      inputId: 'stranded',
      message: { id: 'm', role: 'user', content: [{ type: 'text', text: 'still waiting' }] },
    });
    await session.close();

    const reopened = await store.open('s');
    const model = createScriptedModel([{ text: 'two' }]);
    const agent = new Agent({ session: reopened, model, autoStart: false });
    expect(agent.pendingInputs()).toEqual([
      { seq: stranded.seq, inputId: 'stranded', message: { id: 'm', role: 'user', content: [{ type: 'text', text: 'still waiting' }] } },
    ]);
    const second = new Agent({ session: reopened, model });
    expect(await second.result('stranded')).toMatchObject({ turn: 2, text: 'two', inputIds: ['stranded'] });
    await reopened.close();
  });

  it('a fork child never inherits pending input', async () => {
    const store = memoryStore();
    const parent = await store.create();
    const queued = parent.append('input/queued', {
      inputId: 'parent-input',
      message: { id: 'm', role: 'user', content: [{ type: 'text', text: 'for the parent' }] },
    });
    const child = await store.fork(parent.id, { atSeq: queued.seq });
    const model = createScriptedModel([{ text: 'child' }]);
    const agent = new Agent({ session: child, model });
    expect(agent.pendingInputs()).toEqual([]);
    await agent.idle();
    expect(model.requests).toHaveLength(0);
    const { inputId } = agent.enqueue('own input');
    expect((await agent.result(inputId)).inputIds).toEqual([inputId]);
    expect(model.requests[0]?.messages.map((message) => message.content)).toEqual([[{ type: 'text', text: 'own input' }]]);
  });
});

describe('tool files', () => {
  it('demo tools work in the session cwd given by session/config', async () => {
    await using dir = await makeTempDir();
    await writeFile(join(dir.path, 'hello.txt'), 'hi from the cwd');
    const session = await memoryStore().create({ config: { cwd: dir.path } });
    const agent = new Agent({ session, model: createKeylessModel(), tools: demoTools(), cwd: '/nonexistent' });
    expect(agent.cwd()).toBe(dir.path);
    agent.enqueue('read hello.txt');
    expect((await agent.idle())?.text).toBe('Contents of hello.txt:\nhi from the cwd');
  });
});
