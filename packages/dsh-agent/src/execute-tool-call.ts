/**
 * @module execute-tool-call
 * Runs one tool call's body and turns every way it can end into a result: output, a tool-reported
 * error, invalid arguments, an unknown tool, a throw, or a cancellation while it ran.
 */
import type { ToolEffect } from 'dsh-codec';
import type { Tool, ToolContext } from './define-tool.js';

/** How a call ended, ready to become a `tool/result`. */
export type CallOutcome = {
  text: string;
  isError: boolean;
  error?: { name: string; code: string };
  /** True when the result records a cancellation (its id then starts with `cancelled-`). */
  cancelled?: true;
};

/** The result of a call that never started because its turn was cancelled first. */
export function cancelledBeforeStart(): CallOutcome {
  return {
    text: 'The turn was cancelled before this tool call started, so it did not run. ' + 'It may be run again if it is still needed.',
    isError: true,
    error: { name: 'ToolCancelledError', code: 'TOOL_CANCELLED' },
    cancelled: true,
  };
}

/**
 * The result of a call in a session without a working directory: refused, never run in the
 * process's current directory (SPEC §21).
 */
export function noWorkspace(name: string): CallOutcome {
  return {
    text:
      `The ${name} call was refused: this session has no working directory, so its tools have nowhere to run. ` +
      'Give it one (dsh --cwd DIR, HTTP config.cwd, or dsh serve --workspace DIR) and try again.',
    isError: true,
    error: { name: 'AgentError', code: 'NO_WORKSPACE' },
  };
}

const CANCELLED_ADVICE: Record<ToolEffect, string> = {
  'read-only': 'The tool is declared read-only, so it can safely be run again.',
  idempotent: 'The tool is declared idempotent, so it can safely be run again.',
  'side-effect':
    'The tool is declared to have side effects: verify the external state (or ask the user) ' +
    'before running it again. Do not retry it blindly.',
  unknown: 'Retry it only if the operation is read-only or idempotent; otherwise verify the external state first.',
};

/** The result of a call whose body stopped with an error after its turn was cancelled. */
export function cancelledWhileRunning(effect: ToolEffect, detail: string): CallOutcome {
  return {
    text:
      `The turn was cancelled while this tool call was running, and it stopped without a result ` +
      `(${detail}): its outcome is unknown. ${CANCELLED_ADVICE[effect]}`,
    isError: true,
    error: { name: 'ToolCancelledError', code: 'TOOL_CANCELLED_OUTCOME_UNKNOWN' },
    cancelled: true,
  };
}

/**
 * Validates the raw `arguments` against the tool's schema and runs its body. Never throws:
 * unknown tool → `TOOL_NOT_FOUND`, bad arguments → `INVALID_TOOL_INPUT` (body not run),
 * a throw → the error's `name` and `code` (default `TOOL_FAILED`).
 */
export async function executeToolCall(
  tool: Tool | undefined,
  call: { name: string; arguments: string },
  context: ToolContext,
  available: readonly string[],
): Promise<CallOutcome> {
  if (tool === undefined) {
    const offered = available.length === 0 ? 'none' : available.join(', ');
    return {
      text: `There is no tool named ${JSON.stringify(call.name)} in this session (available: ${offered}).`,
      isError: true,
      error: { name: 'ToolNotFoundError', code: 'TOOL_NOT_FOUND' },
    };
  }
  let raw: unknown;
  try {
    // Some models send "" for a call without arguments; that means {}.
    raw = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
  } catch {
    return invalidInput(tool.name, `expected a JSON object, received ${clip(call.arguments)}`);
  }
  const parsed = tool.input.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.length === 0 ? '(arguments)' : issue.path.map(String).join('.')}: ${issue.message}`);
    return invalidInput(tool.name, issues.join('; '));
  }
  try {
    const output = await tool.run(parsed.data, context);
    if (typeof output === 'string') return { text: output, isError: false };
    return output.isError === true
      ? { text: output.text, isError: true, error: { name: 'ToolError', code: 'TOOL_FAILED' } }
      : { text: output.text, isError: false };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    if (context.signal.aborted) return cancelledWhileRunning(tool.effect, detail);
    return { text: detail === '' ? 'The tool failed without a message.' : detail, isError: true, error: errorOf(error) };
  }
}

function invalidInput(name: string, detail: string): CallOutcome {
  return {
    text: `Invalid arguments for ${name}: ${detail}. The tool did not run.`,
    isError: true,
    error: { name: 'ToolInputError', code: 'INVALID_TOOL_INPUT' },
  };
}

// Reserved for the canonical synthetic results of fork and crash repair (SPEC §4); the log refuses
// them on any other result, so a tool's own error never carries them.
const RESERVED = new Set(['ToolNotStartedError', 'ToolOutcomeUnknownError', 'TOOL_NOT_STARTED', 'TOOL_OUTCOME_UNKNOWN']);

function errorOf(error: unknown): { name: string; code: string } {
  if (typeof error !== 'object' || error === null) return { name: 'Error', code: 'TOOL_FAILED' };
  const { name, code } = error as { name?: unknown; code?: unknown };
  return {
    name: typeof name === 'string' && name !== '' && !RESERVED.has(name) ? name : 'ToolError',
    code: typeof code === 'string' && code !== '' && !RESERVED.has(code) ? code : 'TOOL_FAILED',
  };
}

function clip(text: string): string {
  return text.length > 120 ? `${JSON.stringify(text.slice(0, 120))}…` : JSON.stringify(text);
}
