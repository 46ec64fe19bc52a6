/**
 * `host.fork(…, { workspace: 'at-cut' })` (SPEC §23, format V6): a fork whose files are the workspace
 * at the cut tells the model so in the closer of a call open at the cut; a fork without it does not,
 * and the Idempotency-Key digest tells the two requests apart.
 */
import { afterEach, expect, it } from 'vitest';
import { FORKED_WORKSPACE_AT_CUT_SENTENCE } from 'dsh-codec';
import { createScriptedModel } from 'dsh-agent';
import { createMemoryStore } from 'dsh-session';
import { createHost, HostError, type Host } from 'dsh-host';
import { echoTool } from '../__fixtures__/echo-tool.js';

const hosts: Host[] = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
});

async function forkAtCall(workspace: 'at-cut' | undefined): Promise<string | undefined> {
  const store = createMemoryStore();
  const model = createScriptedModel([{ text: 'calling', toolCalls: [{ name: 'echo', arguments: { text: 'hi' } }] }, { text: 'done' }]);
  const host = createHost({ store, model, tools: [echoTool] });
  hosts.push(host);
  const { sessionId } = await host.query({ prompt: 'start' });
  const call = (await host.observe(sessionId)).events.find((event) => event.type === 'tool/call')!;
  const fork = await host.fork(sessionId, { atSeq: call.seq, ...(workspace === undefined ? {} : { workspace }) });
  const closer = (await host.observe(fork.sessionId)).events.find((event) => event.seq > call.seq && event.type === 'tool/result');
  const content = (closer?.data as { message: { content: { type: string; text?: string }[] } } | undefined)?.message.content ?? [];
  return content.map((block) => block.text ?? '').join('');
}

it("tells the model a call open at the cut left this branch's files as they were before it started", async () => {
  const withWorkspace = await forkAtCall('at-cut');
  const without = await forkAtCall(undefined);
  expect(without).toBeDefined();
  expect(without?.includes(FORKED_WORKSPACE_AT_CUT_SENTENCE)).toBe(false);
  expect(withWorkspace).toBe(`${without ?? ''} ${FORKED_WORKSPACE_AT_CUT_SENTENCE}`);
});

it('keeps an Idempotency-Key of a fork with the workspace at the cut apart from one without it', async () => {
  const store = createMemoryStore();
  const model = createScriptedModel([{ text: 'hello' }]);
  const host = createHost({ store, model });
  hosts.push(host);
  const { sessionId } = await host.query({ prompt: 'start' });
  await host.fork(sessionId, { idempotencyKey: 'k1', workspace: 'at-cut' });
  const error = await host.fork(sessionId, { idempotencyKey: 'k1' }).catch((caught: unknown) => caught);
  expect(HostError.is(error) && error.code).toBe('IDEMPOTENCY_MISMATCH');
});
