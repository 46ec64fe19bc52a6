import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '@dsh/test-utils';
import { createMemoryStore, openSessionStore, type SessionStore } from 'dsh-session';
import { Agent, createKeylessModel, createScriptedModel, deriveHistory, type Model } from 'dsh-agent';
import { compactSession, openCompaction } from './compact-session.js';
import { agentErrorCode, gate, heldScriptedModel, until } from '../__fixtures__/agent-fixtures.js';

const stores: SessionStore[] = [];
const dirs: TempDir[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) await dir.remove();
});
function memoryStore(): SessionStore {
  const store = createMemoryStore();
  stores.push(store);
  return store;
}

describe('manual compaction', () => {
  it('writes start → summary → replacing user/message → end; the next request sees the summary only', async () => {
    const session = await memoryStore().create();
    const model = createScriptedModel([{ text: 'answer one' }, { text: 'answer two' }, { text: 'SUMMARY' }, { text: 'after' }]);
    const agent = new Agent({ session, model });
    agent.enqueue('one');
    await agent.idle();
    agent.enqueue('two');
    await agent.idle();
    const before = session.events.length;
    const firstSurface = session.events.find((event) => event.type === 'user/message')!.seq;
    const lastSurface = before - 4; // … assistant/message, step/end, turn/end

    const result = await agent.compact();
    expect(result).toEqual({
      compacted: true,
      summary: 'SUMMARY',
      replaced: { start: firstSurface, end: lastSurface + 1 },
      startSeq: before,
      endSeq: before + 3,
    });
    const written = session.events.slice(before);
    expect(written.map((event) => [event.type, event.ignorable ?? false])).toEqual([
      ['compaction/start', true],
      ['compaction/summary', true],
      ['user/message', false],
      ['compaction/end', true],
    ]);
    expect(written[0]?.data).toEqual({ turn: null, replace: { start: firstSurface, end: lastSurface + 1 } });
    expect(written[2]?.surfaceOp).toEqual({ op: 'replace', start: firstSurface, end: lastSurface + 1 });
    expect(written[3]?.data).toEqual({ startSeq: before, status: 'completed' });

    const summaryRequest = model.requests[2]!;
    expect(summaryRequest.tools).toEqual([]);
    expect(summaryRequest.messages).toHaveLength(5);

    agent.enqueue('three');
    await agent.idle();
    const texts = model.requests[3]?.messages.map((message) => (message.content[0] as { text: string }).text);
    expect(texts).toEqual([expect.stringMatching(/SUMMARY$/), 'three']);
  });

  it('compacts nothing when the history is empty', async () => {
    const session = await memoryStore().create();
    const agent = new Agent({ session, model: createKeylessModel() });
    const length = session.events.length;
    expect(await agent.compact()).toEqual({ compacted: false, reason: 'empty-history' });
    expect(session.events).toHaveLength(length);
  });

  it('a failed summary closes its bracket and leaves the history as it was', async () => {
    const session = await memoryStore().create();
    const agent = new Agent({ session, model: createScriptedModel([{ text: 'hi' }, { error: { message: 'no summary today' } }]) });
    agent.enqueue('hello');
    await agent.idle();
    const history = deriveHistory(session.events);
    expect(await agentErrorCode(agent.compact())).toBe('COMPACTION_FAILED');
    expect(session.events.slice(-2).map((event) => [event.type, event.data])).toEqual([
      ['compaction/start', expect.anything()],
      ['compaction/end', { startSeq: session.events.length - 2, status: 'failed', error: { message: 'scripted: no summary today' } }],
    ]);
    expect(deriveHistory(session.events)).toEqual(history);
    expect(openCompaction(session.events)).toBeUndefined();
  });

  it('cancel() stops a running compaction, which ends with status cancelled', async () => {
    const session = await memoryStore().create();
    const asked = gate();
    const script = createScriptedModel([{ text: 'hi' }]);
    const model: Model = {
      name: 'summary-waits',
      complete: (request) =>
        script.requests.length === 0
          ? script.complete(request)
          : new Promise((_, reject) => {
              asked.open();
              request.signal?.addEventListener('abort', () => {
                reject(new Error('aborted'));
              });
            }),
    };
    const agent = new Agent({ session, model });
    agent.enqueue('hello');
    await agent.idle();
    const compaction = agentErrorCode(agent.compact());
    await asked.promise;
    expect(agent.cancel()).toBe(true);
    expect(await compaction).toBe('COMPACTION_FAILED');
    expect(session.events.at(-1)?.data).toMatchObject({ status: 'cancelled' });
  });

  it('runs between turns, never inside one', async () => {
    const session = await memoryStore().create();
    const { model, hold } = heldScriptedModel([{ text: 'first' }, { text: 'SUMMARY' }]);
    const agent = new Agent({ session, model });
    agent.enqueue('first');
    await until(() => agent.running);
    expect(await agentErrorCode(compactSession(session, { model }))).toBe('TURN_IN_PROGRESS');
    const compacted = agent.compact();
    hold.open();
    expect(await compacted).toMatchObject({ compacted: true, summary: 'SUMMARY' });
    const types = session.events.map((event) => event.type);
    expect(types.indexOf('compaction/start')).toBeGreaterThan(types.indexOf('turn/end'));
  });

  it('an open compaction of this lifecycle blocks a new one; an inherited one does not', async () => {
    const store = memoryStore();
    const session = await store.create({ id: 'p' });
    const agent = new Agent({ session, model: createKeylessModel() });
    agent.enqueue('hello');
    await agent.idle();
    const start = session.append('compaction/start', { turn: null }, { ignorable: true });
    expect(openCompaction(session.events)).toBe(start.seq);
    expect(await agentErrorCode(agent.compact())).toBe('COMPACTION_IN_PROGRESS');

    const child = await store.fork('p', { atSeq: start.seq, id: 'c' });
    expect(openCompaction(child.events)).toBeUndefined();
    const childAgent = new Agent({ session: child, model: createKeylessModel() });
    const result = await childAgent.compact();
    expect(result).toMatchObject({ compacted: true });
    expect(deriveHistory(child.events)).toHaveLength(1);
  });

  it('a compaction/start left by a crashed lifecycle is stale after reopening', async () => {
    const dir = await makeTempDir();
    dirs.push(dir);
    const store = await openSessionStore({ dir: dir.path });
    stores.push(store);
    const session = await store.create({ id: 's' });
    const agent = new Agent({ session, model: createKeylessModel() });
    agent.enqueue('hello');
    await agent.idle();
    session.append('compaction/start', { turn: null }, { ignorable: true });
    await session.close();

    const reopened = await store.open('s');
    expect(openCompaction(reopened.events)).toBeUndefined();
    const result = await new Agent({ session: reopened, model: createKeylessModel() }).compact();
    expect(result).toMatchObject({ compacted: true });
    expect(result.compacted && result.summary).toMatch(
      /^- user: hello\n- assistant: Hello! I am the keyless offline model.*\n\(2 message\(s\), 0 tool result\(s\) summarized\)$/,
    );
    await reopened.close();
  });

  it('a second compaction replaces the first summary together with what followed', async () => {
    const session = await memoryStore().create();
    const agent = new Agent({ session, model: createKeylessModel() });
    agent.enqueue('hello');
    await agent.idle();
    await agent.compact();
    agent.enqueue('list files');
    await agent.idle();
    const second = await agent.compact();
    expect(second.compacted).toBe(true);
    const history = deriveHistory(session.events);
    expect(history).toHaveLength(1);
    expect((history[0]?.content[0] as { text: string }).text).toContain('- user: Summary of the conversation so far');
  });
});
