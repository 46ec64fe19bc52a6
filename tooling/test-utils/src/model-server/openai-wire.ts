/**
 * @module model-server/openai-wire
 * OpenAI wires for the fake model server: the Responses SSE frames (Codex) and the Chat Completions
 * SSE frames (pi, dsh's OpenAI-compatible adapter), one string a frame, plus the single
 * `chat.completion.chunk` line a test uses to cut its own stream.
 */
import { usageOf, type ScriptedReply } from './scripted-reply.js';

/** The SSE frames of one `POST /v1/responses` answer: output items (reasoning, message, calls), then `response.completed`. */
export function responsesFrames(reply: ScriptedReply, model = 'fake-model', id = 'resp_fake'): string[] {
  const output: Record<string, unknown>[] = [];
  if (reply.reasoning !== undefined) {
    output.push({ type: 'reasoning', id: `rs_${id}`, summary: [{ type: 'summary_text', text: reply.reasoning }] });
  }
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
    if (item.type === 'reasoning' && reply.reasoning !== undefined) {
      events.push({
        type: 'response.reasoning_summary_text.delta',
        output_index: outputIndex,
        summary_index: 0,
        item_id: item.id,
        delta: reply.reasoning,
      });
    }
    if (item.type === 'message' && reply.text !== undefined) {
      events.push({ type: 'response.output_text.delta', output_index: outputIndex, content_index: 0, item_id: item.id, delta: reply.text });
    }
    events.push({ type: 'response.output_item.done', output_index: outputIndex, item });
  });
  const usage = usageOf(reply);
  events.push({
    type: 'response.completed',
    response: {
      ...response,
      status: 'completed',
      output,
      usage: {
        input_tokens: usage.input,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: usage.output,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: usage.input + usage.output,
      },
    },
  });
  return events.map((event, index) => `event: ${String(event.type)}\ndata: ${JSON.stringify({ ...event, sequence_number: index })}\n\n`);
}

/** One `data: {chat.completion.chunk}` line carrying `delta` (and `finish_reason`). */
export function chatCompletionChunk(delta: object, finish: string | null = null, model = 'm', id = 'chatcmpl-1'): string {
  return `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
}

/**
 * The SSE frames of one `POST /v1/chat/completions` answer: the assistant role, reasoning as
 * `reasoning_content`, text, tool calls, the finish reason, a usage chunk and `[DONE]`.
 */
export function chatFrames(reply: ScriptedReply, model = 'fake-model', id = 'chatcmpl-fake'): string[] {
  const calls = reply.toolCalls ?? [];
  const frames = [chatCompletionChunk({ role: 'assistant', content: '' }, null, model, id)];
  if (reply.reasoning !== undefined)
    frames.push(chatCompletionChunk({ content: null, reasoning_content: reply.reasoning }, null, model, id));
  if (reply.text !== undefined) frames.push(chatCompletionChunk({ content: reply.text }, null, model, id));
  calls.forEach((call, index) => {
    const toolCall = { index, id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.input) } };
    frames.push(chatCompletionChunk({ tool_calls: [toolCall] }, null, model, id));
  });
  frames.push(chatCompletionChunk({}, calls.length > 0 ? 'tool_calls' : 'stop', model, id));
  const usage = usageOf(reply);
  const usageChunk = {
    id,
    object: 'chat.completion.chunk',
    created: 1,
    model,
    choices: [],
    usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
  };
  frames.push(`data: ${JSON.stringify(usageChunk)}\n\n`, 'data: [DONE]\n\n');
  return frames;
}
