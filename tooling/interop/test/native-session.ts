/**
 * The prelude the real-tool tests share: the pinned tool installed, a temporary HOME, the fake model
 * server scripted with one shell call and then text replies, the tool's offline environment, and the
 * tool's first run, which writes a session file holding the call and its result. The session then
 * resumes any session of that tool (`claude --resume ID`, `codex exec resume ID`, `pi --session
 * FILE`) and hands back the first model request the resumed tool sent.
 */
import { expect } from 'vitest';
import { findSessionFiles, installTool, makeInteropHome, runTool, toolEnvironment, type InteropHome, type ToolRun } from '../src/index.js';
import { scriptReplies, startModelServer, type ModelServer, type ScriptedToolCall } from '@dsh/test-utils';

/** The tools whose own session files dsh forks, repairs and exports (SPEC §18). */
export type NativeTool = 'claude-code' | 'codex' | 'pi';

/** The tools each test loops over. */
export const NATIVE_TOOLS: readonly NativeTool[] = ['claude-code', 'codex', 'pi'];

const CODEX_FLAGS = ['--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox'];
const PI_FLAGS = ['--provider', 'fake', '--model', 'fake-model'];

/** How each tool takes a prompt and resumes a session, and which API of the fake server it speaks. */
const DRIVERS: Record<
  NativeTool,
  { api: 'anthropic' | 'responses'; run(prompt: string): string[]; resume(ref: string, prompt: string): string[] }
> = {
  'claude-code': {
    api: 'anthropic',
    run: (prompt) => ['-p', prompt, '--allowedTools', 'Bash', '--output-format', 'json'],
    resume: (ref, prompt) => ['-p', prompt, '--resume', ref, '--allowedTools', 'Bash', '--output-format', 'json'],
  },
  codex: {
    api: 'responses',
    run: (prompt) => ['exec', ...CODEX_FLAGS, prompt],
    resume: (ref, prompt) => ['exec', ...CODEX_FLAGS, 'resume', ref, prompt],
  },
  pi: {
    api: 'anthropic',
    run: (prompt) => [...PI_FLAGS, '-p', prompt],
    resume: (ref, prompt) => [...PI_FLAGS, '--session', ref, '-p', prompt],
  },
};

/** Each tool's shell call as the fake model makes it: Claude Code's `Bash`, Codex's `exec_command`, pi's `bash`. */
export function shellCall(tool: NativeTool, id: string, command: string): ScriptedToolCall {
  if (tool === 'claude-code') return { id, name: 'Bash', input: { command, description: 'echo' } };
  if (tool === 'codex') return { id, name: 'exec_command', input: { cmd: command } };
  return { id, name: 'bash', input: { command } };
}

/** What the test scripts: the call (given the project folder), the replies after it, the first prompt. */
export type NativeSessionOptions = {
  call: ScriptedToolCall | ((cwd: string) => ScriptedToolCall);
  /** Text the reply making the call starts with (Claude Code writes it as a line of its own before the tool_use line). */
  callText?: string;
  /** Text replies after the call: the first ends the first run, the rest answer resumes. */
  replies: readonly string[];
  prompt?: string;
  /** The project folder's name (default `project`): one a shell would split shows what printed commands quote. */
  project?: string;
  /** Another pinned version of the tool (`pinnedVersions`; default its `TOOL_VERSIONS` one). */
  version?: string;
  /** pi only: Chat Completions instead of Anthropic Messages. */
  piApi?: 'anthropic-messages' | 'openai-completions';
};

/** A tool's first run and what it left: its HOME, the server, the environment and the session file(s). */
export type NativeSession = AsyncDisposable & {
  tool: NativeTool;
  /** The tool's version this session runs (`version` given, else the default pinned one). */
  version: string | undefined;
  home: InteropHome;
  server: ModelServer;
  env: Record<string, string>;
  sessionsDir: string;
  first: ToolRun;
  files: string[];
  /** The first (usually only) session file. */
  file: string;
  /** Every model request the tool sent so far (on the API it speaks). */
  modelRequests(): Record<string, unknown>[];
  /** The tool's own resume of `ref` (a session id; pi: a file) with `prompt`: the first model request it sent. */
  resume(ref: string, prompt: string): Promise<Record<string, unknown>>;
};

/** Installs and runs `tool` once on a fresh HOME against a fake server that makes `options.call`. */
export async function startNativeSession(tool: NativeTool, options: NativeSessionOptions): Promise<NativeSession> {
  await installTool(tool, options.version);
  const home = await makeInteropHome(undefined, options.project);
  const driver = DRIVERS[tool];
  const call = typeof options.call === 'function' ? options.call(home.cwd) : options.call;
  const first = options.callText === undefined ? { toolCalls: [call] } : { text: options.callText, toolCalls: [call] };
  const script = scriptReplies([first, ...options.replies.map((text) => ({ text }))]);
  const api = options.piApi === 'openai-completions' ? 'chat' : driver.api;
  let server: ModelServer | undefined;
  try {
    server = await startModelServer(api === 'chat' ? { anthropic: script, chat: script } : { [api]: script });
    const { env, sessionsDir } = await toolEnvironment(tool, {
      home: home.home,
      server: server.origin,
      ...(options.piApi === undefined ? {} : { piApi: options.piApi }),
    });
    const version = options.version === undefined ? {} : { version: options.version };
    const first = await runTool(tool, driver.run(options.prompt ?? 'run it'), { cwd: home.cwd, env, ...version });
    expect(first.code, first.stderr).toBe(0);
    const files = await findSessionFiles(sessionsDir);
    const live = server;
    return {
      tool,
      version: options.version,
      home,
      server: live,
      env,
      sessionsDir,
      first,
      files,
      file: files[0] ?? '',
      modelRequests: () => live.modelRequests(api),
      async resume(ref, prompt) {
        const before = live.modelRequests(api).length;
        const resumed = await runTool(tool, driver.resume(ref, prompt), { cwd: home.cwd, env, ...version });
        expect(resumed.code, resumed.stderr).toBe(0);
        return live.modelRequests(api)[before] ?? {};
      },
      async [Symbol.asyncDispose]() {
        await live[Symbol.asyncDispose]();
        await home[Symbol.asyncDispose]();
      },
    };
  } catch (error) {
    await server?.[Symbol.asyncDispose]();
    await home[Symbol.asyncDispose]();
    throw error;
  }
}
