/**
 * SPEC §21 for the Anthropic adapter through the real bin: the session's system prompt (dsh's
 * default, then --system-prompt/--append-system-prompt, kept on resume) reaches a fake Anthropic
 * Messages server on 127.0.0.1 as the request's `system`, and its usage is priced by the table.
 */
import { describe, expect, it } from 'vitest';
import { printJson, startModelServer, streamedReply } from '@dsh/test-utils';
import { useCliTestDirs } from './cli-test-dirs.js';

const dirs = useCliTestDirs('dsh-cli-anthropic');

const systemOf = (index: number) => (dirs.server?.requests[index]?.body as { system?: unknown } | undefined)?.system;

describe('the Anthropic adapter sends the session system prompt (SPEC §21)', () => {
  it(
    'the default prompt names the cwd and tools; --system-prompt + --append-system-prompt replace it and are kept on resume',
    { timeout: 120_000 },
    async () => {
      dirs.server = await startModelServer((request) =>
        request.path === '/v1/messages'
          ? streamedReply('anthropic', { text: 'ok', usage: { input: 10, output: 2 } }, 'claude-test')
          : { status: 404, json: { type: 'error', error: { type: 'not_found_error', message: request.path } } },
      );
      const env = { ANTHROPIC_BASE_URL: dirs.server.origin, ANTHROPIC_API_KEY: 'sk-ant-test' };
      const dir = `${dirs.data.path}/d`;
      await printJson(['-p', 'one', '--model', 'anthropic:claude-test', '--name', 'a', '--data', dir, '--cwd', dirs.data.path], { env });
      const defaultPrompt = systemOf(0);
      expect(typeof defaultPrompt).toBe('string');
      expect(String(defaultPrompt)).toContain(`Your working directory is ${dirs.data.path}`);
      expect(String(defaultPrompt)).toContain('list_files');
      // Anthropic takes the prompt beside the messages, never as a message of its own.
      const messages = (dirs.server.requests[0]?.body as { messages: { role: string }[] }).messages;
      expect(messages.map((message) => message.role)).toEqual(['user']);

      await printJson(
        ['-p', 'two', '--resume', 'a', '--system-prompt', 'You are terse.', '--append-system-prompt', 'Answer in French.', '--data', dir],
        { env },
      );
      await printJson(['-p', 'three', '--resume', 'a', '--data', dir], { env });
      expect([systemOf(1), systemOf(2)]).toEqual(['You are terse.\n\nAnswer in French.', 'You are terse.\n\nAnswer in French.']);
      expect(dirs.server.requests.map((request) => (request.body as { model: string }).model)).toEqual([
        'claude-test',
        'claude-test',
        'claude-test',
      ]);
    },
  );

  it('total_cost_usd prices an anthropic: model from the table', { timeout: 60_000 }, async () => {
    dirs.server = await startModelServer(() =>
      streamedReply('anthropic', { text: 'ok', usage: { input: 1_000_000, output: 100_000 } }, 'claude-test'),
    );
    const env = { ANTHROPIC_BASE_URL: dirs.server.origin, ANTHROPIC_API_KEY: 'sk-ant-test' };
    const result = await printJson(['-p', 'hi', '--model', 'anthropic:claude-sonnet-4-5', '--tools', '', '--data', `${dirs.data.path}/d`], {
      env,
    });
    // 1M input at $3 + 0.1M output at $15 per million.
    expect(result.total_cost_usd).toBeCloseTo(4.5, 6);
  });
});
