/**
 * The real pi, offline against the fake model server (Anthropic Messages and Chat Completions):
 * one prompt, one bash call it runs, and the session file it writes, found and parsed.
 */
import { readFile } from 'node:fs/promises';
import { printSkip } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import { findSessionFiles, installTool, interopSkipReason, makeInteropHome, runTool, scriptReplies, startFakeModelServer, toolEnvironment } from '../src/index.js';

const skip = interopSkipReason();
if (skip !== undefined) printSkip('interop pi smoke', skip);

describe.skipIf(skip !== undefined)('pi (real package, offline)', () => {
  for (const api of ['anthropic-messages', 'openai-completions'] as const) {
    it(`runs a bash call through ${api} and writes a session file holding the call and its result`, async () => {
      await installTool('pi');
      await using home = await makeInteropHome();
      const script = scriptReplies([{ toolCalls: [{ id: 'call_pi_1', name: 'bash', input: { command: 'echo interop-smoke' } }] }, { text: 'All done.' }]);
      await using server = await startFakeModelServer({ anthropic: script, chat: script });
      const { env, sessionsDir } = await toolEnvironment('pi', { home: home.home, server: server.origin, piApi: api });
      const run = await runTool('pi', ['--provider', 'fake', '--model', 'fake-model', '-p', 'say it'], { cwd: home.cwd, env });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout.trim()).toBe('All done.');

      const files = await findSessionFiles(sessionsDir);
      expect(files).toHaveLength(1);
      const lines = (await readFile(files[0] ?? '', 'utf8')).trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines[0]).toMatchObject({ type: 'session' });
      const messages = lines.filter((line) => line.type === 'message').map((line) => line.message as Record<string, unknown>);
      expect(messages.find((message) => message.role === 'toolResult')).toMatchObject({ toolCallId: 'call_pi_1', isError: false });
      expect(JSON.stringify(messages)).toContain('interop-smoke');
      expect(server.modelRequests(api === 'anthropic-messages' ? 'anthropic' : 'chat')).toHaveLength(2);
      expect(server.proxied).toEqual([]);
    });
  }
});
