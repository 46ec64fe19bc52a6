/**
 * Translation between dsh's derived history and the OpenAI Chat Completions wire format.
 * Kept apart from the HTTP code so the mapping can be read (and tested) on its own.
 */
import { z } from 'zod';
import type { ContentBlock, JsonObject } from 'dsh-codec';
import type { ModelMessage, ModelResponse, ToolSpec } from '../model.js';

export type WireToolCall = { id: string; type: 'function'; function: { name: string; arguments: string } };
export type WireMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: WireToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/**
 * The wire messages for a request. Every result is sent as a `tool` message right after its call.
 * A call the log holds no result for (a historical failure, never repaired) cannot be sent as a
 * call, since the API demands a result for each; it is described in the assistant's text instead.
 */
export function toWireMessages(system: string | undefined, messages: readonly ModelMessage[]): WireMessage[] {
  const answered = new Set<string>();
  for (const message of messages) if (message.role === 'tool') answered.add(message.callId);
  const sentCalls = new Set<string>();
  const wire: WireMessage[] = system === undefined || system === '' ? [] : [{ role: 'system', content: system }];
  for (const message of messages) {
    if (message.role === 'user') {
      wire.push({ role: 'user', content: textOf(message.content) });
    } else if (message.role === 'assistant') {
      const calls: WireToolCall[] = [];
      const notes: string[] = [];
      for (const block of message.content) {
        if (block.type !== 'tool-call') continue;
        if (answered.has(block.id) && !sentCalls.has(block.id)) {
          sentCalls.add(block.id);
          calls.push({ id: block.id, type: 'function', function: { name: block.name, arguments: block.arguments } });
        } else {
          notes.push(`[tool call ${block.name} ${block.arguments} (id ${block.id}) has no recorded result]`);
        }
      }
      const text = [textOf(message.content), ...notes].filter((part) => part !== '').join('\n');
      wire.push({
        role: 'assistant',
        content: text === '' && calls.length > 0 ? null : text,
        ...(calls.length === 0 ? {} : { tool_calls: calls }),
      });
    } else {
      const text = textOf(message.content);
      const content = message.isError ? `Error: ${text}` : text;
      if (sentCalls.has(message.callId)) {
        wire.push({ role: 'tool', tool_call_id: message.callId, content });
      } else {
        wire.push({ role: 'user', content: `[result of tool call ${message.callId}] ${content}` });
      }
    }
  }
  return wire;
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

const wireResponse = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          refusal: z.string().nullish(),
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
      }),
    )
    .min(1),
  usage: z
    .object({
      prompt_tokens: z.number().optional(),
      completion_tokens: z.number().optional(),
      total_tokens: z.number().optional(),
    })
    .nullish(),
});

/** The response of a Chat Completions body, or an issue message when it is not one. */
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
  const usage = parsed.data.usage;
  if (usage !== undefined && usage !== null) {
    const normalized: JsonObject = {};
    if (usage.prompt_tokens !== undefined) normalized.inputTokens = usage.prompt_tokens;
    if (usage.completion_tokens !== undefined) normalized.outputTokens = usage.completion_tokens;
    if (usage.total_tokens !== undefined) normalized.totalTokens = usage.total_tokens;
    response.usage = normalized;
  }
  return { response };
}

function textOf(content: readonly ContentBlock[]): string {
  return content
    .filter((block): block is Extract<ContentBlock, { type: 'text' }> => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
}
