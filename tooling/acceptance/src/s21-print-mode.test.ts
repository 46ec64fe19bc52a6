/**
 * SPEC §21 — print mode as a drop-in for `claude -p`, through the real `dsh` bin. Model servers are
 * real HTTP servers on 127.0.0.1 (OpenAI-compatible and Anthropic); nothing reaches the network.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSessionStore } from 'dsh-session';
import { makeTempDir, type ModelServer, printJson, runDsh, spawnDsh, startModelServer, streamedReply, type TempDir } from '@dsh/test-utils';

let dir: TempDir;
let data: string;
const servers: ModelServer[] = [];
beforeEach(async () => {
  dir = await makeTempDir('dsh-acc-s21-');
  data = join(dir.path, 'data');
});
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  await dir.remove();
});

async function server(reply: Parameters<typeof startModelServer>[0]): Promise<ModelServer> {
  const started = await startModelServer(reply);
  servers.push(started);
  return started;
}

const openAiEnv = (origin: string) => ({ OPENAI_BASE_URL: `${origin}/v1`, OPENAI_API_KEY: 'sk-test' });

async function events(id: string): Promise<{ type: string; data: Record<string, unknown> }[]> {
  const store = await openSessionStore({ dir: data });
  try {
    return (await store.inspect(id)).events as unknown as { type: string; data: Record<string, unknown> }[];
  } finally {
    await store.close();
  }
}

async function script(responses: unknown[]): Promise<string> {
  const file = join(dir.path, `script-${String(Math.random()).slice(2)}.json`);
  await writeFile(file, JSON.stringify(responses));
  return `scripted:${file}`;
}

/** A refusal in JSON mode: exit `code`, and stdout is exactly one line, the result object. */
async function refusal(args: string[], code: number): Promise<Record<string, unknown>> {
  const run = await runDsh([...args, '--output-format', 'json']);
  expect(run.code, run.stderr).toBe(code);
  const lines = run.stdout.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0] ?? '') as Record<string, unknown>;
}

/** `dsh -p` resuming `ref` on a model request that never answers, until that request arrives: the session is held. */
async function holdSession(ref: string): Promise<() => Promise<void>> {
  let arrived: () => void = () => undefined;
  const requested = new Promise<void>((resolve) => (arrived = resolve));
  const hanging = await server(() => {
    arrived();
    return 'hang';
  });
  const holder = spawnDsh(['-p', 'hold it', '--resume', ref, '--model', 'openai:hold', '--data', data], { env: openAiEnv(hanging.origin) });
  const exited = new Promise((resolve) => holder.on('close', resolve));
  await requested;
  return async () => {
    holder.kill('SIGKILL');
    await exited;
  };
}

describe('§21 a resumed or continued session runs on its own recorded model', () => {
  it(
    '§21 resume and continue without --model use the recorded model; a different --model is used and recorded as a switch',
    { timeout: 180_000 },
    async () => {
      const endpoint = await server((_request, index) => streamedReply('chat', { text: `endpoint answer ${String(index + 1)}` }));
      const env = openAiEnv(endpoint.origin);
      const first = await printJson(['-p', 'one', '--model', 'openai:gpt-recorded', '--name', 'oa', '--data', data], {
        env,
        cwd: dir.path,
      });
      expect((await printJson(['-p', 'two', '--resume', 'oa', '--data', data], { env, cwd: dir.path })).result).toBe('endpoint answer 2');
      expect((await printJson(['-p', 'three', '--continue', '--data', data], { env, cwd: dir.path })).result).toBe('endpoint answer 3');
      expect(endpoint.requests.map((request) => (request.body as { model: string }).model)).toEqual([
        'gpt-recorded',
        'gpt-recorded',
        'gpt-recorded',
      ]);
      // A session is never answered by the keyless model unless it asked for it.
      const switched = await printJson(['-p', 'four', '--resume', 'oa', '--model', 'keyless', '--data', data], { env, cwd: dir.path });
      expect(endpoint.requests).toHaveLength(3);
      expect(switched.result).not.toMatch(/^endpoint/);
      const models = (await events(String(first.session_id)))
        .filter((event) => event.type === 'session/config')
        .map((event) => event.data.model);
      expect(models).toEqual(['openai:gpt-recorded', 'keyless']);
    },
  );
});

describe('§21 --output-format json prints a result object for every outcome', () => {
  it(
    '§21 a completed turn carries type, subtype, is_error, session_id, duration_api_ms, total_cost_usd, permission_denials and uuid',
    { timeout: 60_000 },
    async () => {
      const result = await printJson(['-p', 'hello', '--data', data]);
      expect(result).toMatchObject({ type: 'result', subtype: 'success', is_error: false, total_cost_usd: 0, permission_denials: [] });
      expect(typeof result.session_id).toBe('string');
      expect(typeof result.duration_api_ms).toBe('number');
      expect(typeof result.uuid).toBe('string');
    },
  );

  it(
    '§21 SESSION_NOT_FOUND, INVALID_MODEL_SPEC and SESSION_BUSY, before any turn: error_during_execution with errorCode and errorMessage, exit 1',
    { timeout: 180_000 },
    async () => {
      const shape = { type: 'result', subtype: 'error_during_execution', is_error: true };
      const missing = await refusal(['-p', 'hi', '--resume', 'nowhere', '--data', data], 1);
      expect(missing).toMatchObject({ ...shape, errorCode: 'SESSION_NOT_FOUND' });
      expect(String(missing.errorMessage)).toContain('nowhere');
      expect(await refusal(['-p', 'hi', '--model', 'no-such-spec', '--data', data], 1)).toMatchObject({
        ...shape,
        errorCode: 'INVALID_MODEL_SPEC',
      });
      const made = await printJson(['-p', 'hi', '--name', 'held', '--data', data]);
      const release = await holdSession('held');
      try {
        expect(await refusal(['-p', 'me too', '--resume', 'held', '--data', data], 1)).toMatchObject({
          ...shape,
          errorCode: 'SESSION_BUSY',
          session_id: made.session_id,
        });
      } finally {
        await release();
      }
    },
  );
});

describe("§21 --output-format stream-json prints Claude Code's message lines", () => {
  it(
    '§21 system/init, assistant per response, user tool_result per result, result last, each with session_id; --output-format events prints dsh events',
    { timeout: 120_000 },
    async () => {
      const steps = [{ text: 'Looking.', toolCalls: [{ name: 'list_files', arguments: { path: '.' } }] }, { text: 'Seen.' }];
      const run = await runDsh([
        '-p',
        'look',
        '--model',
        await script(steps),
        '--output-format',
        'stream-json',
        '--verbose',
        '--cwd',
        dir.path,
        '--data',
        data,
      ]);
      expect(run.code, run.stderr).toBe(0);
      const lines = run.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown> & { message?: { role: string; content: Record<string, unknown>[] } });
      expect(lines.map((line) => line.type)).toEqual(['system', 'assistant', 'user', 'assistant', 'result']);
      const sessionId = lines.at(-1)?.session_id;
      for (const line of lines) expect(line.session_id).toBe(sessionId);
      expect(lines[0]).toMatchObject({
        subtype: 'init',
        cwd: dir.path,
        tools: expect.arrayContaining(['list_files']) as unknown,
        model: expect.any(String) as unknown,
      });
      expect(lines[1]?.message?.content.map((block) => block.type)).toEqual(['text', 'tool_use']);
      expect(lines[2]?.message?.content[0]).toMatchObject({
        type: 'tool_result',
        tool_use_id: lines[1]?.message?.content[1]?.id,
        is_error: false,
      });

      const persisted = await runDsh(['-p', 'again', '--output-format', 'events', '--data', data]);
      expect(persisted.code, persisted.stderr).toBe(0);
      const printed = persisted.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as { seq?: number; type: string });
      const stored = printed.filter((line) => line.seq !== undefined);
      expect(stored.map((event) => event.type)).toContain('turn/end');
      expect(printed.at(-1)?.type).toBe('result');
    },
  );
});

describe('§21 options spelled as Claude Code spells them', () => {
  it(
    '§21 --max-turns N ends the turn error_max_turns; --session-id names the session and a taken one is SESSION_EXISTS',
    { timeout: 120_000 },
    async () => {
      const looping = await script([{ toolCalls: [{ name: 'list_files', arguments: { path: '.' } }] }, { text: 'never asked' }]);
      const limited = await runDsh([
        '-p',
        'go',
        '--model',
        looping,
        '--max-turns',
        '1',
        '--output-format',
        'json',
        '--cwd',
        dir.path,
        '--data',
        data,
      ]);
      expect(limited.code).toBe(1);
      expect(JSON.parse(limited.stdout)).toMatchObject({ subtype: 'error_max_turns', is_error: true, num_turns: 1 });
      const id = '3f2a6c1e-0b1d-4e43-9d54-2a8f0c9a1b7d';
      expect((await printJson(['-p', 'hi', '--session-id', id, '--data', data])).session_id).toBe(id);
      expect(await refusal(['-p', 'hi', '--session-id', id, '--data', data], 1)).toMatchObject({ errorCode: 'SESSION_EXISTS' });
    },
  );

  it(
    '§21 --system-prompt and --append-system-prompt are recorded, sent by every adapter (OpenAI and Anthropic), and kept on resume',
    { timeout: 180_000 },
    async () => {
      const openai = await server(() => streamedReply('chat', { text: 'ok' }));
      const anthropic = await server(() => streamedReply('anthropic', { text: 'ok' }));
      const env = { ...openAiEnv(openai.origin), ANTHROPIC_BASE_URL: anthropic.origin, ANTHROPIC_API_KEY: 'sk-ant-test' };
      const prompt = ['--system-prompt', 'You are terse.', '--append-system-prompt', 'Answer in French.'];
      const oa = await printJson(['-p', 'one', '--model', 'openai:gpt-test', ...prompt, '--data', data], { env });
      await printJson(['-p', 'two', '--resume', String(oa.session_id), '--data', data], { env });
      const an = await printJson(['-p', 'one', '--model', 'anthropic:claude-test', ...prompt, '--data', data], { env });
      await printJson(['-p', 'two', '--resume', String(an.session_id), '--data', data], { env });
      const expected = 'You are terse.\n\nAnswer in French.';
      for (const request of openai.requests)
        expect((request.body as { messages: unknown[] }).messages[0]).toEqual({ role: 'system', content: expected });
      for (const request of anthropic.requests) expect((request.body as { system: unknown }).system).toBe(expected);
      expect([openai.requests.length, anthropic.requests.length]).toEqual([2, 2]);
      // Recorded in the log (dsh records it as the ignorable agent/system-prompt event; docs/cli.md).
      expect(
        (await events(String(oa.session_id)))
          .filter((event) => event.type === 'agent/system-prompt')
          .map((event) => event.data.systemPrompt),
      ).toEqual(['You are terse.']);
    },
  );

  it(
    '§21 --verbose is accepted (detail on stderr only); §25: --allowedTools is accepted with a note pointing at --tools, --disallowedTools removes tools',
    { timeout: 120_000 },
    async () => {
      const verbose = await runDsh(['-p', 'hi', '--verbose', '--data', data]);
      expect(verbose.code, verbose.stderr).toBe(0);
      expect(verbose.stderr.length).toBeGreaterThan(0);
      const allowed = await runDsh(['-p', 'hi', '--allowedTools', 'Bash', '--data', data, '--output-format', 'json']);
      expect(allowed.code, allowed.stderr).toBe(0);
      expect(allowed.stderr).toMatch(/no permission prompts.*--tools/);
      const disallowed = await runDsh(['-p', 'hi', '--disallowedTools', 'Write', '--data', data, '--output-format', 'stream-json']);
      expect(disallowed.code, disallowed.stderr).toBe(0);
      const init = JSON.parse(disallowed.stdout.split('\n')[0] ?? '') as { tools: string[] };
      expect(init.tools).toEqual(['read_file', 'list_files']);
    },
  );
});

describe('§21 piped stdin, fork names, delete, workspaces', () => {
  it('§21 piped stdin with a prompt: the stdin text first, then the prompt, in one user message', { timeout: 60_000 }, async () => {
    const result = await printJson(['-p', 'what is this?', '--data', data], { stdin: 'some file\n' });
    const users = (await events(String(result.session_id))).filter((event) => event.type === 'user/message');
    expect(users.map((event) => (event.data.message as { content: unknown }).content)).toEqual([
      [{ type: 'text', text: 'some file\n\nwhat is this?' }],
    ]);
  });

  it(
    '§21 an unnamed fork lists as <parent name> @ <cut>; dsh delete deletes, refused SESSION_BUSY while held',
    { timeout: 180_000 },
    async () => {
      await printJson(['-p', 'hello', '--name', 'baseline', '--data', data]);
      const fork = await printJson(['-p', 'try', '--resume', 'baseline', '--fork-session', '--data', data]);
      const listed = await runDsh(['sessions', '--data', data]);
      const row = listed.stdout.split('\n').find((line) => line.startsWith(String(fork.session_id))) ?? '';
      expect(row).toMatch(new RegExp(`^${String(fork.session_id)}\\s+baseline @ ${String(fork.forkCut)}\\s`));

      const release = await holdSession(String(fork.session_id));
      try {
        const busy = await runDsh(['delete', String(fork.session_id), '--data', data]);
        expect([busy.code, busy.stderr]).toEqual([1, expect.stringContaining('SESSION_BUSY')]);
      } finally {
        await release();
      }
      const deleted = await runDsh(['delete', String(fork.session_id), '--data', data]);
      expect(deleted.code, deleted.stderr).toBe(0);
      expect((await runDsh(['show', String(fork.session_id), '--data', data])).stderr).toContain('SESSION_NOT_FOUND');
    },
  );

  it(
    '§21 a session without a cwd never runs write tools in the process cwd: NO_WORKSPACE until --cwd gives one',
    { timeout: 120_000 },
    async () => {
      const checkout = join(dir.path, 'checkout');
      const workspace = join(dir.path, 'workspace');
      for (const path of [data, checkout, workspace]) await mkdir(path, { recursive: true });
      // A V0 log (no header, so no cwd) takes its id from its file name.
      await writeFile(
        join(data, 'legacy.jsonl'),
        '{"seq":0,"type":"turn/start","time":10,"data":{"turn":1}}\n{"seq":1,"type":"user/message","time":11,"data":{"text":"hi"}}\n{"seq":2,"type":"turn/end","time":12,"data":{"turn":1,"reason":"completed"}}\n',
      );
      const write = [{ toolCalls: [{ name: 'write_file', arguments: { path: 'out.txt', content: 'x' } }] }, { text: 'finished' }];
      // Its only call refused, the turn is not success (SPEC §25 changes §21 here): exit 1.
      const refused = await runDsh(['-p', 'write', '--resume', 'legacy', '--model', await script(write), '--data', data], {
        cwd: checkout,
      });
      expect(refused.code).toBe(1);
      expect(await readdir(checkout)).toEqual([]);
      const results = (await events('legacy')).filter((event) => event.type === 'tool/result');
      expect((results.at(-1)?.data.error as { code?: string } | undefined)?.code).toBe('NO_WORKSPACE');
      await printJson(['-p', 'write', '--resume', 'legacy', '--cwd', workspace, '--model', await script(write), '--data', data], {
        cwd: checkout,
      });
      expect(await readFile(join(workspace, 'out.txt'), 'utf8')).toBe('x');
      expect(await readdir(checkout)).toEqual([]);
    },
  );
});
