/**
 * @module models/openai-wire
 * Translation between dsh's derived history and the OpenAI Chat Completions wire format.
 * Kept apart from the HTTP code so the mapping can be read (and tested) on its own.
 */
import { z } from 'zod';
import type { AssistantMessage, ContentBlock, JsonObject, ToolResultMessage } from 'dsh-codec';
import type { ModelMessage, ModelResponse, ModelStopReason, ToolSpec } from '../model.js';

export type WireToolCall = { id: string; type: 'function'; function: { name: string; arguments: string } };
export type WireMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: WireToolCall[]; reasoning_content?: string; reasoning?: string }
  | { role: 'tool'; tool_call_id: string; content: string };

/**
 * The wire messages for a request. Call ids are unique only within their step, so each tool
 * message is paired with the nearest assistant message before it that declared its id, and is sent
 * right after that message. A call the log holds no result for (a historical failure, never
 * repaired) cannot be sent as a call, since the API demands a result for each: it is described in
 * the assistant's text instead; a result no sent call declares becomes user text. Reasoning that
 * came from an OpenAI-compatible provider goes back in its own field (`reasoning_content`, or
 * `reasoning`) on the assistant messages of every tool-using turn (see `reasoningTurns`).
 */
export function toWireMessages(system: string | undefined, messages: readonly ModelMessage[]): WireMessage[] {
  const wire: WireMessage[] = system === undefined || system === '' ? [] : [{ role: 'system', content: system }];
  const withReasoning = reasoningTurns(messages);
  let index = 0;
  while (index < messages.length) {
    const message = messages[index] as ModelMessage;
    index += 1;
    if (message.role === 'user') {
      wire.push({ role: 'user', content: textOf(message.content) });
    } else if (message.role === 'tool') {
      wire.push(orphanResult(message));
    } else {
      // The assistant's scope: everything up to the next assistant message.
      let end = index;
      while (end < messages.length && messages[end]?.role !== 'assistant') end += 1;
      const scope = messages.slice(index, end);
      index = end;
      wire.push(...assistantWithResults(message, scope, withReasoning.has(message)));
    }
  }
  return wire;
}

/**
 * The assistant messages whose reasoning goes back: those of each turn (the messages between two
 * user messages, the last one included) in which the model called a tool. DeepSeek's thinking
 * mode refuses a request (400) that drops the `reasoning_content` of such a turn, in the turn still
 * running and in every later request; a turn without tool calls does not need it (it is ignored).
 */
function reasoningTurns(messages: readonly ModelMessage[]): Set<ModelMessage> {
  const out = new Set<ModelMessage>();
  let turn: ModelMessage[] = [];
  let calledTool = false;
  const close = () => {
    if (calledTool) for (const message of turn) out.add(message);
    turn = [];
    calledTool = false;
  };
  for (const message of messages) {
    if (message.role === 'user') close();
    else if (message.role === 'assistant') {
      turn.push(message);
      if (message.content.some((block) => block.type === 'tool-call')) calledTool = true;
    }
  }
  close();
  return out;
}

/** The fields an OpenAI-compatible provider's reasoning goes back in, from its `providerData` (other reasoning is never sent). */
function reasoningFields(message: AssistantMessage): { reasoning_content?: string; reasoning?: string } {
  const fields: { reasoning_content?: string; reasoning?: string } = {};
  for (const block of message.content) {
    if (block.type !== 'reasoning' || block.providerData?.wire !== OPENAI_WIRE) continue;
    const field = block.providerData.field;
    if (field === 'reasoning_content' || field === 'reasoning') fields[field] = (fields[field] ?? '') + block.text;
  }
  return fields;
}

/** An assistant message, the tool messages answering its calls, then the rest of its scope in order. */
function assistantWithResults(message: AssistantMessage, scope: readonly ModelMessage[], withReasoning: boolean): WireMessage[] {
  const declared = new Map<string, Extract<ContentBlock, { type: 'tool-call' }>>();
  for (const block of message.content) if (block.type === 'tool-call' && !declared.has(block.id)) declared.set(block.id, block);
  const results = new Map<string, ToolResultMessage>();
  const rest: ModelMessage[] = [];
  for (const item of scope) {
    if (item.role === 'tool' && declared.has(item.callId) && !results.has(item.callId)) results.set(item.callId, item);
    else rest.push(item);
  }
  const calls: WireToolCall[] = [];
  const notes: string[] = [];
  const sent = new Set<string>();
  for (const block of message.content) {
    if (block.type !== 'tool-call') continue;
    if (results.has(block.id) && !sent.has(block.id)) {
      sent.add(block.id);
      calls.push({ id: block.id, type: 'function', function: { name: block.name, arguments: block.arguments } });
    } else {
      notes.push(`[tool call ${block.name} ${block.arguments} (id ${block.id}) has no recorded result]`);
    }
  }
  const text = [textOf(message.content), ...notes].filter((part) => part !== '').join('\n');
  const wire: WireMessage[] = [
    {
      role: 'assistant',
      content: text === '' && calls.length > 0 ? null : text,
      ...(calls.length === 0 ? {} : { tool_calls: calls }),
      ...(withReasoning ? reasoningFields(message) : {}),
    },
  ];
  for (const call of calls) {
    const result = results.get(call.id) as ToolResultMessage;
    wire.push({ role: 'tool', tool_call_id: call.id, content: resultText(result) });
  }
  for (const item of rest) wire.push(item.role === 'tool' ? orphanResult(item) : { role: 'user', content: textOf(item.content) });
  return wire;
}

function orphanResult(message: ToolResultMessage): WireMessage {
  return { role: 'user', content: `[result of tool call ${message.callId}] ${resultText(message)}` };
}

function resultText(message: ToolResultMessage): string {
  const text = textOf(message.content);
  return message.isError ? `Error: ${text}` : text;
}

/** The `tools` field of a request, or nothing when the model gets no tools. */
export function toWireTools(tools: readonly ToolSpec[]): { tools?: object[] } {
  if (tools.length === 0) return {};
  return {
    tools: tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    })),
  };
}

const wireUsage = z
  .object({
    prompt_tokens: z.number().nullish(),
    completion_tokens: z.number().nullish(),
    total_tokens: z.number().nullish(),
    prompt_tokens_details: z.object({ cached_tokens: z.number().nullish() }).nullish(),
    completion_tokens_details: z.object({ reasoning_tokens: z.number().nullish() }).nullish(),
    /** DeepSeek's names for cache hits and misses. */
    prompt_cache_hit_tokens: z.number().nullish(),
  })
  .nullish();

/** The `usage` object of a completion or of the last stream chunk, as the provider sends it. */
export type WireUsage = z.infer<typeof wireUsage>;

/** A stream chunk's `usage`, or undefined when it is absent or not the shape we know (usage is never worth failing for). */
export function parseUsage(value: unknown): WireUsage {
  const parsed = wireUsage.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

const wireResponse = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          refusal: z.string().nullish(),
          reasoning_content: z.string().nullish(),
          reasoning: z.string().nullish(),
          tool_calls: z
            .array(
              z.object({
                id: z.string(),
                type: z.string().optional(),
                function: z.object({ name: z.string(), arguments: z.string() }),
              }),
            )
            .nullish(),
        }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  usage: wireUsage,
});

/** Where an OpenAI-compatible provider put its reasoning, kept in `providerData` to send it back there. */
export const OPENAI_WIRE = 'openai-chat';

/** The response of a (non-streamed) Chat Completions body, or an issue message when it is not one. */
export function fromWireResponse(body: unknown): { response: ModelResponse } | { issue: string } {
  const parsed = wireResponse.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { issue: `${issue?.path.map(String).join('.') ?? ''}: ${issue?.message ?? 'invalid'}` };
  }
  const choice = parsed.data.choices[0];
  const message = choice?.message;
  const response: ModelResponse = {
    text: message?.content ?? message?.refusal ?? '',
    toolCalls: (message?.tool_calls ?? []).map((call) => ({
      id: call.id,
      name: call.function.name,
      arguments: call.function.arguments,
    })),
  };
  const field =
    typeof message?.reasoning_content === 'string' ? 'reasoning_content' : typeof message?.reasoning === 'string' ? 'reasoning' : undefined;
  const reasoning = field === undefined ? undefined : message?.[field];
  if (field !== undefined && typeof reasoning === 'string' && reasoning !== '') {
    response.reasoning = [{ text: reasoning, providerData: { wire: OPENAI_WIRE, field } }];
  }
  const usage = normalizeUsage(parsed.data.usage);
  if (usage !== undefined) response.usage = usage;
  const stopReason = mapFinishReason(choice?.finish_reason);
  if (stopReason !== undefined) response.stopReason = stopReason;
  return { response };
}

/** Usage in dsh's names; `inputTokens` includes cached tokens, as OpenAI's `prompt_tokens` does. */
export function normalizeUsage(usage: WireUsage): JsonObject | undefined {
  if (usage === undefined || usage === null) return undefined;
  const normalized: JsonObject = {};
  const put = (key: string, value: number | null | undefined) => {
    if (typeof value === 'number') normalized[key] = value;
  };
  put('inputTokens', usage.prompt_tokens);
  put('outputTokens', usage.completion_tokens);
  put('totalTokens', usage.total_tokens);
  put('cacheReadTokens', usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens);
  put('reasoningTokens', usage.completion_tokens_details?.reasoning_tokens);
  return Object.keys(normalized).length === 0 ? undefined : normalized;
}

/** `finish_reason` in dsh's vocabulary; undefined while the stream has not said. */
export function mapFinishReason(reason: string | null | undefined): ModelStopReason | undefined {
  if (reason === undefined || reason === null) return undefined;
  if (reason === 'stop') return 'end';
  if (reason === 'tool_calls' || reason === 'function_call') return 'tool-calls';
  if (reason === 'length') return 'max-tokens';
  if (reason === 'content_filter') return 'refusal';
  return 'other';
}

/** The text blocks joined; reasoning blocks (V5) are never sent back as text. */
function textOf(content: readonly ContentBlock[]): string {
  return content
    .filter((block): block is Extract<ContentBlock, { type: 'text' }> => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
}
