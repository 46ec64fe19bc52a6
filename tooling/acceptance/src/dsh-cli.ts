/**
 * The OpenAI-compatible and Anthropic stream replies the CLI sections' fake model servers
 * (`startModelServer`, 127.0.0.1) answer with; the CLI itself runs through `@dsh/test-utils`'s `runDsh`.
 */
/** One OpenAI Chat Completions stream answering `text` (and `usage` when given). */
export function openAiAnswer(text: string, usage?: object): { chunks: string[] } {
  const chunk = (body: object) =>
    `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', ...body })}\n\n`;
  return {
    chunks: [
      chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: text }, finish_reason: null }] }),
      chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
      ...(usage === undefined ? [] : [chunk({ choices: [], usage })]),
      'data: [DONE]\n\n',
    ],
  };
}

/** One Anthropic Messages stream answering `text`. */
export function anthropicAnswer(text: string): { chunks: string[] } {
  const event = (name: string, body: object) => `event: ${name}\ndata: ${JSON.stringify({ type: name, ...body })}\n\n`;
  return {
    chunks: [
      event('message_start', {
        message: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'claude-test',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 5, output_tokens: 1 },
        },
      }),
      event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
      event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }),
      event('content_block_stop', { index: 0 }),
      event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 2 } }),
      event('message_stop', {}),
    ],
  };
}
