/**
 * The real Claude Agent SDK (pinned, from the interop cache) offline against the fake Anthropic
 * server, with this package as its `sessionStore`, on a JSONL directory and on PostgreSQL, in the
 * default batched mode and with `sessionStoreFlush: 'eager'`: a tool-using turn is mirrored into
 * dsh; the local transcript deleted, the SDK resumes from the store; a fork at the tool_use entry,
 * resumed with `query({ resume })`, sends the model dsh's closer text verbatim.
 */
import { readFile, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { syntheticResultText } from 'dsh-codec';
import { openPostgresStore } from 'dsh-postgres';
import { openSessionStore, type SessionStore } from 'dsh-session';
import { postgresTestUrl, printSkip, scriptReplies, startModelServer, uniqueSchemaName } from '@dsh/test-utils';
import { createClaudeSessionStore, forkClaudeSession, type SessionStoreEntry } from 'dsh-claude-agent-sdk';
import { findSessionFiles, installTool, interopSkipReason, makeInteropHome, toolEnvironment } from '../src/index.js';
import { messageBlocks, textOf } from './request-readers.js';

/** The part of the SDK this test calls (loaded from the interop cache, not a workspace dependency). */
type SdkMessage = { type: string; subtype?: string; session_id?: string; result?: string };
type Sdk = { query(input: { prompt: string; options: Record<string, unknown> }): AsyncIterable<SdkMessage> };
type Flush = 'batched' | 'eager';

const skip = interopSkipReason();
if (skip !== undefined) printSkip('real Claude Agent SDK round trip', skip);
const url = postgresTestUrl();
const schema = uniqueSchemaName('claude_e2e');
afterAll(async () => {
  if (url === undefined) return;
  const admin = new pg.Pool({ connectionString: url, max: 1 });
  await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.end();
});

async function loadSdk(): Promise<Sdk> {
  const installed = await installTool('claude-agent-sdk');
  return (await import(pathToFileURL(join(installed.packageDir, 'sdk.mjs')).href)) as Sdk;
}

async function roundTrip(sdk: Sdk, store: SessionStore, flush: Flush): Promise<void> {
  await using home = await makeInteropHome();
  await using server = await startModelServer({
    anthropic: scriptReplies([
      { toolCalls: [{ id: 'toolu_mirror_1', name: 'Bash', input: { command: 'echo mirrored-output', description: 'echo a word' } }] },
      { text: 'Listed.' },
      { text: 'Resumed from dsh.' },
      { text: 'Forked and told.' },
    ]),
  });
  const { env, sessionsDir } = await toolEnvironment('claude-agent-sdk', { home: home.home, server: server.origin });
  const claude = createClaudeSessionStore({ store });
  // What the SDK is handed: the same store, counting the append calls of each query.
  let appends = 0;
  const sessionStore = {
    append: (...args: Parameters<typeof claude.append>) => {
      appends += 1;
      return claude.append(...args);
    },
    load: (...args: Parameters<typeof claude.load>) => claude.load(...args),
    listSessions: (projectKey: string) => claude.listSessions(projectKey),
    listSessionSummaries: (projectKey: string) => claude.listSessionSummaries(projectKey),
    delete: (...args: Parameters<typeof claude.delete>) => claude.delete(...args),
    listSubkeys: (...args: Parameters<typeof claude.listSubkeys>) => claude.listSubkeys(...args),
  };
  const options = {
    cwd: home.cwd,
    env,
    sessionStore,
    allowedTools: ['Bash'],
    ...(flush === 'eager' ? { sessionStoreFlush: 'eager' as const } : {}),
  };
  const run = async (prompt: string, extra: Record<string, unknown> = {}): Promise<{ sessionId: string; result: string }> => {
    let sessionId = '';
    let result = '';
    for await (const message of sdk.query({ prompt, options: { ...options, ...extra } })) {
      if (message.session_id !== undefined) sessionId = message.session_id;
      if (message.type === 'result') result = message.subtype === 'success' ? (message.result ?? '') : `error: ${String(message.subtype)}`;
      if (message.type === 'system' && message.subtype === 'mirror_error') throw new Error(`mirror_error: ${JSON.stringify(message)}`);
    }
    return { sessionId, result };
  };

  // 1. A tool-using turn, mirrored into dsh as the SDK writes it locally.
  const first = await run('list the files');
  expect(first.result).toBe('Listed.');
  const firstTurnAppends = appends;
  const [file] = await findSessionFiles(sessionsDir);
  const local = (await readFile(file ?? '', 'utf8'))
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as SessionStoreEntry);
  const key = { projectKey: basename(dirname(file ?? '')), sessionId: first.sessionId };
  const mirrored = (await claude.load(key)) ?? [];
  // The SDK mirrors the transcript's entries (not the CLI's own bookkeeping lines): each one exactly
  // as written locally, in the same order, and every message of the conversation among them.
  const localMessages = local.filter((entry) => entry.type === 'user' || entry.type === 'assistant');
  expect(mirrored.filter((entry) => entry.type === 'user' || entry.type === 'assistant')).toEqual(localMessages);
  let at = 0;
  for (const entry of mirrored) {
    while (at < local.length && JSON.stringify(local[at]) !== JSON.stringify(entry)) at += 1;
    expect(at, `mirrored entry ${JSON.stringify(entry).slice(0, 120)} in the local file, in order`).toBeLessThan(local.length);
  }
  expect(localMessages.length).toBeGreaterThanOrEqual(4);
  // Eager mode hands over every frame as its own batch; batched mode coalesces (timing decides how much).
  if (flush === 'eager') expect(firstTurnAppends).toBeGreaterThanOrEqual(localMessages.length);
  else expect(firstTurnAppends).toBeGreaterThanOrEqual(1);
  const toolUse = mirrored.find((entry) => entry.type === 'assistant' && JSON.stringify(entry.message).includes('"tool_use"'));
  expect(toolUse?.uuid).toEqual(expect.any(String));
  expect((await claude.listSessions(key.projectKey)).map((row) => row.sessionId)).toEqual([first.sessionId]);

  // 2. The local transcript gone, the SDK resumes from dsh alone.
  await rm(sessionsDir, { recursive: true, force: true });
  const resumed = await run('and again', { resume: first.sessionId });
  expect(resumed.result).toBe('Resumed from dsh.');
  const resumedRequest = messageBlocks(server.modelRequests('anthropic').at(-1));
  expect(resumedRequest.find((block) => block.type === 'tool_result' && block.tool_use_id === 'toolu_mirror_1')).toBeDefined();
  expect(textOf(resumedRequest.find((block) => block.tool_use_id === 'toolu_mirror_1')?.content)).toContain('mirrored-output');
  const afterResume = (await claude.load(key)) ?? [];
  expect(afterResume.slice(0, mirrored.length)).toEqual(mirrored);
  expect(afterResume.length).toBeGreaterThan(mirrored.length);

  // 3. Fork at the tool_use entry and resume the child: dsh's closer reaches the model verbatim.
  const beforeFork = await claude.load(key);
  const fork = await forkClaudeSession(claude, key, { at: toolUse?.uuid ?? '' });
  expect(fork.inheritedEntryCount).toBeLessThanOrEqual(mirrored.indexOf(toolUse as SessionStoreEntry) + 1);
  const forked = await run('what happened to the listing?', { resume: fork.sessionId });
  expect(forked.result).toBe('Forked and told.');
  const forkRequest = messageBlocks(server.modelRequests('anthropic').at(-1));
  const closer = forkRequest.filter((block) => block.type === 'tool_result' && block.tool_use_id === 'toolu_mirror_1');
  expect(closer).toHaveLength(1);
  expect(textOf(closer[0]?.content)).toBe(syntheticResultText('forked', true, 'side-effect'));
  expect(closer[0]?.is_error).toBe(true);
  // The parent's real result stays in the parent: the child never saw the command's output.
  expect(
    forkRequest
      .filter((block) => block.type === 'tool_result')
      .map((block) => textOf(block.content))
      .join('\n'),
  ).not.toContain('mirrored-output');
  expect(await claude.load(key)).toEqual(beforeFork);
  expect(server.proxied).toEqual([]);
  await claude.close();
}

const flushes: Flush[] = ['batched', 'eager'];

describe.skipIf(skip !== undefined)('the real Claude Agent SDK with dsh as its session store (offline)', () => {
  it.each(flushes)('on a JSONL directory, sessionStoreFlush %s', async (flush) => {
    const sdk = await loadSdk();
    await using home = await makeInteropHome('dsh-claude-store-');
    const store = await openSessionStore({ dir: join(home.home, 'sessions') });
    try {
      await roundTrip(sdk, store, flush);
    } finally {
      await store.close();
    }
  });

  it.skipIf(url === undefined).each(flushes)('on PostgreSQL, sessionStoreFlush %s', async (flush) => {
    const sdk = await loadSdk();
    const store = await openPostgresStore({ connectionString: url ?? '', schema });
    try {
      await roundTrip(sdk, store, flush);
    } finally {
      await store.close();
    }
  });
});
