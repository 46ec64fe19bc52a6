/**
 * @module model-server/streamed-reply
 * A scripted reply as the model server writes it on one API's wire: its SSE frames, each in its
 * own write, for a handler that answers one exchange by hand.
 */
import { anthropicFrames } from './anthropic-wire.js';
import { chatFrames, responsesFrames } from './openai-wire.js';
import type { ModelApi, ScriptedReply } from './scripted-reply.js';

/** The streamed answer `reply` on `api`'s wire (`model` and `id` name it in the frames), as a model server reply. */
export function streamedReply(api: ModelApi, reply: ScriptedReply, model?: string, id?: string): { chunks: string[] } {
  if (api === 'anthropic') return { chunks: anthropicFrames(reply, model, id) };
  if (api === 'responses') return { chunks: responsesFrames(reply, model, id) };
  return { chunks: chatFrames(reply, model, id) };
}
