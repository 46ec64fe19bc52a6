import { createHost, createMemoryStore, type SessionStore } from 'dsh-host';
import { describe, expect, test } from 'vitest';
import { startSession } from './start-session.js';

/** A store holding one closed session per cwd, created in this order (so the last is the most recent). */
async function storeWith(cwds: readonly string[]): Promise<{ store: SessionStore; ids: string[] }> {
  const store = createMemoryStore();
  const host = createHost({ store });
  const ids: string[] = [];
  for (const cwd of cwds) {
    const { sessionId } = await host.create({ config: { cwd } });
    await new Promise((resolve) => setTimeout(resolve, 5));
    ids.push(sessionId);
  }
  await host.close();
  return { store, ids };
}

describe('startSession --continue', () => {
  test('continues a session whose stored cwd differs from the working directory only by a trailing slash', async () => {
    const { store, ids } = await storeWith(['/work/project/']);
    const host = createHost({ store });
    // The rule the CLI had (`item.cwd === cwd`) missed this one and started a new session.
    expect((await startSession(host, { continue: true }, '/work/project')).sessionId).toBe(ids[0]);
    expect(await host.list()).toHaveLength(1);
    await host.close();
  });

  test('picks the most recently updated session of the working directory, not one of another', async () => {
    const { store, ids } = await storeWith(['/work/project', '/work/project', '/work/other']);
    const host = createHost({ store });
    expect((await startSession(host, { continue: true }, '/work/project')).sessionId).toBe(ids[1]);
    await host.close();
  });

  test('starts a new session in the working directory when none has it', async () => {
    const { store, ids } = await storeWith(['/work/other']);
    const host = createHost({ store });
    const { sessionId: started } = await startSession(host, { continue: true, name: 'fresh' }, '/work/project');
    expect(ids).not.toContain(started);
    expect(await host.observe(started)).toMatchObject({ title: 'fresh', cwd: '/work/project' });
    await host.close();
  });
});
