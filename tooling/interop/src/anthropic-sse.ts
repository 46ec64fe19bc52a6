/** Anthropic Messages wire for the fake model server: a JSON message or its SSE event stream. */
import type { ScriptedReply } from './scripted-reply.js';

type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

function blocksOf(reply: ScriptedReply): Block[] {
  const blocks: Block[] = [];
  if (reply.text !== undefined) blocks.push({ type: 'text', text: reply.text });
  for (const call of reply.toolCalls ?? []) blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.input });
  return blocks;
}

const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

/** The whole message, as a non-streaming `POST /v1/messages` answers. */
export function anthropicMessage(reply: ScriptedReply, model: string, id: string): Record<string, unknown> {
  const content = blocksOf(reply);
  return {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: content.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage,
  };
}

/** The same message as the SSE events a streaming request receives. */
export function anthropicStream(reply: ScriptedReply, model: string, id: string): string {
  const message = anthropicMessage(reply, model, id);
  const events: [string, unknown][] = [
    [
      'message_start',
      { type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } },
    ],
  ];
  blocksOf(reply).forEach((block, index) => {
    if (block.type === 'text') {
      events.push(['content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }]);
      events.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } }]);
    } else {
      events.push(['content_block_start', { type: 'content_block_start', index, content_block: { ...block, input: {} } }]);
      events.push([
        'content_block_delta',
        { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } },
      ]);
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
  return events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join('');
}
