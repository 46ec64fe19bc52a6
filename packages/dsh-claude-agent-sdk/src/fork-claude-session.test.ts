import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { syntheticResultText } from 'dsh-codec';
import { openPostgresStore } from 'dsh-postgres';
import { openSessionStore, type SessionStore } from 'dsh-session';
import { makeTempDir, postgresTestUrl, uniqueSchemaName } from '@dsh/test-utils';
import { createClaudeSessionStore, forkClaudeSession, type ClaudeSessionStore, type SessionStoreEntry } from 'dsh-claude-agent-sdk';
import { claudeRefusal } from './__fixtures__/claude-refusal.js';
import { assistantEntry, freshProject, userEntry } from './__fixtures__/claude-store-contract.js';

const url = postgresTestUrl();
const schema = uniqueSchemaName('claude_fork');
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const stores: [string, () => Promise<{ store: SessionStore; claude: ClaudeSessionStore }>][] = [
  [
    'JSONL',
    async () => {
      const dir = await makeTempDir('dsh-claude-fork-');
      const store = await openSessionStore({ dir: dir.path });
      const claude = createClaudeSessionStore({ store });
      cleanups.push(
        () => dir.remove(),
        () => store.close(),
        () => claude.close(),
      );
      return { store, claude };
    },
  ],
];
if (url !== undefined) {
  cleanups.push(async () => {
    const admin = new pg.Pool({ connectionString: url, max: 1 });
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });
  stores.push([
    'PostgreSQL',
    async () => {
      const store = await openPostgresStore({ connectionString: url, schema });
      const claude = createClaudeSessionStore({ store });
      cleanups.push(
        () => store.close(),
        () => claude.close(),
      );
      return { store, claude };
    },
  ]);
}

/** A parent session id on every entry, as Claude Code writes it. */
function inSession(sessionId: string, entries: SessionStoreEntry[]): SessionStoreEntry[] {
  return entries.map((entry) => ({ ...entry, sessionId }));
}

/** user → assistant (Bash tool_use) → tool_result → assistant → user → assistant (Read + Edit, two lines). */
function transcript(sessionId: string): SessionStoreEntry[] {
  const result: SessionStoreEntry = {
    parentUuid: 'a1',
    isSidechain: false,
    type: 'user',
    message: { role: 'user', content: [{ tool_use_id: 'toolu_bash', type: 'tool_result', content: 'a.txt\nb.txt', is_error: false }] },
    uuid: 'r1',
    timestamp: '2026-12-02T10:00:02.000Z',
  };
  return inSession(sessionId, [
    userEntry('u1', 'list the files'),
    assistantEntry('a1', 'u1', 'Listing.', { id: 'toolu_bash', name: 'Bash', input: { command: 'ls' } }),
    result,
    assistantEntry('a2', 'r1', 'Two files.'),
    { type: 'x-future-marker', note: 'no uuid, kept verbatim' },
    userEntry('u2', 'now read and fix a.txt', 'a2'),
    assistantEntry('a3', 'u2', 'Reading.', { id: 'toolu_read', name: 'Read', input: { file_path: 'a.txt' } }),
    {
      ...assistantEntry('a4', 'a3', 'Editing.', {
        id: 'toolu_edit',
        name: 'Edit',
        input: { file_path: 'a.txt', old_string: 'x', new_string: 'y' },
      }),
      message: {
        id: 'msg_a3',
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_edit', name: 'Edit', input: { file_path: 'a.txt', old_string: 'x', new_string: 'y' } }],
      },
    },
  ]);
}

describe.each(stores)('forkClaudeSession on %s', (_name, open) => {
  it("cuts at a tool_use entry: the chain to it, then one is_error tool_result with dsh's forked text per open call", async () => {
    const { claude } = await open();
    const parent = { projectKey: freshProject(), sessionId: 'parent-1' };
    await claude.append(parent, transcript(parent.sessionId));
    const before = await claude.load(parent);
    const fork = await forkClaudeSession(claude, parent, { at: 'a1', sessionId: 'child-1' });
    expect(fork).toEqual({ sessionId: 'child-1', inheritedEntryCount: 2 });
    const child = (await claude.load({ projectKey: parent.projectKey, sessionId: 'child-1' })) ?? [];
    expect(child.slice(0, 2)).toEqual(inSession('child-1', transcript('parent-1').slice(0, 2)));
    expect(child).toHaveLength(3);
    const closer = child[2] as SessionStoreEntry;
    expect(closer).toMatchObject({
      type: 'user',
      parentUuid: 'a1',
      sessionId: 'child-1',
      isSidechain: false,
      message: {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_bash', is_error: true, content: syntheticResultText('forked', true, 'side-effect') },
        ],
      },
    });
    expect(typeof closer.uuid).toBe('string');
    expect(await claude.load(parent)).toEqual(before);
    expect((await claude.listSessions(parent.projectKey)).map((row) => row.sessionId).sort()).toEqual(['child-1', 'parent-1']);
  });

  it("closes every call open at the cut in declaration order, with the advice of each call's effect", async () => {
    const { claude } = await open();
    const parent = { projectKey: freshProject(), sessionId: 'parent-2' };
    await claude.append(parent, transcript(parent.sessionId));
    const fork = await forkClaudeSession(claude, parent, { at: 'a4' });
    expect(fork.inheritedEntryCount).toBe(7);
    const child = (await claude.load({ projectKey: parent.projectKey, sessionId: fork.sessionId })) ?? [];
    // The uuid-less marker after a2 is not on the chain to a4; the closers follow a4.
    expect(child.slice(0, 7).map((entry) => entry.uuid)).toEqual(['u1', 'a1', 'r1', 'a2', 'u2', 'a3', 'a4']);
    const closers = child
      .slice(7)
      .map((entry) => (entry.message as { content: { tool_use_id: string; content: string; is_error: boolean }[] }).content[0]);
    expect(closers).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_read', is_error: true, content: syntheticResultText('forked', true, 'read-only') },
      { type: 'tool_result', tool_use_id: 'toolu_edit', is_error: true, content: syntheticResultText('forked', true, 'side-effect') },
    ]);
    expect(child[8]?.parentUuid).toBe(child[7]?.uuid);
  });

  it('a cut where no call is open adds nothing after the chain', async () => {
    const { claude } = await open();
    const parent = { projectKey: freshProject(), sessionId: 'parent-3' };
    await claude.append(parent, transcript(parent.sessionId));
    const fork = await forkClaudeSession(claude, parent, { at: 'r1' });
    const child = await claude.load({ projectKey: parent.projectKey, sessionId: fork.sessionId });
    expect(child?.map((entry) => entry.uuid)).toEqual(['u1', 'a1', 'r1']);
  });

  it('an `at` that is no entry of the main transcript is INVALID_CUT and creates nothing', async () => {
    const { store, claude } = await open();
    const parent = { projectKey: freshProject(), sessionId: 'parent-4' };
    await claude.append(parent, transcript(parent.sessionId));
    await claude.append({ ...parent, subpath: 'subagents/agent-1' }, [userEntry('sub-1', 'sub')]);
    const listed = (await store.list()).length;
    for (const at of ['nope', 'sub-1', '']) {
      const error = await claudeRefusal(forkClaudeSession(claude, parent, { at, sessionId: 'never-made' }));
      expect(error.code).toBe('INVALID_CUT');
    }
    expect((await store.list()).length).toBe(listed);
    expect(await claude.load({ projectKey: parent.projectKey, sessionId: 'never-made' })).toBeNull();
  });

  it('refuses a parent never written (SESSION_NOT_FOUND) and a child id already written (SESSION_EXISTS)', async () => {
    const { claude } = await open();
    const projectKey = freshProject();
    expect((await claudeRefusal(forkClaudeSession(claude, { projectKey, sessionId: 'ghost' }, { at: 'u1' }))).code).toBe(
      'SESSION_NOT_FOUND',
    );
    await claude.append({ projectKey, sessionId: 'p' }, transcript('p'));
    await claude.append({ projectKey, sessionId: 'taken' }, [userEntry('t1', 'mine')]);
    expect((await claudeRefusal(forkClaudeSession(claude, { projectKey, sessionId: 'p' }, { at: 'u1', sessionId: 'taken' }))).code).toBe(
      'SESSION_EXISTS',
    );
    expect(await claude.load({ projectKey, sessionId: 'taken' })).toEqual([userEntry('t1', 'mine')]);
    expect((await claudeRefusal(forkClaudeSession({ ...claude }, { projectKey, sessionId: 'p' }, { at: 'u1' }))).code).toBe(
      'INVALID_STORE',
    );
  });
});
