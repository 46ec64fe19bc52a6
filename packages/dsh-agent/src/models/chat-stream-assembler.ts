/**
 * @module models/chat-stream-assembler
 * Assembles a streamed Chat Completions response (`chat.completion.chunk` frames) into one
 * `ModelResponse`: text and reasoning deltas concatenated, tool calls assembled by `index`, the
 * usage chunk (`stream_options.include_usage`) read, `[DONE]` ending the stream.
 */
import { z } from 'zod';
import { AgentError } from '../agent-error.js';
import type { ModelDelta, ModelResponse, ModelStopReason } from '../model.js';
import { clip } from './post-model-request.js';
import { mapFinishReason, normalizeUsage, OPENAI_WIRE, parseUsage, type WireUsage } from './openai-wire.js';

const chunkSchema = z.object({
  choices: z
    .array(
      z.object({
        index: z.number().nullish(),
        delta: z
          .object({
            content: z.string().nullish(),
            refusal: z.string().nullish(),
            reasoning_content: z.string().nullish(),
            reasoning: z.string().nullish(),
            tool_calls: z
              .array(
                z.object({
                  index: z.number().nullish(),
                  id: z.string().nullish(),
                  function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
                }),
              )
              .nullish(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  usage: z.unknown().optional(),
  error: z.object({ message: z.string().optional(), type: z.string().nullish(), code: z.unknown().optional() }).nullish(),
});

type PartialCall = { id: string; name: string; arguments: string };

/** Feed it each SSE `data:` payload in order, then call `finish()` for the response. */
export class ChatStreamAssembler {
  readonly #label: string;
  readonly #onDelta: ((delta: ModelDelta) => void) | undefined;
  #text = '';
  #refusal = '';
  #reasoning = '';
  #reasoningField: 'reasoning_content' | 'reasoning' | undefined;
  readonly #calls = new Map<number, PartialCall>();
  #usage: WireUsage;
  #stopReason: ModelStopReason | undefined;
  #done = false;

  constructor(label: string, onDelta?: (delta: ModelDelta) => void) {
    this.#label = label;
    this.#onDelta = onDelta;
  }

  /** Takes one frame's data; `'stop'` after `[DONE]`. Throws `MODEL_STREAM_ERROR` for an error frame. */
  accept(data: string): 'stop' | undefined {
    if (data.trim() === '[DONE]') {
      this.#done = true;
      return 'stop';
    }
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch (cause) {
      throw new AgentError('MODEL_BAD_RESPONSE', `${this.#label}: expected a JSON chunk in the stream, received ${clip(data)}`, { cause });
    }
    const parsed = chunkSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new AgentError(
        'MODEL_BAD_RESPONSE',
        `${this.#label}: expected a chat.completion.chunk (${issue?.path.map(String).join('.') ?? ''}: ${issue?.message ?? 'invalid'}), received ${clip(data)}`,
      );
    }
    const chunk = parsed.data;
    if (chunk.error !== undefined && chunk.error !== null) {
      const status = typeof chunk.error.code === 'number' ? chunk.error.code : undefined;
      throw new AgentError(
        'MODEL_STREAM_ERROR',
        `${this.#label}: the stream reported an error: ${chunk.error.message ?? 'no message'}${typeof chunk.error.type === 'string' ? ` (${chunk.error.type})` : ''}`,
        status === undefined ? {} : { status },
      );
    }
    if (chunk.usage !== undefined && chunk.usage !== null) this.#usage = parseUsage(chunk.usage) ?? this.#usage;
    // Only the first choice is ours: dsh never asks for n > 1.
    const choice = chunk.choices?.find((candidate) => (candidate.index ?? 0) === 0);
    if (choice === undefined) return undefined;
    const delta = choice.delta;
    const reasoningField =
      typeof delta?.reasoning_content === 'string' ? 'reasoning_content' : typeof delta?.reasoning === 'string' ? 'reasoning' : undefined;
    if (reasoningField !== undefined) {
      const piece = delta?.[reasoningField] ?? '';
      this.#reasoningField ??= reasoningField;
      if (piece !== '') {
        this.#reasoning += piece;
        this.#onDelta?.({ reasoning: piece });
      }
    }
    const text = delta?.content;
    if (typeof text === 'string' && text !== '') {
      this.#text += text;
      this.#onDelta?.({ text });
    }
    if (typeof delta?.refusal === 'string') this.#refusal += delta.refusal;
    (delta?.tool_calls ?? []).forEach((call, position) => {
      const index = call.index ?? position;
      let partial = this.#calls.get(index);
      if (partial === undefined) {
        partial = { id: '', name: '', arguments: '' };
        this.#calls.set(index, partial);
      }
      if (typeof call.id === 'string' && call.id !== '' && partial.id === '') partial.id = call.id;
      const name = call.function?.name;
      if (typeof name === 'string' && name !== '' && partial.name === '') partial.name = name;
      const args = call.function?.arguments;
      if (typeof args === 'string') partial.arguments += args;
    });
    this.#stopReason = mapFinishReason(choice.finish_reason) ?? this.#stopReason;
    return undefined;
  }

  /**
   * The assembled response. A stream that ended with neither `[DONE]` nor a finish reason broke
   * off: `MODEL_UNREACHABLE` (retried like a reset connection).
   */
  finish(url: string): ModelResponse {
    if (!this.#done && this.#stopReason === undefined) {
      throw new AgentError('MODEL_UNREACHABLE', `${this.#label}: the stream from ${url} ended before the response was complete`);
    }
    for (const [index, call] of this.#calls) {
      if (call.name === '') {
        throw new AgentError(
          'MODEL_BAD_RESPONSE',
          `${this.#label}: tool call ${index} in the stream from ${url} never received a function name`,
        );
      }
    }
    const response: ModelResponse = {
      text: this.#text === '' ? this.#refusal : this.#text,
      toolCalls: [...this.#calls.entries()]
        .sort(([a], [b]) => a - b)
        .map(([, call]) => ({ ...(call.id === '' ? {} : { id: call.id }), name: call.name, arguments: call.arguments })),
    };
    if (this.#reasoningField !== undefined && this.#reasoning !== '') {
      response.reasoning = [{ text: this.#reasoning, providerData: { wire: OPENAI_WIRE, field: this.#reasoningField } }];
    }
    const usage = normalizeUsage(this.#usage);
    if (usage !== undefined) response.usage = usage;
    if (this.#stopReason !== undefined) response.stopReason = this.#stopReason;
    return response;
  }
}
