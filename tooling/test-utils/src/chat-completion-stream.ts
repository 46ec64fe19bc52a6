/**
 * @module chat-completion-stream
 * The SSE lines of an OpenAI-compatible streaming answer, for `startModelServer` handlers: one
 * `chat.completion.chunk` line, and a whole answer saying a text.
 */

/** One `data: {chat.completion.chunk}` line carrying `delta` (and `finish_reason`). */
export function chatCompletionChunk(delta: object, finish: string | null = null): string {
  return `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
}

/** A streamed answer saying `text` (an empty assistant chunk, the text, `stop`, `[DONE]`), as a model server reply. */
export function chatCompletionStream(text: string): { chunks: string[] } {
  return {
    chunks: [
      chatCompletionChunk({ role: 'assistant', content: '' }),
      chatCompletionChunk({ content: text }),
      chatCompletionChunk({}, 'stop'),
      'data: [DONE]\n\n',
    ],
  };
}
