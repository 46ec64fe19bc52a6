import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { openPostgresStore } from 'dsh-postgres';
import type { SessionStore } from 'dsh-session';
import { postgresTestUrl, uniqueSchemaName } from '@dsh/test-utils';
import { createClaudeSessionStore, type ClaudeSessionStore } from 'dsh-claude-agent-sdk';
import { describeClaudeStoreContract, freshProject, userEntry } from './__fixtures__/claude-store-contract.js';

const url = postgresTestUrl();
const schema = uniqueSchemaName('claude_sdk');
const opened: { store: SessionStore; claude: ClaudeSessionStore }[] = [];

afterAll(async () => {
  for (const { store, claude } of opened) {
    await claude.close();
    await store.close();
  }
  if (url === undefined) return;
  const admin = new pg.Pool({ connectionString: url, max: 1 });
  await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.end();
});

/** A store of its own (its own pool and host id) on the test schema: another host, as far as dsh knows. */
async function postgresClaudeStore(): Promise<{ store: SessionStore; claude: ClaudeSessionStore }> {
  const store = await openPostgresStore({ connectionString: url ?? '', schema });
  const claude = createClaudeSessionStore({ store });
  opened.push({ store, claude });
  return { store, claude };
}

describe.skipIf(url === undefined)('on PostgreSQL', () => {
  describeClaudeStoreContract('createClaudeSessionStore on PostgreSQL', async () => (await postgresClaudeStore()).claude);

  it('every host sees every transcript: appended on one, loaded, listed and appended on another', async () => {
    const [one, two] = [await postgresClaudeStore(), await postgresClaudeStore()];
    const key = { projectKey: freshProject(), sessionId: 'pg-shared' };
    await one.claude.append(key, [userEntry('p1', 'from host one')]);
    expect(await two.claude.load(key)).toEqual([userEntry('p1', 'from host one')]);
    await two.claude.append(key, [userEntry('p2', 'from host two', 'p1')]);
    expect(await one.claude.load(key)).toEqual([userEntry('p1', 'from host one'), userEntry('p2', 'from host two', 'p1')]);
    expect((await two.claude.listSessions(key.projectKey)).map((row) => row.sessionId)).toEqual(['pg-shared']);
    const row = (await one.store.list()).find((summary) => summary.title === 'from host one');
    expect(row?.id).toMatch(/^claude-[0-9a-f]{16}-[0-9a-f]{32}$/);
  });
});
