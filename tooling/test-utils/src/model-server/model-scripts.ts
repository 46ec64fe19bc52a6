/**
 * @module model-server/model-scripts
 * The model server's scripted mode: a handler that routes each model request by its path to the
 * script of its API and writes the reply on that API's wire.
 */
import { anthropicMessage } from './anthropic-wire.js';
import type { ModelServerReply, ModelServerRequest } from './model-server-types.js';
import type { ModelApi, ReplyScript } from './scripted-reply.js';
import { streamedReply } from './streamed-reply.js';

/** The scripts per API; an API without one answers `"ok"` text. */
export type ModelScripts = { [api in ModelApi]?: ReplyScript };

const okScript: ReplyScript = () => ({ text: 'ok' });

/**
 * A handler answering Anthropic Messages (streamed, or one JSON message when the request does not
 * ask for a stream), OpenAI Responses and Chat Completions (streamed) from `scripts`; any other
 * path answers 404 in Anthropic's error shape.
 */
export function scriptedHandler(scripts: ModelScripts): (request: ModelServerRequest, index: number) => ModelServerReply {
  const counts: Record<ModelApi, number> = { anthropic: 0, responses: 0, chat: 0 };
  return (request, index) => {
    const api = request.api;
    if (api !== 'anthropic' && api !== 'responses' && api !== 'chat') {
      const message = `fake model server: no route ${request.method} ${request.path}`;
      return { status: 404, json: { type: 'error', error: { type: 'not_found_error', message } } };
    }
    const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<string, unknown>;
    const model = typeof body.model === 'string' ? body.model : 'fake-model';
    const id = `fake_${String(index)}`;
    const reply = (scripts[api] ?? okScript)(body, counts[api]++);
    if (api === 'anthropic' && body.stream !== true) return { json: anthropicMessage(reply, model, id) };
    return streamedReply(api, reply, model, id);
  };
}
