/**
 * @module checkpoint-command
 * `dsh checkpoint --from claude-code|codex|pi`, the command dsh's hooks run (SPEC §23): the hook's JSON on
 * stdin (bounded; Codex 0.169 sends Claude Code's fields, its `tool_use_id` the rollout's `call_id`; dsh's
 * pi extension sends pi's names, `toolCallId` the session file's toolCall id), `cwd` checkpointed into
 * DATA/.workspaces.git for the session and recorded in DATA/<tool>-checkpoints/<session id>.jsonl. Never in the tool's way: every
 * failure is one note on stderr and exit 0; nothing goes to stdout (the tool would read it as the hook's answer).
 */
import { isAbsolute, join } from 'node:path';
import { findCheckout, openWorkspaceStore } from 'dsh-workspace';
import { resolveDataDir, type CliContext } from '../cli-context.js';
import { CliError } from '../cli-error.js';
import type { OptionValues } from '../parse-command-line.js';
import { appendHookCheckpoint, HOOK_SESSION_ID, type HookCheckpointRecord } from '../tool-hooks/hook-checkpoint-index.js';
import { HOOK_TOOL_NAMES, HOOK_TOOLS, isHookTool } from '../tool-hooks/hook-tools.js';
import { terminalBody } from '../terminal-text.js';

/** Most bytes of hook input read (a PostToolUse input carries the tool's whole response). */
export const MAX_HOOK_INPUT_BYTES = 32 * 1024 * 1024;
/** How long stdin may take to end. */
const STDIN_TIMEOUT_MS = 10_000;

/** The fields of a hook input dsh uses (Claude Code's and Codex's alike). */
type HookInput = { session_id: string; cwd: string; tool_use_id: string; hook_event_name: 'PreToolUse' | 'PostToolUse' };

/** Reads stdin to its end, refusing more than `max` bytes or a stream that does not end in time. */
async function readBounded(stdin: NodeJS.ReadableStream, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  return new Promise((resolve, reject) => {
    const stop = (error?: Error): void => {
      clearTimeout(timer);
      stdin.removeAllListeners('data');
      stdin.pause();
      (stdin as Partial<{ destroy(): void }>).destroy?.();
      if (error === undefined) resolve(Buffer.concat(chunks));
      else reject(error);
    };
    const timer = setTimeout(() => {
      stop(new Error(`the hook input did not end within ${String(STDIN_TIMEOUT_MS)} ms`));
    }, STDIN_TIMEOUT_MS);
    stdin.on('data', (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      if (size > max) stop(new Error(`the hook input is over ${String(max)} bytes`));
      else chunks.push(bytes);
    });
    stdin.once('end', () => {
      stop();
    });
    stdin.once('error', (error: Error) => {
      stop(error);
    });
  });
}

function field(input: Record<string, unknown>, name: string): string {
  const value = input[name];
  if (typeof value !== 'string' || value === '')
    throw new Error(
      `expected "${name}" to be a non-empty string in the hook input; got ${value === undefined ? 'none' : JSON.stringify(value).slice(0, 80)}`,
    );
  return value;
}

/** The names a tool gives the fields dsh reads, and its two events: Claude Code's hooks (Codex's too), or dsh's pi extension. */
const FIELD_NAMES = {
  hook: { event: 'hook_event_name', session: 'session_id', cwd: 'cwd', call: 'tool_use_id', before: 'PreToolUse', after: 'PostToolUse' },
  pi: { event: 'type', session: 'sessionId', cwd: 'cwd', call: 'toolCallId', before: 'tool_call', after: 'tool_result' },
} as const;

/**
 * The hook input's fields, or an Error saying what was expected and what came. `pi`: what dsh's pi
 * extension sends (`type` tool_call / tool_result, `sessionId`, `cwd`, `toolCallId`), read as
 * PreToolUse / PostToolUse.
 */
export function parseHookInput(bytes: Buffer, shape: 'hook' | 'pi' = 'hook'): HookInput {
  const names = FIELD_NAMES[shape];
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new Error(
      `expected the hook input to be a JSON object on stdin; got ${bytes.length === 0 ? 'nothing' : `${String(bytes.length)} bytes that are not JSON`}`,
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error('expected the hook input to be a JSON object');
  const input = parsed as Record<string, unknown>;
  const hookEvent = field(input, names.event);
  if (hookEvent !== names.before && hookEvent !== names.after)
    throw new Error(`expected ${names.event} ${names.before} or ${names.after}; got ${JSON.stringify(hookEvent).slice(0, 80)}`);
  const sessionId = field(input, names.session);
  if (!HOOK_SESSION_ID.test(sessionId))
    throw new Error(`expected ${names.session} to be a session id (letters, digits, - _ .); got ${JSON.stringify(sessionId).slice(0, 80)}`);
  const cwd = field(input, names.cwd);
  // Relative to what? dsh's own directory is not the session's: only an absolute path is a workspace.
  if (!isAbsolute(cwd) || cwd.includes('\0'))
    throw new Error(`expected ${names.cwd} to be an absolute path; got ${JSON.stringify(cwd).slice(0, 80)}`);
  const toolUseId = field(input, names.call);
  if (toolUseId.length > 256 || Array.from(toolUseId).some((char) => char < ' ' || char === '\u007f'))
    throw new Error(
      `expected ${names.call} to be a call id (at most 256 printable characters); got ${JSON.stringify(toolUseId).slice(0, 80)}`,
    );
  return { session_id: sessionId, cwd, tool_use_id: toolUseId, hook_event_name: hookEvent === names.before ? 'PreToolUse' : 'PostToolUse' };
}

/** Checkpoints the hook's `cwd`; always exit 0 (a failure is a note on stderr). */
export async function checkpointCommand(context: CliContext, values: OptionValues): Promise<number> {
  const tool = isHookTool(values.from) ? values.from : undefined;
  try {
    if (tool === undefined)
      throw new CliError('USAGE', `--from: expected ${HOOK_TOOLS.join(', ')}, received ${JSON.stringify(values.from ?? null)}.`);
    const dataDir = resolveDataDir(context, values.data);
    const input = parseHookInput(await readBounded(context.stdin, MAX_HOOK_INPUT_BYTES), tool === 'pi' ? 'pi' : 'hook');
    const store = openWorkspaceStore({ dir: join(dataDir, '.workspaces.git') });
    const checkpoint = await store.checkpoint(input.cwd, { sessionId: `${tool}:${input.session_id}` });
    const head = (await findCheckout(input.cwd).catch(() => undefined))?.head;
    const record: HookCheckpointRecord = {
      tool_use_id: input.tool_use_id,
      hook_event_name: input.hook_event_name,
      tree: checkpoint.tree,
      cwd: input.cwd,
      ...(head === undefined ? {} : { head }),
      time: new Date().toISOString(),
      ms: Math.round(checkpoint.ms),
      ...(checkpoint.skipped === undefined ? {} : { skipped: checkpoint.skipped }),
    };
    await appendHookCheckpoint(dataDir, tool, input.session_id, record);
  } catch (error) {
    const code = typeof (error as { code?: unknown }).code === 'string' ? `${(error as { code: string }).code}: ` : '';
    context.stderr.write(
      terminalBody(
        `dsh checkpoint: no checkpoint taken (${code}${(error as Error).message}); ${tool === undefined ? 'the tool' : HOOK_TOOL_NAMES[tool]} goes on.\n`,
      ),
    );
  }
  return 0;
}
