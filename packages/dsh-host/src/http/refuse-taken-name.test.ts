/**
 * SPEC §25 over HTTP: a `title` another session carries is refused 409 `NAME_TAKEN` naming that session
 * on create, rename, fork and import, creating nothing; a session keeping its own name, and a fork retried
 * under its Idempotency-Key, are not refused.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { claudeCodeTranscript } from '@dsh/test-utils';
import { createMemoryStore } from 'dsh-session';
import { createHost, type Host } from 'dsh-host';
import { call } from '../__fixtures__/http-call.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(): Promise<{ host: Host; planId: string; otherId: string }> {
  const store = createMemoryStore();
  const host = createHost({ store });
  cleanups.push(async () => {
    await host.close();
    await store.close();
  });
  const plan = await call(host, 'POST', '/api/sessions', { title: 'plan' });
  const other = await call(host, 'POST', '/api/sessions', { title: 'other' });
  expect([plan.status, other.status]).toEqual([201, 201]);
  return { host, planId: plan.body!.sessionId as string, otherId: other.body!.sessionId as string };
}

function expectTaken(answer: { status: number; body: { error?: { code: string; message: string } } | undefined }, holder: string): void {
  expect(answer.status).toBe(409);
  expect(answer.body?.error?.code).toBe('NAME_TAKEN');
  expect(answer.body?.error?.message).toContain(`The name 'plan' is taken by session ${holder}`);
}

describe('HTTP refuses a name another session carries (409 NAME_TAKEN)', () => {
  it('on create, rename, fork and import, creating and renaming nothing', async () => {
    const { host, planId, otherId } = await setup();
    const before = await host.list();
    expectTaken(await call(host, 'POST', '/api/sessions', { title: 'plan' }), planId);
    expectTaken(await call(host, 'PATCH', `/api/sessions/${otherId}`, { title: 'plan' }), planId);
    expectTaken(await call(host, 'POST', `/api/sessions/${otherId}/fork`, { title: 'plan' }), planId);
    expectTaken(await call(host, 'POST', '/api/import', { text: claudeCodeTranscript({ turns: 1 }).text, title: 'plan' }), planId);
    const after = await host.list();
    expect(after.map((item) => [item.id, item.title])).toEqual(before.map((item) => [item.id, item.title]));
  });

  it('lets a session keep its own name, a free name through, and a keyed fork retry find its child', async () => {
    const { host, planId, otherId } = await setup();
    expect((await call(host, 'PATCH', `/api/sessions/${planId}`, { title: 'plan' })).status).toBe(200);
    expect((await call(host, 'POST', '/api/sessions', { title: 'fresh' })).status).toBe(201);
    const keyed = { 'idempotency-key': 'retry-1' };
    const child = await call(host, 'POST', `/api/sessions/${otherId}/fork`, { title: 'kid' }, keyed);
    expect(child.status).toBe(201);
    const retried = await call(host, 'POST', `/api/sessions/${otherId}/fork`, { title: 'kid' }, keyed);
    expect(retried.status).toBe(201);
    expect(retried.body!.sessionId).toBe(child.body!.sessionId);
    expect((await call(host, 'POST', `/api/sessions/${otherId}/fork`, { title: 'kid' })).status).toBe(409);
    // A new key does not make a taken name free: only the child forked under the key keeps it.
    const newKey = await call(host, 'POST', `/api/sessions/${otherId}/fork`, { title: 'plan' }, { 'idempotency-key': 'other-key' });
    expectTaken(newKey, planId);
    const underKey = await call(host, 'POST', `/api/sessions/${otherId}/fork`, { title: 'kid' }, { 'idempotency-key': 'k2' });
    expect(underKey.status).toBe(409);
  });
});
