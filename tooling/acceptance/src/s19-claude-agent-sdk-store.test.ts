/** SPEC §19: dsh as the Claude Agent SDK's session store, on the JSONL directory and on PostgreSQL. */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { syntheticResultText } from 'dsh-codec';
import { openPostgresStore } from 'dsh-postgres';
import { openSessionStore, type SessionStore } from 'dsh-session';
import {
  ClaudeStoreError,
  createClaudeSessionStore,
  forkClaudeSession,
  type ClaudeSessionStore,
  type FoldSessionSummary,
  type SessionStoreEntry,
} from 'dsh-claude-agent-sdk';
import { makeTempDir, postgresTestUrl, uniqueSchemaName } from '@dsh/test-utils';

const url = postgresTestUrl();
const schema = uniqueSchemaName('s19');
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A stand-in for the SDK's fold (this suite imports no SDK): counts entries, remembers the last type. */
const fold: FoldSessionSummary = (prev, key, entries, options) => ({
  sessionId: key.sessionId,
  mtime: options?.mtime ?? prev?.mtime ?? 0,
  data: { count: entries.length, last: entries.at(-1)?.type ?? null },
});

const backends: [string, () => Promise<SessionStore>][] = [
  [
    'JSONL directory',
    async () => {
      const dir = await makeTempDir();
      cleanups.push(() => dir.remove());
      return openSessionStore({ dir: join(dir.path, 'store') });
    },
  ],
];
if (url !== undefined) {
  backends.push(['PostgreSQL', () => openPostgresStore({ connectionString: url, schema })]);
  cleanups.push(async () => {
    const admin = new pg.Pool({ connectionString: url, max: 1 });
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });
}

let project = 0;
const user = (uuid: string, text: string, parentUuid: string | null = null): SessionStoreEntry => ({
  type: 'user',
  uuid,
  parentUuid,
  sessionId: 'p',
  message: { role: 'user', content: text },
});

describe.each(backends)('§19 on the %s', (_name, openStore) => {
  async function make(): Promise<{ store: SessionStore; claude: ClaudeSessionStore; projectKey: string }> {
    const store = await openStore();
    const claude = createClaudeSessionStore({ store, foldSessionSummary: fold });
    cleanups.push(
      () => store.close(),
      () => claude.close(),
    );
    project += 1;
    return { store, claude, projectKey: `-acc-${String(process.pid)}-${String(project)}` };
  }

  it('load returns the appended entries deep-equal in append order, types dsh does not know included; a key never written is null', async () => {
    const { claude, projectKey } = await make();
    const key = { projectKey, sessionId: 's' };
    const entries = [
      user('u1', 'hi'),
      { type: 'x-new-kind', uuid: 'x1', payload: { deep: [1, { two: null }] } },
      { type: 'tag', tag: 'no uuid' },
    ];
    await claude.append(key, entries.slice(0, 1));
    await claude.append(key, entries.slice(1));
    expect(await claude.load(key)).toEqual(entries);
    expect(await claude.load({ projectKey, sessionId: 'never' })).toBeNull();
  });

  it('append(key, []) creates nothing; each written key is one dsh session in the given store', async () => {
    const { store, claude, projectKey } = await make();
    const before = (await store.list()).length;
    await claude.append({ projectKey, sessionId: 'empty' }, []);
    expect((await store.list()).length).toBe(before);
    await claude.append({ projectKey, sessionId: 'one' }, [user('o1', 'x')]);
    await claude.append({ projectKey, sessionId: 'one' }, [user('o2', 'y')]);
    await claude.append({ projectKey, sessionId: 'one', subpath: 'subagents/agent-1' }, [user('o3', 'z')]);
    expect((await store.list()).length).toBe(before + 2);
  });

  it('subpaths are independent of the main transcript, projectKeys isolated, listSessions main transcripts only with integer epoch-ms mtime', async () => {
    const { claude, projectKey } = await make();
    const other = `${projectKey}-other`;
    await claude.append({ projectKey, sessionId: 'm', subpath: 'subagents/agent-a' }, [user('a1', 'sub')]);
    expect(await claude.load({ projectKey, sessionId: 'm' })).toBeNull();
    await claude.append({ projectKey, sessionId: 'm' }, [user('m1', 'main')]);
    await claude.append({ projectKey: other, sessionId: 'm' }, [user('q1', 'other project')]);
    expect(await claude.load({ projectKey, sessionId: 'm' })).toEqual([user('m1', 'main')]);
    const rows = await claude.listSessions(projectKey);
    expect(rows.map((row) => row.sessionId)).toEqual(['m']);
    expect(Number.isInteger(rows[0]?.mtime)).toBe(true);
    expect(Math.abs((rows[0]?.mtime ?? 0) - Date.now())).toBeLessThan(600_000);
  });

  it('delete of a main key removes its subkeys; with a subpath only that subkey; listSubkeys never lists the main transcript', async () => {
    const { claude, projectKey } = await make();
    const main = { projectKey, sessionId: 'd' };
    for (const subpath of [undefined, 'subagents/agent-1', 'subagents/agent-2'])
      await claude.append(subpath === undefined ? main : { ...main, subpath }, [user(`d-${String(subpath)}`, 'x')]);
    expect((await claude.listSubkeys(main)).sort()).toEqual(['subagents/agent-1', 'subagents/agent-2']);
    await claude.delete({ ...main, subpath: 'subagents/agent-1' });
    expect(await claude.listSubkeys(main)).toEqual(['subagents/agent-2']);
    expect(await claude.load(main)).not.toBeNull();
    await claude.delete(main);
    expect([await claude.load(main), await claude.load({ ...main, subpath: 'subagents/agent-2' })]).toEqual([null, null]);
  });

  it('listSessionSummaries: one per session, kept current on append, on the listSessions clock', async () => {
    const { claude, projectKey } = await make();
    await claude.append({ projectKey, sessionId: 'a' }, [user('s1', 'x')]);
    await claude.append({ projectKey, sessionId: 'b' }, [user('s2', 'y')]);
    await claude.append({ projectKey, sessionId: 'a' }, [{ type: 'custom-title', customTitle: 'T' }]);
    const summaries = await claude.listSessionSummaries(projectKey);
    const mtimes = new Map((await claude.listSessions(projectKey)).map((row) => [row.sessionId, row.mtime]));
    expect(summaries.map((summary) => [summary.sessionId, summary.data, summary.mtime]).sort()).toEqual([
      ['a', { count: 2, last: 'custom-title' }, mtimes.get('a')],
      ['b', { count: 1, last: 'user' }, mtimes.get('b')],
    ]);
  });

  it('an entry uuid is an idempotency key: a batch appended again is stored once', async () => {
    const { claude, projectKey } = await make();
    const key = { projectKey, sessionId: 'retry' };
    const batch = [user('r1', 'x'), user('r2', 'y', 'r1')];
    await Promise.all([claude.append(key, batch), claude.append(key, batch)]);
    await claude.append(key, batch);
    expect(await claude.load(key)).toEqual(batch);
  });

  it("forkClaudeSession: the chain to the entry, then an is_error tool_result with dsh's forked text per open call; INVALID_CUT creates nothing; the parent is unchanged", async () => {
    const { store, claude, projectKey } = await make();
    const parent = { projectKey, sessionId: 'parent' };
    const call: SessionStoreEntry = {
      type: 'assistant',
      uuid: 'a1',
      parentUuid: 'u1',
      sessionId: 'parent',
      message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'x' } }] },
    };
    await claude.append(parent, [{ ...user('u1', 'read x'), sessionId: 'parent' }, call]);
    const before = await claude.load(parent);
    const listed = (await store.list()).length;
    const error = await forkClaudeSession(claude, parent, { at: 'no-such-uuid' }).catch((caught: unknown) => caught);
    expect(ClaudeStoreError.is(error) && error.code).toBe('INVALID_CUT');
    expect((await store.list()).length).toBe(listed);
    const fork = await forkClaudeSession(claude, parent, { at: 'a1' });
    expect(fork.inheritedEntryCount).toBe(2);
    const child = (await claude.load({ projectKey, sessionId: fork.sessionId })) ?? [];
    expect(child.map((entry) => entry.uuid).slice(0, 2)).toEqual(['u1', 'a1']);
    expect(child.slice(0, 2).map((entry) => entry.sessionId)).toEqual([fork.sessionId, fork.sessionId]);
    expect(child.slice(2).map((entry) => (entry.message as { content: unknown[] }).content)).toEqual([
      [{ type: 'tool_result', tool_use_id: 'toolu_1', is_error: true, content: syntheticResultText('forked', true, 'read-only') }],
    ]);
    expect(await claude.load(parent)).toEqual(before);
  });
});
