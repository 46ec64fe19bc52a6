/**
 * @module models/__fixtures__/wire-fixtures
 * Wire-format helpers for adapter tests: the recorded streams beside this file, builders that
 * write further streams in the providers' exact framing, and the pairing rules strict providers
 * enforce on requests (checked by the local servers so a bad history fails like it would live).
 */
import { readFileSync } from 'node:fs';

/** A stream recorded in the provider's wire format, byte for byte (`*.sse` beside this file). */
export function readWireFixture(name: string): string {
  return readFileSync(new URL(`./${name}`, import.meta.url), 'utf8');
}

type Call = { id: string; name: string; arguments: string };

/** A Chat Completions stream (`chat.completion.chunk` frames, usage chunk, `[DONE]`) as OpenAI frames it. */
export function openAIStream(options: { id: string; text?: string; reasoning?: string; toolCalls?: Call[] }): string {
  const head = {
    id: options.id,
    object: 'chat.completion.chunk',
    created: 1764549200,
    model: 'local-model',
    system_fingerprint: 'fp_local',
  };
  const frame = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({ ...head, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], usage: null })}\n\n`;
  let out = frame({ role: 'assistant', content: '' });
  if (options.reasoning !== undefined) out += frame({ content: null, reasoning_content: options.reasoning });
  if (options.text !== undefined) for (const word of options.text.split(/(?<= )/)) out += frame({ content: word });
  (options.toolCalls ?? []).forEach((call, index) => {
    out += frame({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] });
    const half = Math.floor(call.arguments.length / 2);
    out += frame({ tool_calls: [{ index, function: { arguments: call.arguments.slice(0, half) } }] });
    out += frame({ tool_calls: [{ index, function: { arguments: call.arguments.slice(half) } }] });
  });
  out += frame({}, (options.toolCalls ?? []).length > 0 ? 'tool_calls' : 'stop');
  out += `data: ${JSON.stringify({ ...head, choices: [], usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 } })}\n\n`;
  return `${out}data: [DONE]\n\n`;
}

type WireMessage = { role?: string; content?: unknown; tool_calls?: { id?: string }[]; tool_call_id?: string };

/**
 * What OpenAI refuses with a 400: an assistant message with `tool_calls` not followed by one
 * `tool` message per call id, or a `tool` message that answers no call of the assistant message
 * right before it. Returns the refusal message, or undefined for a valid request.
 */
export function openAIPairingViolation(body: unknown): string | undefined {
  const messages = (body as { messages?: WireMessage[] }).messages ?? [];
  for (let index = 0; index < messages.length; index += 1) {
    const message = messages[index] as WireMessage;
    if (message.role === 'tool') {
      return `Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls' (messages.[${index}])`;
    }
    if (message.role !== 'assistant' || message.tool_calls === undefined) continue;
    const ids = message.tool_calls.map((call) => call.id ?? '');
    if (new Set(ids).size !== ids.length) return `messages.[${index}].tool_calls: duplicate tool call id`;
    const answered: string[] = [];
    while (messages[index + 1]?.role === 'tool') {
      index += 1;
      const id = (messages[index] as WireMessage).tool_call_id ?? '';
      if (!ids.includes(id) || answered.includes(id)) {
        return `Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls' (messages.[${index}])`;
      }
      answered.push(id);
    }
    const missing = ids.filter((id) => !answered.includes(id));
    if (missing.length > 0) {
      return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${missing.join(', ')}`;
    }
  }
  return undefined;
}

/** A Messages API stream as Anthropic frames it: thinking (signed), text and `tool_use` blocks, then `message_stop`. */
export function anthropicStream(options: {
  id: string;
  thinking?: { text: string; signature: string };
  text?: string;
  toolCalls?: { id: string; name: string; input: string }[];
}): string {
  const event = (name: string, data: object) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
  let out = event('message_start', {
    type: 'message_start',
    message: {
      model: 'claude-local',
      id: options.id,
      type: 'message',
      role: 'assistant',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 50, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 },
    },
  });
  let index = 0;
  if (options.thinking !== undefined) {
    out += event('content_block_start', {
      type: 'content_block_start',
      index,
      content_block: { type: 'thinking', thinking: '', signature: '' },
    });
    out += event('content_block_delta', {
      type: 'content_block_delta',
      index,
      delta: { type: 'thinking_delta', thinking: options.thinking.text },
    });
    out += event('content_block_delta', {
      type: 'content_block_delta',
      index,
      delta: { type: 'signature_delta', signature: options.thinking.signature },
    });
    out += event('content_block_stop', { type: 'content_block_stop', index });
    index += 1;
  }
  if (options.text !== undefined) {
    out += event('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
    out += event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: options.text } });
    out += event('content_block_stop', { type: 'content_block_stop', index });
    index += 1;
  }
  for (const call of options.toolCalls ?? []) {
    out += event('content_block_start', {
      type: 'content_block_start',
      index,
      content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
    });
    out += event('content_block_delta', {
      type: 'content_block_delta',
      index,
      delta: { type: 'input_json_delta', partial_json: call.input },
    });
    out += event('content_block_stop', { type: 'content_block_stop', index });
    index += 1;
  }
  const stop = (options.toolCalls ?? []).length > 0 ? 'tool_use' : 'end_turn';
  out += event('message_delta', { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 20 } });
  return out + event('message_stop', { type: 'message_stop' });
}

type AnthropicBlock = { type?: string; id?: string; tool_use_id?: string; signature?: string };
type AnthropicMessage = { role?: string; content?: string | AnthropicBlock[] };

/**
 * What the Messages API refuses with a 400: roles that do not alternate (starting with `user`),
 * `tool_use` ids repeated anywhere in the request or not matching `^[a-zA-Z0-9_-]+$`, a
 * `tool_use` without a `tool_result` at the start of the next user message, a `tool_result`
 * that answers nothing in the assistant message before it, and thinking blocks without signature.
 */
export function anthropicPairingViolation(body: unknown): string | undefined {
  const messages = (body as { messages?: AnthropicMessage[] }).messages ?? [];
  const seen = new Set<string>();
  for (let index = 0; index < messages.length; index += 1) {
    const message = messages[index] as AnthropicMessage;
    const expected = index % 2 === 0 ? 'user' : 'assistant';
    if (message.role !== expected) return `messages.${index}: roles must alternate between "user" and "assistant", starting with "user"`;
    const blocks = typeof message.content === 'string' ? [] : (message.content ?? []);
    if (typeof message.content !== 'string' && blocks.length === 0) return `messages.${index}: all messages must have non-empty content`;
    const previous = messages[index - 1];
    const calls = (typeof previous?.content === 'string' ? [] : (previous?.content ?? []))
      .filter((block) => block.type === 'tool_use')
      .map((block) => block.id);
    if (message.role === 'user') {
      const results = blocks.filter((block) => block.type === 'tool_result').map((block) => block.tool_use_id);
      for (const result of results) {
        if (!calls.includes(result))
          return `messages.${index}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(result)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
      }
      const missing = calls.filter((id) => !results.includes(id));
      if (missing.length > 0) {
        return `messages.${index}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
      }
    } else {
      for (const block of blocks) {
        if (block.type === 'tool_use') {
          const id = block.id ?? '';
          if (!/^[a-zA-Z0-9_-]+$/.test(id)) return `messages.${index}.content: tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'`;
          if (seen.has(id)) return `messages.${index}.content: \`tool_use\` ids must be unique`;
          seen.add(id);
        }
        if (block.type === 'thinking' && (block.signature ?? '') === '')
          return `messages.${index}.content: thinking.signature: Field required`;
      }
    }
  }
  const last = messages[messages.length - 1];
  if (last !== undefined && last.role !== 'user') return 'the final message must be a user message';
  return undefined;
}

/**
 * What DeepSeek's thinking mode refuses with a 400: an assistant message declaring a tool call the
 * server issued together with reasoning, sent back without that `reasoning_content` verbatim.
 * `issued` maps each call id the server produced to the reasoning it produced with it.
 */
export function deepSeekReasoningViolation(body: unknown, issued: ReadonlyMap<string, string>): string | undefined {
  const messages = (body as { messages?: (WireMessage & { reasoning_content?: unknown })[] }).messages ?? [];
  for (const [index, message] of messages.entries()) {
    if (message.role !== 'assistant') continue;
    for (const call of message.tool_calls ?? []) {
      const reasoning = issued.get(call.id ?? '');
      if (reasoning !== undefined && message.reasoning_content !== reasoning) {
        return `The reasoning_content in the thinking mode must be passed back to the API. (messages[${index}])`;
      }
    }
  }
  return undefined;
}

/**
 * What the Messages API refuses when thinking blocks come back changed: a `thinking` block whose
 * text and signature are not a pair the server issued, or a `redacted_thinking` whose data it did
 * not issue; and, while a tool-use cycle is in progress (the last message holds only tool
 * results), an assistant message answering the server's own signed turn without its thinking first.
 */
export function anthropicThinkingViolation(
  body: unknown,
  issued: { signatures: ReadonlyMap<string, string>; redacted: ReadonlySet<string>; byToolUse: ReadonlyMap<string, string> },
): string | undefined {
  type Block = { type?: string; thinking?: string; signature?: string; data?: string; id?: string };
  const messages = (body as { messages?: { role?: string; content?: string | Block[] }[] }).messages ?? [];
  for (const [index, message] of messages.entries()) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const block of message.content ?? []) {
      if (block.type === 'thinking' && issued.signatures.get(block.signature ?? '') !== block.thinking) {
        return `messages.${index}.content: Invalid \`signature\` in \`thinking\` block`;
      }
      if (block.type === 'redacted_thinking' && !issued.redacted.has(block.data ?? '')) {
        return `messages.${index}.content: Invalid \`data\` in \`redacted_thinking\` block`;
      }
    }
  }
  const last = messages[messages.length - 1];
  const inToolCycle =
    Array.isArray(last?.content) && last.content.length > 0 && last.content.every((block) => block.type === 'tool_result');
  const assistant = messages[messages.length - 2];
  if (inToolCycle && Array.isArray(assistant?.content)) {
    const toolUse = assistant.content.find((block) => block.type === 'tool_use' && issued.byToolUse.has(block.id ?? ''));
    const first = assistant.content[0];
    const signature = toolUse === undefined ? undefined : issued.byToolUse.get(toolUse.id ?? '');
    if (signature !== undefined && (first?.type !== 'thinking' || first.signature !== signature)) {
      return `messages.${messages.length - 2}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${String(first?.type)}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block.`;
    }
  }
  return undefined;
}

/**
 * What a strict replay server has handed out, read back from the streams it sent: DeepSeek
 * `reasoning_content` per tool call id, Anthropic thinking text per signature, redacted data, and
 * the signature of the thinking that opened the message declaring each `tool_use` id.
 */
export class IssuedReasoning {
  readonly deepSeek = new Map<string, string>();
  readonly signatures = new Map<string, string>();
  readonly redacted = new Set<string>();
  readonly byToolUse = new Map<string, string>();

  /** Records one stream (either provider's framing); returns it unchanged, for `chunks`. */
  record(stream: string): string {
    let reasoning = '';
    const thinking = new Map<number, { text: string; signature: string }>();
    let firstSignature: string | undefined;
    for (const line of stream.split('\n')) {
      if (!line.startsWith('data: ') || line.includes('[DONE]')) continue;
      const data = JSON.parse(line.slice(6)) as { choices?: { delta?: { reasoning_content?: string; tool_calls?: { id?: string }[] } }[] };
      for (const choice of data.choices ?? []) {
        reasoning += choice.delta?.reasoning_content ?? '';
        for (const call of choice.delta?.tool_calls ?? []) if (call.id !== undefined) this.deepSeek.set(call.id, reasoning);
      }
      const event = data as {
        type?: string;
        index?: number;
        content_block?: { type?: string; data?: string; id?: string };
        delta?: { type?: string; thinking?: string; signature?: string };
      };
      const index = event.index ?? -1;
      if (event.type === 'content_block_start' && event.content_block?.type === 'thinking')
        thinking.set(index, { text: '', signature: '' });
      if (event.type === 'content_block_start' && event.content_block?.type === 'redacted_thinking')
        this.redacted.add(event.content_block.data ?? '');
      const block = thinking.get(index);
      if (block !== undefined && event.delta?.type === 'thinking_delta') block.text += event.delta.thinking ?? '';
      if (block !== undefined && event.delta?.type === 'signature_delta') {
        block.signature += event.delta.signature ?? '';
        this.signatures.set(block.signature, block.text);
        firstSignature ??= block.signature;
      }
      if (event.type === 'content_block_start' && event.content_block?.type === 'tool_use' && firstSignature !== undefined) {
        this.byToolUse.set(event.content_block.id ?? '', firstSignature);
      }
    }
    return stream;
  }
}
