import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chatCompletionChunk, DSH_BIN, runDsh, startModelServer } from '@dsh/test-utils';
import { useCliTestDirs } from './cli-test-dirs.js';

const dirs = useCliTestDirs('dsh-cli-models');

describe('dsh print mode with a real model adapter (local server, never the network)', () => {
  it('streams an OpenAI-compatible answer and prints it', { timeout: 90_000 }, async () => {
    dirs.server = await startModelServer(() => ({
      chunks: [
        chatCompletionChunk({ role: 'assistant', content: '' }),
        chatCompletionChunk({ content: 'Hello' }),
        chatCompletionChunk({ content: ' there.' }),
        chatCompletionChunk({}, 'stop'),
        'data: [DONE]\n\n',
      ],
    }));
    const env = { OPENAI_BASE_URL: `${dirs.server.origin}/v1`, OPENAI_API_KEY: 'sk-test' };
    const result = await runDsh(['-p', 'hi', '--model', 'openai:gpt-test', '--data', dirs.data.path], { env });
    expect(result.stderr).not.toContain('ended');
    expect(result.stdout).toBe('Hello there.\n');
    expect(result.code).toBe(0);
    expect(dirs.server.requests[0]?.body).toMatchObject({ model: 'gpt-test', stream: true });
  });

  it("prints the provider's error message in full (text) and carries it (json)", { timeout: 90_000 }, async () => {
    const message = 'Incorrect API key provided: sk-test. You can find your API key at https://platform.openai.com/account/api-keys.';
    dirs.server = await startModelServer(() => ({
      status: 401,
      json: { error: { message, type: 'invalid_request_error', param: null, code: 'invalid_api_key' } },
    }));
    const env = { OPENAI_BASE_URL: `${dirs.server.origin}/v1`, OPENAI_API_KEY: 'sk-test' };
    const text = await runDsh(['-p', 'hi', '--model', 'openai:gpt-test', '--data', dirs.data.path], { env });
    expect(text.code).toBe(1);
    expect(text.stderr).toContain(
      `dsh: the turn ended error (MODEL_HTTP_ERROR): openai: ${dirs.server.origin}/v1/chat/completions answered 401: ${message} (invalid_request_error)`,
    );
    const json = await runDsh(['-p', 'hi', '--model', 'openai:gpt-test', '--data', dirs.data.path, '--output-format', 'json'], { env });
    const parsed = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(parsed).toMatchObject({ isError: true, is_error: true, errorCode: 'MODEL_HTTP_ERROR', subtype: 'error_during_execution' });
    expect(parsed.errorMessage).toContain(message);
  });
});

describe('dsh print mode on a terminal', () => {
  it("shows each step's text as it streams on a TTY, and only the final answer when piped", { timeout: 120_000 }, async () => {
    const file = join(dirs.data.path, 'script.json');
    const steps = [{ text: 'Looking first.', toolCalls: [{ name: 'list_files', arguments: { path: '.' } }] }, { text: 'All done.' }];
    await writeFile(file, JSON.stringify([...steps, ...steps]));
    const args = ['-p', 'go', '--model', `scripted:${file}`, '--data', dirs.data.path, '--cwd', dirs.data.path];
    const piped = await runDsh(args);
    expect(piped.stdout).toBe('All done.\n');
    // util-linux `script` gives the child a pseudo-terminal, as a user's shell would.
    const command = [process.execPath, DSH_BIN, ...args].map((part) => `'${part.replace(/'/g, `'\\''`)}'`).join(' ');
    const tty = spawnSync('script', ['-qec', command, '/dev/null'], { encoding: 'utf8', timeout: 90_000 });
    expect(tty.stdout.replace(/\r/g, '')).toContain('Looking first.\nAll done.\n');
  });
});
