import { readdir } from 'node:fs/promises';
import { InMemorySessionStore } from '@anthropic-ai/claude-agent-sdk';
import { afterAll, describe, expect, it } from 'vitest';
import { openSessionStore, type SessionStore } from 'dsh-session';
import { makeTempDir, type TempDir } from '@dsh/test-utils';
import { createClaudeSessionStore, type ClaudeSessionStore } from 'dsh-claude-agent-sdk';
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

  it('lists nothing of dsh sessions it did not write', async () => {
    const { store, claude } = await jsonlStore();
    const session = await store.create({ id: 'claude-plain', title: 'not a transcript' });
    await session.close();
    expect(await claude.listSessions('anything')).toEqual([]);
  });
});
