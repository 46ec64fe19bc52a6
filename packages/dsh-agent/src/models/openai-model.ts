/**
 * @module models/openai-model
 * The OpenAI-compatible Chat Completions adapter (`createOpenAIModel`): request body, streamed or
 * whole response, DeepSeek reasoning, retries and time bounds.
 */
import { AgentError } from '../agent-error.js';
import type { Model, ModelDelta, ModelRequest, ModelResponse } from '../model.js';
import { ChatStreamAssembler } from './chat-stream-assembler.js';
import { fromWireResponse, toWireMessages, toWireTools } from './openai-wire.js';
import { clip, nonEmpty, postWithRetries, type ModelHttpBody } from './post-model-request.js';
import { readServerSentEvents } from './read-server-sent-events.js';
import { maxAttemptsFromEnv, modelTimeouts, type ModelTimeoutOptions } from './model-timeouts.js';
import type { RetryOptions } from './with-retries.js';

/** Options of `createOpenAIModel`; `env` defaults to `process.env`. */
export type OpenAIModelOptions = ModelTimeoutOptions & {
  /** The model name sent as `model`, e.g. `gpt-4o-mini`. */
  model: string;
  /** Defaults to `OPENAI_BASE_URL`, else `https://api.openai.com/v1`. */
  baseUrl?: string;
  /** Defaults to `OPENAI_API_KEY`; no `Authorization` header is sent without one. */
  apiKey?: string;
  env?: Readonly<Record<string, string | undefined>>;
  fetch?: typeof globalThis.fetch;
  /** Stream the response (default true); false sends one plain request, for endpoints without SSE. */
  stream?: boolean;
  /** Retries of transient failures (see `RetryOptions`). */
  retry?: RetryOptions;
  /** Extra fields merged into every request body (e.g. `{ temperature: 0 }` or a provider's `thinking` switch). */
  extraBody?: Record<string, unknown>;
};

const DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/**
 * A model speaking OpenAI-compatible Chat Completions over HTTP (`POST {baseUrl}/chat/completions`),
 * streamed by default. Transient failures are retried (`retry`); the last failure rejects with
 * `MODEL_HTTP_ERROR` (status and the endpoint's message), `MODEL_UNREACHABLE`, `MODEL_TIMEOUT`,
 * `MODEL_STREAM_ERROR` or `MODEL_BAD_RESPONSE`; `request.signal` aborts at once.
 */
export function createOpenAIModel(options: OpenAIModelOptions): Model {
  const env = options.env ?? process.env;
  const configuredBase = options.baseUrl ?? nonEmpty(env.OPENAI_BASE_URL);
  const apiKey = options.apiKey ?? nonEmpty(env.OPENAI_API_KEY);
  if (options.model === '') throw new AgentError('MODEL_CONFIG', 'openai: expected a model name, received ""');
  if (configuredBase === undefined && apiKey === undefined) {
    throw new AgentError(
      'MODEL_CONFIG',
      'openai: OPENAI_API_KEY is not set (set it, or set OPENAI_BASE_URL for an endpoint that needs no key)',
    );
  }
  const url = `${(configuredBase ?? DEFAULT_BASE_URL).replace(/\/+$/, '')}/chat/completions`;
  const doFetch = options.fetch ?? globalThis.fetch;
  const stream = options.stream ?? true;
  const timeouts = modelTimeouts(options, env, 'openai', stream);
  const retry = { ...maxAttemptsFromEnv(env, 'openai'), ...options.retry };
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (apiKey !== undefined) headers.authorization = `Bearer ${apiKey}`;
  if (stream) headers.accept = 'text/event-stream';

  return {
    name: `openai:${options.model}`,
    complete(request: ModelRequest): Promise<ModelResponse> {
      const body = {
        ...options.extraBody,
        model: options.model,
        messages: toWireMessages(request.system, request.messages),
        ...toWireTools(request.tools),
        ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
      };
      return postWithRetries({ label: 'openai', url, headers, body, fetch: doFetch, timeouts }, request, retry, (http, onDelta) =>
        readResponse(http, url, onDelta),
      );
    },
  };
}

/** An event stream is assembled chunk by chunk; a JSON body (a server that ignores `stream`) is read whole. */
async function readResponse(http: ModelHttpBody, url: string, onDelta: (delta: ModelDelta) => void): Promise<ModelResponse> {
  const type = http.response.headers.get('content-type') ?? '';
  if (type.includes('text/event-stream')) {
    const assembler = new ChatStreamAssembler('openai', onDelta);
    await readServerSentEvents(http, (event) => assembler.accept(event.data));
    return assembler.finish(url);
  }
  const text = await http.response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new AgentError('MODEL_BAD_RESPONSE', `openai: expected a JSON body or an event stream from ${url}, received ${clip(text)}`, {
      cause,
    });
  }
  const result = fromWireResponse(json);
  if ('issue' in result) {
    throw new AgentError(
      'MODEL_BAD_RESPONSE',
      `openai: expected a Chat Completions response from ${url} (${result.issue}), received ${clip(text)}`,
    );
  }
  for (const reasoning of result.response.reasoning ?? []) if (reasoning.text !== '') onDelta({ reasoning: reasoning.text });
  if (result.response.text !== '') onDelta({ text: result.response.text });
  return result.response;
}
