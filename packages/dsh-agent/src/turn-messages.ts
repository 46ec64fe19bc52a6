/**
 * @module turn-messages
 * The records an agent writes for queued input, a model response and a tool outcome, how a model
 * failure is reported, and the tool names it accepts.
 */
import type { AssistantMessage, ContentBlock, ToolResultMessage, UserMessage } from 'dsh-codec';
import { AgentError } from './agent-error.js';
import type { Tool } from './define-tool.js';
import type { CallOutcome } from './execute-tool-call.js';
import type { ModelResponse } from './model.js';

/**
 * The assistant message of a response: reasoning blocks first, in the provider's order, with their
 * `providerData` verbatim (what the adapter must send back), then the text, then the tool calls.
 * Call ids missing or repeated in the step become `call-<seq>-<index>`.
 */
export function assistantMessage(response: ModelResponse, seq: number): AssistantMessage {
  const content: ContentBlock[] = (response.reasoning ?? []).map((reasoning) =>
    reasoning.providerData === undefined
      ? { type: 'reasoning', text: reasoning.text }
      : { type: 'reasoning', text: reasoning.text, providerData: reasoning.providerData },
  );
  if (response.text !== '') content.push({ type: 'text', text: response.text });
  const seen = new Set<string>();
  response.toolCalls.forEach((call, index) => {
    const id = call.id === undefined || call.id === '' || seen.has(call.id) ? `call-${seq}-${index}` : call.id;
    seen.add(id);
    content.push({ type: 'tool-call', id, name: call.name, arguments: call.arguments });
  });
  return { id: `assistant-${seq}`, role: 'assistant', content };
}

/** The `tool/result` message of `outcome` (a cancelled call gets the canonical cancelled id). */
export function resultMessage(callId: string, outcome: CallOutcome, seq: number): ToolResultMessage {
  return {
    id: outcome.cancelled === true ? `cancelled-tool-result-${callId}-${seq}` : `result-${seq}`,
    role: 'tool',
    callId,
    content: [{ type: 'text', text: outcome.text }],
    isError: outcome.isError,
  };
}

/** A model failure as the `turn/end` error: its message and code, with defaults for bare values. */
export function errorOf(error: unknown): { message: string; code: string } {
  if (typeof error === 'object' && error !== null) {
    const { message, code } = error as { message?: unknown; code?: unknown };
    return {
      message: typeof message === 'string' && message !== '' ? message : 'the model request failed without a message',
      code: typeof code === 'string' && code !== '' ? code : 'MODEL_ERROR',
    };
  }
  return { message: String(error), code: 'MODEL_ERROR' };
}

/** Input for `enqueue`: text, a complete user message, or text with a caller-chosen input id. */
export type AgentInput = string | UserMessage | { text: string; inputId?: string };

/** The user message and input id of `input` queued at `seq` (defaults: `user-<seq>`, `input-<seq>`). */
export function queuedInput(input: AgentInput, seq: number): { message: UserMessage; inputId: string } {
  if (typeof input === 'string')
    return { message: { id: `user-${seq}`, role: 'user', content: [{ type: 'text', text: input }] }, inputId: `input-${seq}` };
  if ('role' in input) return { message: input, inputId: `input-${seq}` };
  return {
    message: { id: `user-${seq}`, role: 'user', content: [{ type: 'text', text: input.text }] },
    inputId: input.inputId ?? `input-${seq}`,
  };
}

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** The tools by name; `INVALID_OPTION` for a name outside `[A-Za-z0-9_-]{1,64}` or a name given twice. */
export function toolsByName(tools: readonly Tool[]): ReadonlyMap<string, Tool> {
  const byName = new Map<string, Tool>();
  for (const tool of tools) {
    if (!TOOL_NAME.test(tool.name)) {
      throw new AgentError('INVALID_OPTION', `expected a tool name matching ${TOOL_NAME.source}, received ${JSON.stringify(tool.name)}`);
    }
    if (byName.has(tool.name)) throw new AgentError('INVALID_OPTION', `expected unique tool names, received ${tool.name} twice`);
    byName.set(tool.name, tool);
  }
  return byName;
}
