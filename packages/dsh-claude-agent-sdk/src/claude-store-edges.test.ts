import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CLAUDE_STORE_ERROR_CODES, createClaudeSessionStore } from 'dsh-claude-agent-sdk';
import { claudeRefusal } from './__fixtures__/claude-refusal.js';
import { freshProject, userEntry } from './__fixtures__/claude-store-contract.js';
import { openTempJsonlStore } from './__fixtures__/temp-jsonl-store.js';

const { store, close } = await openTempJsonlStore('dsh-claude-edges-');
afterAll(close);

/** The dsh session id of the only session `store.list()` gained while `action` ran. */
async function newSessionId(action: () => Promise<unknown>): Promise<string> {
  const before = new Set((await store.list()).map((summary) => summary.id));
  await action();
  const added = (await store.list()).map((summary) => summary.id).filter((id) => !before.has(id));
  expect(added).toHaveLength(1);
  return added[0] as string;
}

describe('createClaudeSessionStore at its edges', () => {
  it('the README names every error code of the table', () => {
    const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
    expect(Object.keys(CLAUDE_STORE_ERROR_CODES).filter((code) => !readme.includes(`| \`${code}\` |`))).toEqual([]);
  });

  it('an append waits for another holder of the key, and gives up with SESSION_BUSY after busyTimeoutMs', async () => {
    const claude = createClaudeSessionStore({ store, busyTimeoutMs: 50 });
    const key = { projectKey: freshProject(), sessionId: 'held' };
    const id = await newSessionId(() => claude.append(key, [userEntry('h1', 'first')]));
    await claude.close();
    // Another writer (here: the dsh store itself) holds the session and never lets go during the call.
    const holder = await store.open(id);
    const waiting = createClaudeSessionStore({ store, busyTimeoutMs: 50 });
    const error = await claudeRefusal(waiting.append(key, [userEntry('h2', 'second')]));
    expect(error.code).toBe('SESSION_BUSY');
    expect(error.message).toMatch(/stayed held by another writer for \d+ ms \(busyTimeoutMs 50\)/);
    // Once the holder is gone, the same append goes through.
    await holder.close();
    await waiting.append(key, [userEntry('h2', 'second')]);
    expect((await waiting.load(key))?.map((entry) => entry.uuid)).toEqual(['h1', 'h2']);
    await waiting.close();
  });

  it('two Claude stores over one dsh store append to one key in turn: the second waits for the first to release', async () => {
    const [one, two] = [createClaudeSessionStore({ store }), createClaudeSessionStore({ store })];
    const key = { projectKey: freshProject(), sessionId: 'shared-in-process' };
    const batches = Array.from({ length: 6 }, (_, batch) => [userEntry(`s${String(batch)}-a`, 'a'), userEntry(`s${String(batch)}-b`, 'b')]);
    await Promise.all(batches.map((batch, index) => (index % 2 === 0 ? one : two).append(key, batch)));
    const loaded = (await one.load(key))?.map((entry) => entry.uuid) ?? [];
    expect([...loaded].sort()).toEqual(
      batches
        .flat()
        .map((entry) => entry.uuid)
        .sort(),
    );
    // Each batch's two entries are adjacent: `sN-a` directly followed by `sN-b`.
    for (let at = 0; at < loaded.length; at += 2) expect(loaded[at + 1]).toBe(loaded[at]?.replace(/-a$/, '-b'));
    await one.close();
    await two.close();
  });

  it("a dsh session at a key's id that records another key is KEY_MISMATCH and left alone", async () => {
    const claude = createClaudeSessionStore({ store });
    const key = { projectKey: freshProject(), sessionId: 'forged' };
    const id = await newSessionId(() => claude.append(key, [userEntry('f1', 'real')]));
    await claude.delete(key);
    const forged = [
      { seq: 0, type: 'session/end-seed', time: 1, data: {} },
      { seq: 1, type: 'claude/key', time: 1, data: { projectKey: 'elsewhere', sessionId: 'other' }, ignorable: true as const },
      { seq: 2, type: 'claude/entry', time: 1, data: { type: 'user', uuid: 'x' }, ignorable: true as const },
    ];
    await store.import({ header: { format: 'dsh-session', version: 7, id, createdAt: 1, inheritedEventCount: 0 }, events: forged });
    // One at a time: a second promise started before the first is awaited would reject unobserved.
    for (const action of [() => claude.load(key), () => claude.append(key, [userEntry('f2', 'more')])]) {
      expect((await claudeRefusal(action())).code).toBe('KEY_MISMATCH');
    }
    expect((await store.observe(id)).events).toHaveLength(3);
    await claude.close();
    await store.delete(id);
  });

  it('listSessionSummaries gives none without the SDK fold (foldSessionSummary: null), so the SDK loads instead', async () => {
    const claude = createClaudeSessionStore({ store, foldSessionSummary: null });
    const projectKey = freshProject();
    await claude.append({ projectKey, sessionId: 'no-fold' }, [userEntry('n1', 'x')]);
    expect(await claude.listSessionSummaries(projectKey)).toEqual([]);
    expect((await claude.listSessions(projectKey)).map((row) => row.sessionId)).toEqual(['no-fold']);
    await claude.close();
  });

  it('every call after close() is STORE_CLOSED; the dsh store stays open', async () => {
    const claude = createClaudeSessionStore({ store });
    const key = { projectKey: freshProject(), sessionId: 'closing' };
    await claude.append(key, [userEntry('c1', 'x')]);
    await claude.close();
    for (const action of [
      claude.append(key, [userEntry('c2', 'y')]),
      claude.load(key),
      claude.listSessions(key.projectKey),
      claude.delete(key),
      claude.listSubkeys(key),
    ]) {
      expect((await claudeRefusal(action)).code).toBe('STORE_CLOSED');
    }
    expect(await createClaudeSessionStore({ store }).load(key)).toEqual([userEntry('c1', 'x')]);
  });
});
