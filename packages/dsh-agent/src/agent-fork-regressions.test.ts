/**
 * The agent-loop regressions of issue 4: after a fork at every seq of a recorded multi-step log,
 * and after crash repair of the same prefixes, the actual next model request holds the inherited
 * history with the synthetic results right after their calls, every real result is kept, turn
 * numbering continues, and no call that already has a result runs again (tool invocations counted).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '@dsh/test-utils';
import { syntheticResultMessage, type CloseCause, type SessionEvent, type ToolEffect, type UserMessage } from 'dsh-codec';
import { createMemoryStore, openSessionStore, type Session, type SessionStore } from 'dsh-session';
import { Agent, createScriptedModel, type ModelMessage, type ScriptedResponse } from 'dsh-agent';
import { countingTools, gate, until } from './__fixtures__/agent-fixtures.js';

/** Three turns: two multi-step turns with several calls per step, then a turn whose model fails. */
const PARENT_SCRIPT: ScriptedResponse[] = [
  {
    text: 'Starting.',
    toolCalls: [
      { name: 'lookup', arguments: { key: 'a' } },
      { name: 'save', arguments: { key: 'b', value: '1' } },
    ],
  },
  { toolCalls: [{ name: 'touch', arguments: { key: 'c' } }] },
  { text: 'Turn one done.' },
  {
    toolCalls: [
      { name: 'save', arguments: { key: 'd', value: '2' } },
      { name: 'lookup', arguments: { key: 'e' } },
    ],
  },
  { text: 'Turn two done.' },
  { error: { message: 'provider down' } },
];
const PARENT_INPUTS = ['go', 'again', 'fail'];

async function recordParent(store: SessionStore, id: string): Promise<{ session: Session; invocations: number }> {
  const session = await store.create({ id, title: 'parent' });
  const { tools, invocations } = countingTools();
  const agent = new Agent({ session, model: createScriptedModel(PARENT_SCRIPT), tools, cwd: process.cwd() });
  for (const text of PARENT_INPUTS) {
    agent.enqueue(text);
    await agent.idle();
  }
  return { session, invocations: invocations.length };
}

const SURFACE = new Set(['user/message', 'assistant/message', 'tool/result']);
type Call = { callId: string; name: string; arguments: string; started: boolean; effect?: ToolEffect; answered: boolean };

/** What the log of SPEC §3/§4 says a prefix closes to, computed from the prefix alone. */
function analyse(prefix: readonly SessionEvent[]) {
  let maxTurn = 0;
  let turnOpen = false;
  let stepCalls: Call[] | undefined;
  const queued = new Map<string, UserMessage>();
  for (const event of prefix) {
    const data = event.data as {
      inputId?: string;
      message?: { callId?: string; content: { type: string; id?: string; name?: string; arguments?: string }[] } & UserMessage;
      turn?: number;
      callId?: string;
      effect?: ToolEffect;
    };
    switch (event.type) {
      case 'input/queued':
        queued.set(data.inputId!, data.message!);
        break;
      case 'user/message':
        if (data.inputId !== undefined) queued.delete(data.inputId);
        break;
      case 'turn/start':
        maxTurn = data.turn!;
        turnOpen = true;
        break;
      case 'turn/end':
        turnOpen = false;
        stepCalls = undefined;
        break;
      case 'step/start':
        stepCalls = [];
        break;
      case 'step/end':
        stepCalls = undefined;
        break;
      case 'assistant/message':
        for (const block of data.message!.content) {
          if (block.type === 'tool-call') {
            stepCalls?.push({ callId: block.id, name: block.name, arguments: block.arguments, started: false, answered: false });
          }
        }
        break;
      case 'tool/call': {
        const call = stepCalls?.find((candidate) => candidate.callId === data.callId);
        if (call !== undefined) Object.assign(call, { started: true, effect: data.effect });
        break;
      }
      case 'tool/result': {
        const call = stepCalls?.find((candidate) => candidate.callId === data.message!.callId);
        if (call !== undefined) call.answered = true;
        break;
      }
    }
  }
  const pendingCalls = turnOpen ? (stepCalls ?? []).filter((call) => !call.answered) : [];
  const realResults = prefix
    .filter((event) => event.type === 'tool/result')
    .map((event) => (event.data as { message: ModelMessage }).message);
  const surface = prefix.filter((event) => SURFACE.has(event.type)).map((event) => (event.data as { message: ModelMessage }).message);
  return { maxTurn, pendingCalls, realResults, surface, queued: [...queued.values()] };
}

function syntheticFor(cause: CloseCause, calls: readonly Call[], firstSeq: number): ModelMessage[] {
  return calls.map((call, index) =>
    syntheticResultMessage(
      cause,
      { callId: call.callId, started: call.started, ...(call.effect === undefined ? {} : { effect: call.effect }) },
      firstSeq + index,
    ),
  );
}

const userText = (message: ModelMessage) => (message.content[0] as { text: string }).text;

/**
 * Continues `child` with one new input and a script; checks the request and returns what ran.
 * `stranded` are inputs the log still holds unclaimed (only a resumed session has any).
 */
async function continueWith(child: Session, script: ScriptedResponse[]) {
  const { tools, invocations } = countingTools();
  const model = createScriptedModel(script);
  const agent = new Agent({ session: child, model, tools, autoStart: false, cwd: process.cwd() });
  const pending = agent.pendingInputs();
  const { inputId } = agent.enqueue('next');
  const result = await agent.result(inputId);
  await agent.close();
  return { model, invocations, result, pending };
}

let dir: TempDir;
let memory: SessionStore;
let jsonl: SessionStore;
let parent: Session;
let parentInvocations: number;
let parentFile: string[];

beforeAll(async () => {
  dir = await makeTempDir();
  memory = createMemoryStore();
  jsonl = await openSessionStore({ dir: dir.path });
  ({ session: parent, invocations: parentInvocations } = await recordParent(memory, 'parent'));
  await recordParent(jsonl, 'parent');
  parentFile = (await readFile(join(dir.path, 'parent.jsonl'), 'utf8')).trimEnd().split('\n');
});
afterAll(async () => {
  await memory.close();
  await jsonl.close();
  await dir.remove();
});

describe('the recorded parent', () => {
  it('ran each call exactly once and ended with an error turn', () => {
    const calls = parent.events.filter((event) => event.type === 'tool/call');
    expect(calls).toHaveLength(5);
    expect(parentInvocations).toBe(calls.length);
    expect(parent.events.at(-1)?.data).toEqual({
      turn: 3,
      reason: { kind: 'error', error: { message: 'scripted: provider down', code: 'SCRIPTED_FAILURE' } },
    });
    expect(parentFile).toHaveLength(parent.events.length + 1);
  });
});

describe('fork at every seq, then continue', () => {
  it('the next model request holds the inherited history with synthetic results after their calls; nothing re-runs', async () => {
    const events = parent.events;
    const seen = { started: 0, notStarted: 0, closedTurns: 0 };
    for (let cut = 0; cut < events.length; cut += 1) {
      const prefix = events.slice(0, cut + 1);
      const expected = analyse(prefix);
      seen.started += expected.pendingCalls.filter((call) => call.started).length;
      seen.notStarted += expected.pendingCalls.filter((call) => !call.started).length;
      if (expected.pendingCalls.length === 0) seen.closedTurns += 1;
      const child = await memory.fork('parent', { atSeq: cut, id: `fork-${cut}` });
      const { model, invocations, result, pending } = await continueWith(child, [{ text: 'child reply' }]);
      const where = `fork at seq ${cut}`;

      expect(pending, where).toEqual([]);
      expect(invocations, where).toEqual([]);
      expect(result.turn, where).toBe(expected.maxTurn + 1);
      const messages = model.requests[0]?.messages ?? [];
      const synthetic = syntheticFor('forked', expected.pendingCalls, cut + 2);
      expect(messages.slice(0, -1), where).toEqual([...expected.surface, ...synthetic]);
      expect(userText(messages.at(-1)!), where).toBe('next');
      for (const real of expected.realResults) expect(messages, where).toContainEqual(real);
      await child.close();
    }
    // The cuts cover started and not-started calls as well as cuts without any open call.
    expect(seen.started).toBeGreaterThanOrEqual(4);
    expect(seen.notStarted).toBeGreaterThanOrEqual(4);
    expect(seen.closedTurns).toBeGreaterThan(10);
  });

  it('a call that never started in the parent runs in the child only through a new call', async () => {
    const events = parent.events;
    let checked = 0;
    for (let cut = 0; cut < events.length; cut += 1) {
      const notStarted = analyse(events.slice(0, cut + 1)).pendingCalls.filter((call) => !call.started);
      const first = notStarted[0];
      if (first === undefined) continue;
      checked += 1;
      const child = await memory.fork('parent', { atSeq: cut, id: `rerun-${cut}` });
      const rerun = { name: first.name, arguments: JSON.parse(first.arguments) as Record<string, string> };
      const { model, invocations, result } = await continueWith(child, [{ toolCalls: [rerun] }, { text: 'rerun done' }]);
      const where = `fork at seq ${cut}`;
      expect(result.text, where).toBe('rerun done');
      expect(invocations, where).toHaveLength(1);
      expect(invocations[0]?.callId, where).not.toBe(first.callId);
      expect(invocations[0]?.args, where).toEqual(rerun.arguments);
      const callIds = child.events.filter((event) => event.type === 'tool/call').map((event) => (event.data as { callId: string }).callId);
      expect(
        callIds.filter((id) => id === first.callId),
        where,
      ).toHaveLength(
        events.slice(0, cut + 1).filter((event) => event.type === 'tool/call' && (event.data as { callId: string }).callId === first.callId)
          .length,
      );
      expect(model.requests[1]?.messages.at(-1), where).toMatchObject({ role: 'tool', callId: invocations[0]?.callId, isError: false });
      await child.close();
    }
    expect(checked).toBeGreaterThan(3);
  });

  it('a live parent keeps running a call the child only sees as outcome-unknown', async () => {
    const store = createMemoryStore();
    try {
      const session = await store.create({ id: 'live' });
      const held = gate();
      const parentTools = countingTools();
      const save = parentTools.tools.find((tool) => tool.name === 'save')!;
      const slowSave = {
        ...save,
        run: async (args: unknown, ctx: Parameters<typeof save.run>[1]) => {
          await held.promise;
          return save.run(args, ctx);
        },
      };
      const agent = new Agent({
        session,
        model: createScriptedModel([{ toolCalls: [{ name: 'save', arguments: { key: 'k', value: 'v' } }] }, { text: 'parent done' }]),
        tools: [slowSave],
        cwd: process.cwd(),
      });
      agent.enqueue('save it');
      await until(() => session.events.at(-1)?.type === 'tool/call');
      const observation = await store.observe('live');
      const snapshot = observation.events;
      const cut = snapshot.length - 1;
      const child = await store.fork(observation, { atSeq: cut, id: 'live-child' });
      held.open();
      expect((await agent.idle())?.text).toBe('parent done');
      expect(parentTools.invocations).toHaveLength(1);

      const { model, invocations } = await continueWith(child, [{ text: 'checked' }]);
      expect(invocations).toEqual([]);
      const callId = (snapshot[cut]?.data as { callId: string }).callId;
      const synthetic = model.requests[0]?.messages.find((message) => message.role === 'tool');
      expect(synthetic).toEqual(syntheticResultMessage('forked', { callId, started: true, effect: 'side-effect' }, cut + 2));
      await child.close();
    } finally {
      await store.close();
    }
  });
});

describe('crash repair of every prefix, then continue', () => {
  it('the next model request holds the repaired history; stranded input is kept; nothing re-runs', async () => {
    const header = JSON.parse(parentFile[0]!) as Record<string, unknown>;
    const events = parent.events;
    let stranded = 0;
    for (let cut = 0; cut < events.length; cut += 1) {
      const id = `crash-${cut}`;
      const lines = [JSON.stringify({ ...header, id }), ...parentFile.slice(1, cut + 2)];
      await writeFile(join(dir.path, `${id}.jsonl`), `${lines.join('\n')}\n`);
      const prefix = events.slice(0, cut + 1);
      const expected = analyse(prefix);
      const where = `crash after seq ${cut}`;
      expect((await jsonl.inspect(id)).needsRepair, where).toBe(
        expected.maxTurn > 0 && prefix.findLast((e) => e.type === 'turn/start' || e.type === 'turn/end')?.type === 'turn/start',
      );

      const resumed = await jsonl.open(id);
      const { model, invocations, result, pending } = await continueWith(resumed, [{ text: 'resumed reply' }]);
      expect(invocations, where).toEqual([]);
      expect(result.turn, where).toBe(expected.maxTurn + 1);
      expect(
        pending.map((input) => input.message),
        where,
      ).toEqual(expected.queued);
      stranded += pending.length;
      const messages = model.requests[0]?.messages ?? [];
      const synthetic = syntheticFor('interrupted', expected.pendingCalls, cut + 1);
      expect(messages, where).toEqual([...expected.surface, ...synthetic, ...expected.queued, expect.objectContaining({ role: 'user' })]);
      expect(userText(messages.at(-1)!), where).toBe('next');
      for (const real of expected.realResults) expect(messages, where).toContainEqual(real);
      await resumed.close();
    }
    expect(stranded).toBeGreaterThanOrEqual(3);
  });
});
