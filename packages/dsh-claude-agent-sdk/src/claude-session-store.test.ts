import { readdir } from 'node:fs/promises';
import { InMemorySessionStore } from '@anthropic-ai/claude-agent-sdk';
import { afterAll, describe, expect, it } from 'vitest';
import { openSessionStore, type SessionStore } from 'dsh-session';
import { makeTempDir, type TempDir } from '@dsh/test-utils';
import { createClaudeSessionStore, type ClaudeSessionStore, type SessionStoreEntry } from 'dsh-claude-agent-sdk';
import { describeClaudeStoreContract, freshProject, userEntry } from './__fixtures__/claude-store-contract.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function jsonlStore(): Promise<{ dir: TempDir; store: SessionStore; claude: ClaudeSessionStore }> {
  const dir = await makeTempDir('dsh-claude-store-');
  const store = await openSessionStore({ dir: dir.path });
  const claude = createClaudeSessionStore({ store });
  cleanups.push(
    () => dir.remove(),
    () => store.close(),
    () => claude.close(),
  );
  return { dir, store, claude };
}

describeClaudeStoreContract('the SDK InMemorySessionStore (reference)', () => Promise.resolve(new InMemorySessionStore()), {
  sdkReference: true,
});
describeClaudeStoreContract('createClaudeSessionStore on a JSONL directory', async () => (await jsonlStore()).claude);

describe('createClaudeSessionStore on a JSONL directory', () => {
  it('keeps each key in one dsh session whose file name is a hash, never a part of the key', async () => {
    const { dir, store, claude } = await jsonlStore();
    const projectKey = '-work-app';
    await claude.append({ projectKey, sessionId: 'a1b2' }, [userEntry('u1', 'Fix the login bug\nplease')]);
    await claude.append({ projectKey, sessionId: 'a1b2', subpath: 'subagents/agent-7' }, [userEntry('u2', 'look around')]);
    const files = (await readdir(dir.path)).filter((name) => name.endsWith('.jsonl')).sort();
    expect(files).toHaveLength(2);
    for (const file of files) expect(file).toMatch(/^claude-[0-9a-f]{16}-[0-9a-f]{32}(-[0-9a-f]{32})?\.jsonl$/);
    const titles = (await store.list()).map((summary) => summary.title).sort();
    expect(titles).toEqual(['Fix the login bug please', 'look around']);
  });

  it('a second store over the same directory (another host) loads and appends to the same transcript', async () => {
    const { dir, claude } = await jsonlStore();
    const key = { projectKey: freshProject(), sessionId: 'shared' };
    await claude.append(key, [userEntry('h1', 'one')]);
    await claude.close();
    const other = await openSessionStore({ dir: dir.path });
    cleanups.push(() => other.close());
    const second = createClaudeSessionStore({ store: other });
    await second.append(key, [userEntry('h2', 'two', 'h1'), userEntry('h1', 'one')]);
    expect(await second.load(key)).toEqual([userEntry('h1', 'one'), userEntry('h2', 'two', 'h1')]);
    await second.close();
  });

  it('load hands out entries the caller owns, from a held session and from a cold file: changing them changes no later load', async () => {
    const { dir, claude } = await jsonlStore();
    const key = { projectKey: freshProject(), sessionId: 'owned' };
    const appended = [userEntry('o1', 'one'), userEntry('o2', 'two', 'o1')];
    await claude.append(key, appended);
    const change = (entries: SessionStoreEntry[] | null): void => {
      expect(entries?.every((entry) => !Object.isFrozen(entry) && !Object.isFrozen((entry as { message?: unknown }).message))).toBe(true);
      (entries?.[0] as unknown as { message: { content: string } }).message.content = 'changed';
      entries?.push(userEntry('o3', 'added'));
    };
    change(await claude.load(key));
    expect(await claude.load(key)).toEqual(appended);
    await claude.close();
    // Another store object reads the verified file cold.
    const other = await openSessionStore({ dir: dir.path });
    cleanups.push(() => other.close());
    const cold = createClaudeSessionStore({ store: other });
    change(await cold.load(key));
    expect(await cold.load(key)).toEqual(appended);
  });

  it('lists nothing of dsh sessions it did not write', async () => {
    const { store, claude } = await jsonlStore();
    const session = await store.create({ id: 'claude-plain', title: 'not a transcript' });
    await session.close();
    expect(await claude.listSessions('anything')).toEqual([]);
  });
});
