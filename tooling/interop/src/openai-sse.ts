/** OpenAI wires for the fake model server: Responses SSE (Codex) and Chat Completions SSE (pi). */
import type { ScriptedReply } from './scripted-reply.js';

/** The SSE stream of one `POST /v1/responses` answer: output items, then `response.completed`. */
export function responsesStream(reply: ScriptedReply, model: string, id: string): string {
  const output: Record<string, unknown>[] = [];
  if (reply.text !== undefined) {
    output.push({
      type: 'message',
      id: `msg_${id}`,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: reply.text, annotations: [] }],
    });
  }
  for (const call of reply.toolCalls ?? []) {
    output.push({
      type: 'function_call',
      id: `fc_${call.id}`,
      call_id: call.id,
      name: call.name,
      arguments: JSON.stringify(call.input),
      status: 'completed',
    });
  }
  const response = { id, object: 'response', created_at: 0, model, status: 'in_progress', output: [] as unknown[] };
  const events: Record<string, unknown>[] = [{ type: 'response.created', response }];
  output.forEach((item, outputIndex) => {
    events.push({ type: 'response.output_item.added', output_index: outputIndex, item });
    if (item.type === 'message' && reply.text !== undefined) {
      events.push({ type: 'response.output_text.delta', output_index: outputIndex, content_index: 0, item_id: item.id, delta: reply.text });
    }
    events.push({ type: 'response.output_item.done', output_index: outputIndex, item });
  });
  events.push({
    type: 'response.completed',
    response: {
      ...response,
      status: 'completed',
      output,
      usage: {
        input_tokens: 10,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 5,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 15,
      },
    },
  });
  return events
    .map((event, index) => `event: ${String(event.type)}\ndata: ${JSON.stringify({ ...event, sequence_number: index })}\n\n`)
    .join('');
}

/** The SSE stream of one `POST /v1/chat/completions` answer, ending in a usage chunk and `[DONE]`. */
export function chatStream(reply: ScriptedReply, model: string, id: string): string {
  const chunk = (delta: Record<string, unknown>, finish: string | null) => ({
    id,
    object: 'chat.completion.chunk',
    created: 0,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const chunks: unknown[] = [chunk({ role: 'assistant', content: '' }, null)];
  if (reply.text !== undefined) chunks.push(chunk({ content: reply.text }, null));
  (reply.toolCalls ?? []).forEach((call, index) => {
    chunks.push(
      chunk(
        { tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.input) } }] },
        null,
      ),
    );
  });
  chunks.push(chunk({}, (reply.toolCalls ?? []).length > 0 ? 'tool_calls' : 'stop'));
  chunks.push({
    id,
    object: 'chat.completion.chunk',
    created: 0,
    model,
    choices: [],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  });
  return chunks.map((value) => `data: ${JSON.stringify(value)}\n\n`).join('') + 'data: [DONE]\n\n';
}
