/** The records a turn writes for a model response and a tool outcome, and how a model failure is reported. */
import type { AssistantMessage, ContentBlock, ToolResultMessage } from 'dsh-codec';
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

