/**
 * @module model-server/anthropic-wire
 * Anthropic Messages wire for the fake model server: the whole message a non-streaming request
 * gets, or the SSE frames of a streaming one (thinking, text and `tool_use` blocks).
 */
import { usageOf, type ScriptedReply } from './scripted-reply.js';

type Block =
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

function blocksOf(reply: ScriptedReply): Block[] {
  const blocks: Block[] = [];
  if (reply.reasoning !== undefined) blocks.push({ type: 'thinking', thinking: reply.reasoning, signature: reply.signature ?? 'sig' });
  if (reply.text !== undefined) blocks.push({ type: 'text', text: reply.text });
  for (const call of reply.toolCalls ?? []) blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.input });
  return blocks;
}

function usageFields(reply: ScriptedReply) {
  const usage = usageOf(reply);
  return { input_tokens: usage.input, output_tokens: usage.output, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
}

/** The whole message, as a non-streaming `POST /v1/messages` answers. */
export function anthropicMessage(reply: ScriptedReply, model = 'fake-model', id = 'msg_fake'): Record<string, unknown> {
  const content = blocksOf(reply);
  return {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: content.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: usageFields(reply),
  };
}

/** The same message as the SSE frames a streaming request receives, one string a frame. */
export function anthropicFrames(reply: ScriptedReply, model = 'fake-model', id = 'msg_fake'): string[] {
  const message = anthropicMessage(reply, model, id);
  const usage = usageFields(reply);
  const events: [string, unknown][] = [
    [
      'message_start',
      { type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } },
    ],
  ];
  blocksOf(reply).forEach((block, index) => {
    const delta = (value: object) => events.push(['content_block_delta', { type: 'content_block_delta', index, delta: value }]);
    if (block.type === 'thinking') {
      events.push([
        'content_block_start',
        { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } },
      ]);
      delta({ type: 'thinking_delta', thinking: block.thinking });
      delta({ type: 'signature_delta', signature: block.signature });
    } else if (block.type === 'text') {
      events.push(['content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }]);
      delta({ type: 'text_delta', text: block.text });
    } else {
      events.push(['content_block_start', { type: 'content_block_start', index, content_block: { ...block, input: {} } }]);
      delta({ type: 'input_json_delta', partial_json: JSON.stringify(block.input) });
    }
    events.push(['content_block_stop', { type: 'content_block_stop', index }]);
  });
  events.push([
    'message_delta',
    {
      type: 'message_delta',
      delta: { stop_reason: message.stop_reason, stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
    },
  ]);
  events.push(['message_stop', { type: 'message_stop' }]);
  return events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}
