/**
 * @module models/anthropic-wire
 * Translation between dsh's derived history and the Anthropic Messages API: roles alternate,
 * tool results travel in the user message right after the assistant message declaring their
 * calls, signed thinking and redacted thinking go back verbatim, ids are made unique per request.
 */
import type { AssistantMessage, ContentBlock, JsonObject, ToolResultMessage } from 'dsh-codec';
import type { ModelMessage, ModelReasoning, ModelStopReason, ToolSpec } from '../model.js';

/** The `providerData.wire` of reasoning that came from the Messages API (only that is sent back there). */
export const ANTHROPIC_WIRE = 'anthropic-messages';

/** One content block of a request, as the Messages API takes it. */
export type AnthropicBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: JsonObject }
  | { type: 'tool_result'; tool_use_id: string; content?: string; is_error?: true };

/** One message of a request. */
export type AnthropicMessage = { role: 'user' | 'assistant'; content: AnthropicBlock[] };

const WIRE_ID = /^[a-zA-Z0-9_-]+$/;

/**
 * The `messages` of a request. Each tool result is paired with the nearest assistant message
 * before it that declared its id and sent in the next user message; a call without a result is
 * described in the assistant's text; ids repeated in the request (call ids are unique only within
 * a step) or not matching the API's pattern are replaced by `toolu_dsh_<n>` on the wire only.
 */
export function toAnthropicMessages(messages: readonly ModelMessage[]): AnthropicMessage[] {
  const out: AnthropicMessage[] = [];
  const usedIds = new Set<string>();
  let generated = 0;
  const wireId = (id: string): string => {
    if (WIRE_ID.test(id) && !usedIds.has(id)) {
      usedIds.add(id);
      return id;
    }
    let candidate: string;
    do {
      generated += 1;
      candidate = `toolu_dsh_${generated}`;
    } while (usedIds.has(candidate));
    usedIds.add(candidate);
    return candidate;
  };
  const push = (role: 'user' | 'assistant', content: AnthropicBlock[]) => {
    if (content.length === 0) return;
    const last = out[out.length - 1];
    // The API wants alternating roles: consecutive messages of one role become one.
    if (last?.role === role) last.content.push(...content);
    else out.push({ role, content });
  };
  let index = 0;
  while (index < messages.length) {
    const message = messages[index] as ModelMessage;
    index += 1;
    if (message.role === 'user') {
      push('user', textBlocks(textOf(message.content)));
    } else if (message.role === 'tool') {
      push('user', textBlocks(orphanText(message)));
    } else {
      let end = index;
      while (end < messages.length && messages[end]?.role !== 'assistant') end += 1;
      const scope = messages.slice(index, end);
      index = end;
      const { assistant, user } = assistantWithResults(message, scope, wireId);
      if (assistant.length > 0) {
        push('assistant', assistant);
        push('user', user);
      } else {
        push(
          'user',
          user.filter((block) => block.type !== 'tool_result'),
        );
      }
    }
  }
  // The first message must be the user's (a compacted history may start otherwise).
  if (out[0]?.role === 'assistant') out.unshift({ role: 'user', content: [{ type: 'text', text: '(conversation continues)' }] });
  return out;
}

function assistantWithResults(
  message: AssistantMessage,
  scope: readonly ModelMessage[],
  wireId: (id: string) => string,
): { assistant: AnthropicBlock[]; user: AnthropicBlock[] } {
  const declared = new Set<string>();
  for (const block of message.content) if (block.type === 'tool-call') declared.add(block.id);
  const results = new Map<string, ToolResultMessage>();
  const rest: ModelMessage[] = [];
  for (const item of scope) {
    if (item.role === 'tool' && declared.has(item.callId) && !results.has(item.callId)) results.set(item.callId, item);
    else rest.push(item);
  }
  const assistant: AnthropicBlock[] = [];
  for (const reasoning of reasoningOf(message)) {
    const block = toThinkingBlock(reasoning);
    if (block !== undefined) assistant.push(block);
  }
  const notes: string[] = [];
  const calls: AnthropicBlock[] = [];
  const user: AnthropicBlock[] = [];
  const sent = new Set<string>();
  for (const block of message.content) {
    if (block.type !== 'tool-call') continue;
    const result = results.get(block.id);
    if (result === undefined || sent.has(block.id)) {
      notes.push(`[tool call ${block.name} ${block.arguments} (id ${block.id}) has no recorded result]`);
      continue;
    }
    sent.add(block.id);
    const id = wireId(block.id);
    calls.push({ type: 'tool_use', id, name: block.name, input: inputOf(block.arguments) });
    const text = textOf(result.content);
    user.push({
      type: 'tool_result',
      tool_use_id: id,
      ...(text === '' ? {} : { content: text }),
      ...(result.isError ? { is_error: true as const } : {}),
    });
  }
  const text = [textOf(message.content), ...notes].filter((part) => part !== '').join('\n');
  assistant.push(...textBlocks(text), ...calls);
  for (const item of rest) user.push(...textBlocks(item.role === 'tool' ? orphanText(item) : textOf(item.content)));
  return { assistant, user };
}

/**
 * A reasoning block as the API wants it back, or undefined when it came from elsewhere or is
 * unsigned: the API verifies each thinking signature, so reasoning from another provider (or
 * imported without one) would fail the request; it is left out rather than sent as thinking or text.
 */
function toThinkingBlock(reasoning: ModelReasoning): AnthropicBlock | undefined {
  const data = reasoning.providerData;
  if (data?.wire !== ANTHROPIC_WIRE) return undefined;
  if (typeof data.redactedData === 'string') return { type: 'redacted_thinking', data: data.redactedData };
  if (typeof data.signature === 'string' && data.signature !== '')
    return { type: 'thinking', thinking: reasoning.text, signature: data.signature };
  return undefined;
}

/** The reasoning blocks of an assistant message, in order. */
export function reasoningOf(message: AssistantMessage): ModelReasoning[] {
  const out: ModelReasoning[] = [];
  for (const block of message.content) {
    if (block.type === 'reasoning')
      out.push(block.providerData === undefined ? { text: block.text } : { text: block.text, providerData: block.providerData });
  }
  return out;
}

/** A call's raw JSON arguments as the object `tool_use.input` must be; anything else is kept under `_raw`. */
function inputOf(argumentsText: string): JsonObject {
  if (argumentsText.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(argumentsText);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as JsonObject;
  } catch {
    // fall through: the model produced something that is not a JSON object
  }
  return { _raw: argumentsText };
}

/** The `tools` field of a request, or nothing when the model gets no tools. */
export function toAnthropicTools(tools: readonly ToolSpec[]): { tools?: object[] } {
  if (tools.length === 0) return {};
  return { tools: tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.parameters })) };
}

/** `stop_reason` in dsh's vocabulary. */
export function mapStopReason(reason: string | null | undefined): ModelStopReason | undefined {
  if (reason === undefined || reason === null) return undefined;
  if (reason === 'end_turn' || reason === 'stop_sequence') return 'end';
  if (reason === 'tool_use') return 'tool-calls';
  if (reason === 'max_tokens' || reason === 'model_context_window_exceeded') return 'max-tokens';
  if (reason === 'refusal') return 'refusal';
  return 'other';
}

/** Anthropic's error `type` as the HTTP status it stands for (so stream errors retry like HTTP ones). */
export function statusOfErrorType(type: string | undefined): number | undefined {
  const statuses: Record<string, number> = {
    invalid_request_error: 400,
    authentication_error: 401,
    permission_error: 403,
    not_found_error: 404,
    request_too_large: 413,
    rate_limit_error: 429,
    api_error: 500,
    timeout_error: 504,
    overloaded_error: 529,
  };
  return type === undefined ? undefined : statuses[type];
}

function orphanText(message: ToolResultMessage): string {
  const text = textOf(message.content);
  return `[result of tool call ${message.callId}] ${message.isError ? `Error: ${text}` : text}`;
}

function textBlocks(text: string): AnthropicBlock[] {
  return text === '' ? [] : [{ type: 'text', text }];
}

function textOf(content: readonly ContentBlock[]): string {
  return content
    .filter((block): block is Extract<ContentBlock, { type: 'text' }> => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
}
