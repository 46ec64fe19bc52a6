/**
 * SPEC §21 through the real bin: a resumed session runs on its recorded model, every outcome prints
 * a result object in JSON modes, Claude Code's stream-json lines, the new options, stdin + prompt.
 * Model servers are real HTTP servers on 127.0.0.1; nothing reaches the network.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  chatCompletionChunk,
  type ModelServerRequest,
  printJson,
  runDsh,
  spawnDsh,
  startModelServer,
  streamedReply,
} from '@dsh/test-utils';
import { useCliTestDirs } from './cli-test-dirs.js';

const dirs = useCliTestDirs('dsh-cli-drop-in');

async function script(responses: unknown[]): Promise<string> {
  const file = join(dirs.data.path, 'script.json');
  await writeFile(file, JSON.stringify(responses));
  return `scripted:${file}`;
}

type Message = { role: string; content: unknown };
const messagesOf = (request: ModelServerRequest | undefined) => ((request?.body ?? {}) as { messages?: Message[] }).messages ?? [];

async function storedEvents(ref: string, dir: string): Promise<{ type: string; data: Record<string, unknown> }[]> {
  const shown = await runDsh(['show', ref, '--json', '--data', dir]);
  return (JSON.parse(shown.stdout) as { events: { type: string; data: Record<string, unknown> }[] }).events;
}

/** Runs print mode expecting a refusal: exit `code`, and exactly one JSON line on stdout, the result object. */
async function refusal(args: string[], code: number, options: Parameters<typeof runDsh>[1] = {}): Promise<Record<string, unknown>> {
  const run = await runDsh(args, options);
  expect(run.code, run.stderr).toBe(code);
  const lines = run.stdout.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0] ?? '') as Record<string, unknown>;
}

describe('a resumed or continued session runs on its recorded model (SPEC §21)', () => {
  it(
    'an openai: session resumed without --model is answered by its endpoint, never by the keyless model',
    { timeout: 120_000 },
    async () => {
      dirs.server = await startModelServer((_request, index) =>
        streamedReply('chat', { text: `answer ${String(index + 1)} from the endpoint` }),
      );
      const env = { OPENAI_BASE_URL: `${dirs.server.origin}/v1`, OPENAI_API_KEY: 'sk-test' };
      const dir = join(dirs.data.path, 'd');
      await printJson(['-p', 'first', '--model', 'openai:gpt-test', '--name', 'oa', '--data', dir], { env, cwd: dirs.data.path });
      const resumed = await printJson(['-p', 'next', '--resume', 'oa', '--data', dir], { env, cwd: dirs.data.path });
      expect(resumed.result).toBe('answer 2 from the endpoint');
      const continued = await printJson(['-p', 'more', '--continue', '--data', dir], { env, cwd: dirs.data.path });
      expect(continued.result).toBe('answer 3 from the endpoint');
      expect(dirs.server.requests).toHaveLength(3);
      expect(dirs.server.requests[2]?.body).toMatchObject({ model: 'gpt-test' });
      // No switch was asked for, so none is recorded.
      const configs = (await storedEvents('oa', dir)).filter((event) => event.type === 'session/config');
      expect(configs.map((event) => event.data.model)).toEqual(['openai:gpt-test']);
    },
  );

  it('a --model that differs is used and recorded as a session/config switch; the next resume keeps it', { timeout: 120_000 }, async () => {
    dirs.server = await startModelServer(() => streamedReply('chat', { text: 'from the endpoint' }));
    const env = { OPENAI_BASE_URL: `${dirs.server.origin}/v1`, OPENAI_API_KEY: 'sk-test' };
    const dir = join(dirs.data.path, 'd');
    // No key in the environment: the new session runs on keyless (with a key it would run on that adapter, SPEC §25).
    await printJson(['-p', 'first', '--name', 'k', '--data', dir], { cwd: dirs.data.path });
    expect(dirs.server.requests).toHaveLength(0);
    const switched = await printJson(['-p', 'now real', '--resume', 'k', '--model', 'openai:gpt-test', '--data', dir], { env });
    expect(switched.result).toBe('from the endpoint');
    const kept = await printJson(['-p', 'again', '--resume', 'k', '--data', dir], { env });
    expect(kept.result).toBe('from the endpoint');
    expect(dirs.server.requests).toHaveLength(2);
    const configs = (await storedEvents('k', dir)).filter((event) => event.type === 'session/config');
    expect(configs.map((event) => event.data.model)).toEqual(['keyless', 'openai:gpt-test']);
  });

  it(
    'a recorded model that cannot be set up is refused with its error before the turn starts (SPEC §25), no other model answering',
    { timeout: 120_000 },
    async () => {
      dirs.server = await startModelServer(() => streamedReply('chat', { text: 'from the endpoint' }));
      const dir = join(dirs.data.path, 'd');
      await printJson(['-p', 'first', '--model', 'openai:gpt-test', '--name', 'oa', '--data', dir], {
        env: { OPENAI_BASE_URL: `${dirs.server.origin}/v1`, OPENAI_API_KEY: 'sk-test' },
      });
      const run = await runDsh(['-p', 'next', '--resume', 'oa', '--data', dir, '--output-format', 'json'], {
        env: { OPENAI_BASE_URL: undefined, OPENAI_API_KEY: undefined },
      });
      expect(run.code).toBe(1);
      expect(JSON.parse(run.stdout)).toMatchObject({
        is_error: true,
        subtype: 'error_during_execution',
        errorCode: 'MODEL_CONFIG',
        num_turns: 0,
      });
      expect((await storedEvents('oa', dir)).filter((event) => event.type === 'turn/start')).toHaveLength(1);
    },
  );
});

describe('--output-format json prints a result object for every outcome (SPEC §21)', () => {
  it('a successful turn carries duration_api_ms, total_cost_usd, permission_denials and uuid', { timeout: 60_000 }, async () => {
    const result = await printJson(['-p', 'hello', '--data', join(dirs.data.path, 'd')]);
    expect(result).toMatchObject({ type: 'result', subtype: 'success', is_error: false, total_cost_usd: 0, permission_denials: [] });
    expect(typeof result.duration_api_ms).toBe('number');
    expect(result.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('total_cost_usd prices the usage of a model in the table', { timeout: 60_000 }, async () => {
    const usage = { prompt_tokens: 1_000_000, completion_tokens: 100_000, total_tokens: 1_100_000 };
    dirs.server = await startModelServer(() => ({
      chunks: [
        chatCompletionChunk({ role: 'assistant', content: 'ok' }),
        chatCompletionChunk({}, 'stop'),
        `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [], usage })}\n\n`,
        'data: [DONE]\n\n',
      ],
    }));
    const env = { OPENAI_BASE_URL: `${dirs.server.origin}/v1`, OPENAI_API_KEY: 'sk-test' };
    const result = await printJson(['-p', 'hi', '--model', 'openai:gpt-4o-mini', '--data', join(dirs.data.path, 'd')], { env });
    // 1M input at $0.15 + 0.1M output at $0.60 per million.
    expect(result.total_cost_usd).toBeCloseTo(0.21, 6);
  });

  it(
    'refusals before the turn starts: SESSION_NOT_FOUND, INVALID_MODEL_SPEC (exit 1) and usage errors (exit 2)',
    { timeout: 120_000 },
    async () => {
      const dir = join(dirs.data.path, 'd');
      const notFound = await refusal(['-p', 'hi', '--resume', 'nope', '--data', dir, '--output-format', 'json'], 1);
      expect(notFound).toMatchObject({
        type: 'result',
        subtype: 'error_during_execution',
        is_error: true,
        errorCode: 'SESSION_NOT_FOUND',
        permission_denials: [],
        total_cost_usd: 0,
      });
      expect(String(notFound.errorMessage)).toContain('nope');
      const badModel = await refusal(['-p', 'hi', '--model', 'frob-9', '--data', dir, '--output-format=json'], 1);
      expect(badModel).toMatchObject({ errorCode: 'INVALID_MODEL_SPEC', is_error: true });
      const usage = await refusal(['-p', 'hi', '--max-turns', 'many', '--output-format', 'json', '--data', dir], 2);
      expect(usage).toMatchObject({ errorCode: 'USAGE', is_error: true });
      const unknownOption = await refusal(['-p', 'hi', '--output-format', 'stream-json', '--frobnicate'], 2);
      expect(unknownOption).toMatchObject({ type: 'result', errorCode: 'USAGE' });
    },
  );

  it('SESSION_BUSY while another process holds the session, with its session_id', { timeout: 120_000 }, async () => {
    let arrived: () => void = () => undefined;
    const requested = new Promise<void>((resolve) => (arrived = resolve));
    dirs.server = await startModelServer(() => {
      arrived();
      return 'hang';
    });
    const env = { OPENAI_BASE_URL: `${dirs.server.origin}/v1`, OPENAI_API_KEY: 'sk-test' };
    const dir = join(dirs.data.path, 'd');
    const first = await printJson(['-p', 'one', '--name', 'held', '--data', dir]);
    const holder = spawnDsh(['-p', 'two', '--resume', 'held', '--model', 'openai:gpt-test', '--data', dir], { env });
    const exited = new Promise((resolve) => holder.on('close', resolve));
    try {
      await requested;
      const busy = await refusal(['-p', 'three', '--resume', 'held', '--data', dir, '--output-format', 'json'], 1);
      expect(busy).toMatchObject({ errorCode: 'SESSION_BUSY', session_id: first.session_id, is_error: true });
    } finally {
      holder.kill('SIGKILL');
      await exited;
    }
  });
});

describe("--output-format stream-json prints Claude Code's message lines (SPEC §21)", () => {
  it(
    'system init, an assistant line per response, a user tool_result line per result, the result last; every line has session_id',
    { timeout: 120_000 },
    async () => {
      const model = await script([
        { text: 'Looking.', toolCalls: [{ name: 'list_files', arguments: { path: '.' } }] },
        { text: 'Two files.' },
      ]);
      const dir = join(dirs.data.path, 'd');
      const run = await runDsh([
        '-p',
        'look',
        '--model',
        model,
        '--output-format',
        'stream-json',
        '--verbose',
        '--data',
        dir,
        '--cwd',
        dirs.data.path,
      ]);
      expect(run.code, run.stderr).toBe(0);
      const lines = run.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown> & { message?: { content: Record<string, unknown>[] } });
      expect(lines.map((line) => line.type)).toEqual(['system', 'assistant', 'user', 'assistant', 'result']);
      const [init, first, toolResult, second, result] = lines;
      const sessionId = result?.session_id;
      expect(typeof sessionId).toBe('string');
      for (const line of lines) expect(line.session_id).toBe(sessionId);
      expect(init).toMatchObject({
        subtype: 'init',
        cwd: dirs.data.path,
        model,
        tools: ['read_file', 'list_files', 'write_file', 'make_dir'],
      });
      expect(first?.message).toMatchObject({
        role: 'assistant',
        content: [
          { type: 'text', text: 'Looking.' },
          { type: 'tool_use', name: 'list_files', input: { path: '.' } },
        ],
      });
      const callId = first?.message?.content[1]?.id;
      expect(toolResult?.message).toMatchObject({ role: 'user', content: [{ type: 'tool_result', tool_use_id: callId, is_error: false }] });
      expect(String(toolResult?.message?.content[0]?.content)).toContain('script.json');
      expect(second?.message?.content).toEqual([{ type: 'text', text: 'Two files.' }]);
      expect(result).toMatchObject({ type: 'result', subtype: 'success', result: 'Two files.', num_turns: 2 });
      // --verbose: more detail on stderr, nothing more on stdout.
      expect(run.stderr).toContain(`dsh: session ${String(sessionId)} on ${model}`);
    },
  );
});

describe('options spelled as Claude Code spells them (SPEC §21)', () => {
  it('--max-turns N ends the turn after N model requests with subtype error_max_turns', { timeout: 60_000 }, async () => {
    const model = await script([{ toolCalls: [{ name: 'list_files', arguments: { path: '.' } }] }, { text: 'never asked' }]);
    const run = await runDsh([
      '-p',
      'go',
      '--model',
      model,
      '--max-turns',
      '1',
      '--output-format',
      'json',
      '--data',
      join(dirs.data.path, 'd'),
      '--cwd',
      dirs.data.path,
    ]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ subtype: 'error_max_turns', is_error: true, num_turns: 1, stopReason: 'max-steps' });
  });

  it('--session-id names the new session; the same id again is SESSION_EXISTS', { timeout: 60_000 }, async () => {
    const id = '0b6f6c1e-3f63-4e43-9d54-2a8f0c9a1b7d';
    const dir = join(dirs.data.path, 'd');
    const made = await printJson(['-p', 'hi', '--session-id', id, '--data', dir]);
    expect(made.session_id).toBe(id);
    const again = await refusal(['-p', 'hi', '--session-id', id, '--data', dir, '--output-format', 'json'], 1);
    expect(again).toMatchObject({ errorCode: 'SESSION_EXISTS' });
    const notUuid = await refusal(['-p', 'hi', '--session-id', 'mine', '--data', dir, '--output-format', 'json'], 2);
    expect(String(notUuid.errorMessage)).toContain('UUID');
  });

  it(
    'the system prompt: a default naming the cwd and tools, --system-prompt and --append-system-prompt, kept on resume',
    { timeout: 120_000 },
    async () => {
      dirs.server = await startModelServer(() => streamedReply('chat', { text: 'ok' }));
      const env = { OPENAI_BASE_URL: `${dirs.server.origin}/v1`, OPENAI_API_KEY: 'sk-test' };
      const dir = join(dirs.data.path, 'd');
      await printJson(['-p', 'one', '--model', 'openai:gpt-test', '--name', 's', '--data', dir, '--cwd', dirs.data.path], { env });
      const [defaultPrompt] = messagesOf(dirs.server.requests[0]);
      expect(defaultPrompt?.role).toBe('system');
      expect(String(defaultPrompt?.content)).toContain(`Your working directory is ${dirs.data.path}`);
      expect(String(defaultPrompt?.content)).toContain('list_files');
      await printJson(
        ['-p', 'two', '--resume', 's', '--system-prompt', 'You are terse.', '--append-system-prompt', 'Answer in French.', '--data', dir],
        { env },
      );
      await printJson(['-p', 'three', '--resume', 's', '--data', dir], { env });
      expect(messagesOf(dirs.server.requests[1])[0]).toEqual({ role: 'system', content: 'You are terse.\n\nAnswer in French.' });
      expect(messagesOf(dirs.server.requests[2])[0]).toEqual({ role: 'system', content: 'You are terse.\n\nAnswer in French.' });
      const recorded = (await storedEvents('s', dir)).filter((event) => event.type === 'agent/system-prompt');
      expect(recorded.map((event) => event.data.systemPrompt)).toEqual([defaultPrompt?.content, 'You are terse.']);
    },
  );

  it(
    'a Claude Code flag dsh lacks is refused USAGE naming it and what dsh does instead (SPEC §25), in the JSON result too',
    { timeout: 60_000 },
    async () => {
      const refused = await refusal(
        ['-p', 'hi', '--mcp-config', 'mcp.json', '--output-format', 'json', '--data', join(dirs.data.path, 'd')],
        2,
      );
      expect(refused.errorCode).toBe('USAGE');
      expect(String(refused.errorMessage)).toMatch(
        /^--mcp-config is a Claude Code option dsh does not have: dsh has no MCP client.*--tools/,
      );
    },
  );
});

describe('piped stdin with a prompt (SPEC §21)', () => {
  it('the stdin text comes first, then the prompt, in one user message', { timeout: 60_000 }, async () => {
    const dir = join(dirs.data.path, 'd');
    const result = await printJson(['-p', 'what is this?', '--data', dir], { stdin: 'line one\nline two\n' });
    const users = (await storedEvents(String(result.session_id), dir)).filter((event) => event.type === 'user/message');
    expect(users).toHaveLength(1);
    expect((users[0]?.data.message as { content: unknown }).content).toEqual([
      { type: 'text', text: 'line one\nline two\n\nwhat is this?' },
    ]);
  });
});
