// SPEC §27: a live session recovers when storage does. A passing storage failure (an I/O error, a full
// disk, an unreachable database) makes the running turn wait, never the agent stop; a lost lease stops it.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createSessionStore } from 'dsh-session';
import { Agent, createScriptedModel } from 'dsh-agent';
import { flakyBackend } from './__fixtures__/flaky-backend.js';

async function eventually(predicate: () => boolean): Promise<void> {
  while (!predicate()) await sleep(5);
}

async function setup() {
  const { backend, control } = flakyBackend();
  const store = createSessionStore({ backend });
  const session = await store.create({ id: 'flaky' });
  const model = createScriptedModel([{ text: 'first' }, { text: 'second' }]);
  const agent = new Agent({ session, model });
  return { backend, control, store, session, model, agent };
}

describe('agent over failing storage', () => {
  it('waits through a storage outage, asks the model only once its events are durable, then runs the queued input', async () => {
    const { backend, control, store, session, model, agent } = await setup();
    control.state = 'outage';
    const { inputId } = agent.enqueue('go');
    const result = agent.result(inputId);
    await eventually(() => control.failures >= 3);
    // Nothing durable, so no model request; the agent still takes input.
    expect(model.requests).toHaveLength(0);
    expect(agent.stopped).toBe(false);
    const queued = agent.enqueue('and then');
    control.state = 'up';
    await expect(result).resolves.toMatchObject({ text: 'first', reason: { kind: 'completed' } });
    await expect(agent.result(queued.inputId)).resolves.toMatchObject({ text: 'second' });
    const stored = await backend.read(session.id);
    expect(stored.events).toEqual(session.events);
    await agent.close();
    await session.close();
    await store.close();
  });

  it('stops on a lost lease: the input is refused AGENT_CLOSED and the agent says it stopped', async () => {
    const { control, store, session, agent } = await setup();
    control.state = 'lease-lost';
    const { inputId } = agent.enqueue('go');
    await expect(agent.result(inputId)).rejects.toMatchObject({ code: 'AGENT_CLOSED', cause: { code: 'SESSION_BUSY' } });
    expect(agent.stopped).toBe(true);
    expect(() => agent.enqueue('late')).toThrow(expect.objectContaining({ code: 'AGENT_CLOSED' }));
    await agent.close();
    // The lease is gone: closing gives back what the session holds and reports why nothing more was written.
    await expect(session.close()).rejects.toMatchObject({ code: 'SESSION_BUSY' });
    await store.close();
  });

  it('close() ends a turn that waits for storage', async () => {
    const { control, store, session, agent } = await setup();
    control.state = 'outage';
    const { inputId } = agent.enqueue('go');
    const result = agent.result(inputId);
    result.catch(() => undefined);
    await eventually(() => control.failures >= 1);
    await agent.close();
    await expect(result).rejects.toMatchObject({ code: 'AGENT_CLOSED' });
    control.state = 'up';
    await session.close();
    await store.close();
  });

  it('refuses a compaction while storage fails with its typed error, and compacts once storage is back', async () => {
    const { control, store, session, agent } = await setup();
    const { inputId } = agent.enqueue('some history');
    await agent.result(inputId);
    control.state = 'outage';
    await expect(agent.compact({ summarize: () => Promise.resolve('a summary') })).rejects.toMatchObject({ code: 'WRITE_FAILED' });
    control.state = 'up';
    await expect(agent.compact({ summarize: () => Promise.resolve('a summary') })).resolves.toMatchObject({ compacted: true });
    await agent.close();
    await session.close();
    await store.close();
  });
});
