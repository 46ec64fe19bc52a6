/**
 * @module models/anthropic-stream-assembler
 * Assembles a streamed Messages API response (`message_start`, `content_block_start/delta/stop`,
 * `message_delta`, `message_stop`, `ping`, `error`) into one `ModelResponse`.
 */
import { z } from 'zod';
import type { JsonObject } from 'dsh-codec';
import { AgentError } from '../agent-error.js';
import type { ModelDelta, ModelReasoning, ModelResponse, ModelStopReason } from '../model.js';
import { ANTHROPIC_WIRE, mapStopReason, statusOfErrorType } from './anthropic-wire.js';
import { clip } from './post-model-request.js';

const usageSchema = z
  .object({
    input_tokens: z.number().nullish(),
    output_tokens: z.number().nullish(),
    cache_creation_input_tokens: z.number().nullish(),
    cache_read_input_tokens: z.number().nullish(),
  })
  .nullish();

type WireUsage = NonNullable<z.infer<typeof usageSchema>>;

const eventSchema = z.object({
  type: z.string(),
  index: z.number().optional(),
  message: z.object({ usage: usageSchema }).optional(),
  content_block: z
    .object({
      type: z.string(),
      text: z.string().optional(),
      thinking: z.string().optional(),
      signature: z.string().optional(),
      data: z.string().optional(),
      id: z.string().optional(),
      name: z.string().optional(),
    })
    .optional(),
  delta: z
    .object({
      type: z.string().optional(),
      text: z.string().optional(),
      thinking: z.string().optional(),
      signature: z.string().optional(),
      partial_json: z.string().optional(),
      stop_reason: z.string().nullish(),
    })
    .optional(),
  usage: usageSchema,
  error: z.object({ type: z.string().optional(), message: z.string().optional() }).optional(),
});

type Block =
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; text: string; signature: string }
  | { kind: 'redacted'; data: string }
  | { kind: 'tool'; id: string; name: string; json: string }
  | { kind: 'other' };

/** Feed it each SSE event in order, then call `finish()` for the response. */
export class AnthropicStreamAssembler {
  readonly #onDelta: ((delta: ModelDelta) => void) | undefined;
  readonly #blocks = new Map<number, Block>();
  #usage: WireUsage = {};
  #stopReason: ModelStopReason | undefined;
  #done = false;

  constructor(onDelta?: (delta: ModelDelta) => void) {
    this.#onDelta = onDelta;
  }

  /** Takes one event's data; `'stop'` after `message_stop`. Throws `MODEL_STREAM_ERROR` for an `error` event. */
  accept(data: string): 'stop' | undefined {
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch (cause) {
      throw new AgentError('MODEL_BAD_RESPONSE', `anthropic: expected a JSON event in the stream, received ${clip(data)}`, { cause });
    }
    const parsed = eventSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new AgentError(
        'MODEL_BAD_RESPONSE',
        `anthropic: expected a Messages stream event (${issue?.path.map(String).join('.') ?? ''}: ${issue?.message ?? 'invalid'}), received ${clip(data)}`,
      );
    }
    const event = parsed.data;
    switch (event.type) {
      case 'message_start':
        this.#mergeUsage(event.message?.usage);
        return undefined;
      case 'content_block_start':
        this.#start(event.index ?? this.#blocks.size, event.content_block);
        return undefined;
      case 'content_block_delta':
        this.#delta(event.index ?? this.#blocks.size - 1, event.delta);
        return undefined;
      case 'message_delta':
        this.#stopReason = mapStopReason(event.delta?.stop_reason) ?? this.#stopReason;
        this.#mergeUsage(event.usage);
        return undefined;
      case 'message_stop':
        this.#done = true;
        return 'stop';
      case 'error': {
        const status = statusOfErrorType(event.error?.type);
        throw new AgentError(
          'MODEL_STREAM_ERROR',
          `anthropic: the stream reported an error: ${event.error?.message ?? 'no message'}${event.error?.type === undefined ? '' : ` (${event.error.type})`}`,
          status === undefined ? {} : { status },
        );
      }
      default:
        // `ping`, `content_block_stop` and event types added later carry nothing we keep.
        return undefined;
    }
  }

  /** The assembled response; a stream without `message_stop` broke off (`MODEL_UNREACHABLE`, retried). */
  finish(url: string): ModelResponse {
    if (!this.#done) throw new AgentError('MODEL_UNREACHABLE', `anthropic: the stream from ${url} ended before message_stop`);
    const reasoning: ModelReasoning[] = [];
    const texts: string[] = [];
    const response: ModelResponse = { text: '', toolCalls: [] };
    for (const [, block] of [...this.#blocks.entries()].sort(([a], [b]) => a - b)) {
      if (block.kind === 'text') texts.push(block.text);
      else if (block.kind === 'thinking')
        reasoning.push({ text: block.text, providerData: { wire: ANTHROPIC_WIRE, signature: block.signature } });
      else if (block.kind === 'redacted') reasoning.push({ text: '', providerData: { wire: ANTHROPIC_WIRE, redactedData: block.data } });
      else if (block.kind === 'tool')
        response.toolCalls.push({ id: block.id, name: block.name, arguments: block.json === '' ? '{}' : block.json });
    }
    response.text = texts.filter((text) => text !== '').join('\n');
    if (reasoning.length > 0) response.reasoning = reasoning;
    const usage = normalizeAnthropicUsage(this.#usage);
    if (usage !== undefined) response.usage = usage;
    if (this.#stopReason !== undefined) response.stopReason = this.#stopReason;
    return response;
  }

  #start(index: number, block: z.infer<typeof eventSchema>['content_block']): void {
    if (block === undefined) return;
    if (block.type === 'text') this.#blocks.set(index, { kind: 'text', text: block.text ?? '' });
    else if (block.type === 'thinking')
      this.#blocks.set(index, { kind: 'thinking', text: block.thinking ?? '', signature: block.signature ?? '' });
    else if (block.type === 'redacted_thinking') this.#blocks.set(index, { kind: 'redacted', data: block.data ?? '' });
    else if (block.type === 'tool_use') this.#blocks.set(index, { kind: 'tool', id: block.id ?? '', name: block.name ?? '', json: '' });
    else this.#blocks.set(index, { kind: 'other' });
    if (block.type === 'text' && (block.text ?? '') !== '') this.#onDelta?.({ text: block.text ?? '' });
  }

  #delta(index: number, delta: z.infer<typeof eventSchema>['delta']): void {
    const block = this.#blocks.get(index);
    if (block === undefined || delta === undefined) return;
    if (delta.type === 'text_delta' && block.kind === 'text' && delta.text !== undefined) {
      block.text += delta.text;
      if (delta.text !== '') this.#onDelta?.({ text: delta.text });
    } else if (delta.type === 'thinking_delta' && block.kind === 'thinking' && delta.thinking !== undefined) {
      block.text += delta.thinking;
      if (delta.thinking !== '') this.#onDelta?.({ reasoning: delta.thinking });
    } else if (delta.type === 'signature_delta' && block.kind === 'thinking' && delta.signature !== undefined) {
      block.signature += delta.signature;
    } else if (delta.type === 'input_json_delta' && block.kind === 'tool' && delta.partial_json !== undefined) {
      block.json += delta.partial_json;
    }
  }

  #mergeUsage(usage: z.infer<typeof usageSchema>): void {
    if (usage === undefined || usage === null) return;
    // message_delta repeats counters cumulatively: a later value replaces an earlier one.
    for (const [key, value] of Object.entries(usage)) if (typeof value === 'number') (this.#usage as Record<string, number>)[key] = value;
  }
}

/**
 * Usage in dsh's names. `inputTokens` counts every input token (Anthropic's `input_tokens` excludes
 * cache reads and writes, so they are added), like OpenAI's `prompt_tokens`.
 */
export function normalizeAnthropicUsage(usage: WireUsage): JsonObject | undefined {
  const read = usage.cache_read_input_tokens ?? undefined;
  const write = usage.cache_creation_input_tokens ?? undefined;
  const normalized: JsonObject = {};
  if (typeof usage.input_tokens === 'number') normalized.inputTokens = usage.input_tokens + (read ?? 0) + (write ?? 0);
  if (typeof usage.output_tokens === 'number') normalized.outputTokens = usage.output_tokens;
  if (typeof read === 'number') normalized.cacheReadTokens = read;
  if (typeof write === 'number') normalized.cacheWriteTokens = write;
  return Object.keys(normalized).length === 0 ? undefined : normalized;
}
