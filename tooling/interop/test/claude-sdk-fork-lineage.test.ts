/**
 * SPEC §26 (Agent SDK users) with the real Claude Agent SDK (pinned, from the interop cache): a
 * transcript stored under `claudeProjectKey(dir)` is the one the SDK's own `forkSession(id, { dir,
 * sessionStore })` finds and forks; `dsh sessions` then lists the SDK's child by its title under its
 * parent (`claudeFork`: `forkSession`), beside a `forkClaudeSession` child (`@entry`).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { claudeProjectKey, createClaudeSessionStore, forkClaudeSession } from 'dsh-claude-agent-sdk';
import { openSessionStore } from 'dsh-session';
import { printSkip, runDsh } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import { installTool, interopSkipReason, makeInteropHome } from '../src/index.js';

type Sdk = { forkSession(id: string, options: Record<string, unknown>): Promise<{ sessionId: string }> };

const skip = interopSkipReason();
if (skip !== undefined) printSkip("the real Agent SDK's forkSession on a dsh store", skip);

describe.skipIf(skip !== undefined)("the real Agent SDK's forkSession on a dsh store, listed by dsh sessions", () => {
  it('forkSession finds the transcript under claudeProjectKey(dir); dsh sessions shows its child and a forkClaudeSession child under the parent', async () => {
    const installed = await installTool('claude-agent-sdk');
    const sdk = (await import(pathToFileURL(join(installed.packageDir, 'sdk.mjs')).href)) as Sdk;
    await using home = await makeInteropHome();
    const data = join(home.home, 'dsh-data');
    const store = await openSessionStore({ dir: data });
    const sessionStore = createClaudeSessionStore({ store });
    const key = { projectKey: claudeProjectKey(home.cwd), sessionId: '5e55a0a0-0000-4000-8000-0000000000a1' };
    const base = { sessionId: key.sessionId, cwd: home.cwd, isSidechain: false, userType: 'external', version: '2.1.332' };
    await sessionStore.append(key, [
      {
        ...base,
        type: 'user',
        uuid: 'e0000000-0000-4000-8000-000000000001',
        parentUuid: null,
        timestamp: '2026-12-07T10:00:00.000Z',
        message: { role: 'user', content: 'Plan the release' },
      },
      {
        ...base,
        type: 'assistant',
        uuid: 'e0000000-0000-4000-8000-000000000002',
        parentUuid: 'e0000000-0000-4000-8000-000000000001',
        timestamp: '2026-12-07T10:00:01.000Z',
        message: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'fake-model',
          content: [{ type: 'text', text: 'Here is the plan.' }],
          stop_reason: 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: 1, output_tokens: 1 },
        },
      },
    ]);
    const forked = await sdk.forkSession(key.sessionId, { dir: home.cwd, sessionStore, title: 'Plan B' });
    await forkClaudeSession(sessionStore, key, {
      at: 'e0000000-0000-4000-8000-000000000001',
      sessionId: 'f0f0f0f0-0000-4000-8000-0000000000a2',
    });
    await sessionStore.close();
    await store.close();

    const listed = await runDsh(['sessions', '--json', '--data', data], { cwd: home.cwd });
    expect(listed.code, listed.stderr).toBe(0);
    const rows = JSON.parse(listed.stdout) as {
      id: string;
      title?: string;
      claudeFork?: { parentSession: string; by: string; at?: string };
    }[];
    const parent = rows.find((row) => row.title === 'Plan the release');
    expect(parent, listed.stdout).toBeDefined();
    const children = rows.filter((row) => row.claudeFork?.parentSession === parent?.id);
    expect(children.map((row) => row.claudeFork?.by).sort()).toEqual(['forkClaudeSession', 'forkSession']);
    expect(forked.sessionId).toMatch(/^[0-9a-f-]{36}$/);
  });
});
