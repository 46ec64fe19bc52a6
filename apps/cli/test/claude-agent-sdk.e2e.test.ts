import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSessionStore } from 'dsh-host';
import { makeTempDir, runDsh, type TempDir } from '@dsh/test-utils';
import { createClaudeSessionStore, forkClaudeSession } from 'dsh-claude-agent-sdk';

let data: TempDir;
beforeEach(async () => {
  data = await makeTempDir('dsh-cli-claude-');
});
afterEach(async () => {
  await data.remove();
});

describe('Claude Agent SDK transcripts stored by dsh-claude-agent-sdk', () => {
  it(
    'dsh sessions lists them by title; dsh show shows the key, the conversation, the calls and a fork with its closer',
    { timeout: 120_000 },
    async () => {
      const store = await openSessionStore({ dir: data.path });
      const claude = createClaudeSessionStore({ store });
      const key = { projectKey: '-work-app', sessionId: '5e55a0a0-0000-4000-8000-000000000001' };
      await claude.append(key, [
        { type: 'user', uuid: 'u1', parentUuid: null, sessionId: key.sessionId, message: { role: 'user', content: 'Count the files' } },
        {
          type: 'assistant',
          uuid: 'a1',
          parentUuid: 'u1',
          sessionId: key.sessionId,
          message: {
            role: 'assistant',
            content: [
              { type: 'text', text: 'Counting.' },
              { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls | wc -l' } },
            ],
          },
        },
        {
          type: 'user',
          uuid: 'r1',
          parentUuid: 'a1',
          sessionId: key.sessionId,
          message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '3', is_error: false }] },
        },
      ]);
      await forkClaudeSession(claude, key, { at: 'a1', sessionId: 'f0f0f0f0-0000-4000-8000-000000000002' });
      await claude.close();
      await store.close();

      const listed = await runDsh(['sessions', '--data', data.path]);
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toMatch(/^claude-[0-9a-f]{16}-[0-9a-f]{32} {2}Count the files {2}/m);
      expect(listed.stdout).toMatch(/^claude-[0-9a-f]{16}-[0-9a-f]{32} {2}Count the files \(fork\) {2}/m);

      const parent = await runDsh(['show', 'Count the files', '--data', data.path]);
      expect(parent.code, parent.stderr).toBe(0);
      expect(parent.stdout).toMatch(
        /claude\/key +Claude Agent SDK transcript 5e55a0a0-0000-4000-8000-000000000001 \(project -work-app\)$/m,
      );
      expect(parent.stdout).toMatch(/claude\/entry +user: Count the files$/m);
      expect(parent.stdout).toMatch(/claude\/entry +assistant: Counting\. → calls Bash#toolu_1$/m);
      expect(parent.stdout).toMatch(/claude\/entry +user: result of toolu_1: 3$/m);

      const child = await runDsh(['show', 'Count the files (fork)', '--data', data.path]);
      expect(child.code, child.stderr).toBe(0);
      expect(child.stdout).toMatch(
        /claude\/fork +forked from Claude session 5e55a0a0-0000-4000-8000-000000000001 at entry a1 \(2 entries inherited\)$/m,
      );
      expect(child.stdout).toMatch(/claude\/entry +user: result of toolu_1 \(error\): This session was forked/);
      expect(child.stdout).not.toContain('result of toolu_1: 3');
    },
  );

  it(
    'dsh sessions shows each fork under its title with its lineage: forkClaudeSession at its entry, the SDK forkSession by its forkedFrom',
    { timeout: 120_000 },
    async () => {
      const store = await openSessionStore({ dir: data.path });
      const claude = createClaudeSessionStore({ store });
      const key = { projectKey: '-work-app', sessionId: '5e55a0a0-0000-4000-8000-000000000001' };
      const prompt = (sessionId: string, text: string, extra: object = {}) => ({
        type: 'user',
        uuid: `${sessionId.slice(0, 4)}-u1`,
        parentUuid: null,
        sessionId,
        message: { role: 'user', content: text },
        ...extra,
      });
      await claude.append(key, [prompt(key.sessionId, 'Plan the release')]);
      await forkClaudeSession(claude, key, { at: '5e55-u1', sessionId: 'f0f0f0f0-0000-4000-8000-000000000002' });
      // What the SDK's own forkSession appends: the parent's entries under a new session id, each with `forkedFrom`.
      const sdkChild = { projectKey: key.projectKey, sessionId: 'c0c0c0c0-0000-4000-8000-000000000003' };
      await claude.append(sdkChild, [
        prompt(sdkChild.sessionId, 'Plan the release', { forkedFrom: { sessionId: key.sessionId, messageUuid: '5e55-u1' } }),
        { type: 'custom-title', customTitle: 'Release plan B', sessionId: sdkChild.sessionId },
      ]);
      // Another project's transcript with the same session id is no parent of it.
      await claude.append({ projectKey: '-work-other', sessionId: key.sessionId }, [prompt(key.sessionId, 'Elsewhere')]);
      await claude.close();
      await store.close();

      const json = await runDsh(['sessions', '--json', '--data', data.path]);
      expect(json.code, json.stderr).toBe(0);
      const rows = JSON.parse(json.stdout) as {
        id: string;
        title?: string;
        claudeFork?: { parentSession: string; at?: string; by: string };
      }[];
      const byTitle = new Map(rows.map((row) => [row.title, row]));
      const parentId = byTitle.get('Plan the release')?.id;
      expect(parentId).toMatch(/^claude-/);
      expect(byTitle.get('Plan the release (fork)')?.claudeFork).toEqual({
        parentSession: parentId,
        at: '5e55-u1',
        by: 'forkClaudeSession',
      });
      expect(byTitle.get('Release plan B')?.claudeFork).toEqual({ parentSession: parentId, by: 'forkSession' });
      expect(byTitle.get('Elsewhere')?.claudeFork).toBeUndefined();

      const listed = await runDsh(['sessions', '--data', data.path]);
      expect(listed.stdout).toMatch(new RegExp(`Plan the release \\(fork\\) +${parentId ?? ''}@entry 5e55-u1 `));
      expect(listed.stdout).toMatch(new RegExp(`Release plan B +${parentId ?? ''} \\(forkSession\\) `));

      const tree = await runDsh(['sessions', '--tree', '--data', data.path]);
      const lines = tree.stdout.split('\n');
      const at = lines.findIndex((line) => line.startsWith('Plan the release  '));
      expect(lines.slice(at + 1, at + 3).map((line) => line.replace(/ .*/, ''))).toEqual(['├─', '└─']);
      expect(lines.slice(at + 1, at + 3).join('\n')).toContain('Release plan B');
      expect(lines.slice(at + 1, at + 3).join('\n')).toContain('Plan the release (fork)');
    },
  );
});
