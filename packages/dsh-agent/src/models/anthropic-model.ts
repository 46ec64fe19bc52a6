/**
 * @module models/anthropic-model
 * The Anthropic Messages API adapter (`createAnthropicModel`): request body, streamed or whole
 * response, thinking kept as reasoning, retries and time bounds shared with the OpenAI adapter.
 */
import { AgentError } from '../agent-error.js';
import type { Model, ModelDelta, ModelRequest, ModelResponse } from '../model.js';
import { AnthropicStreamAssembler } from './anthropic-stream-assembler.js';
import { toAnthropicMessages, toAnthropicTools } from './anthropic-wire.js';
import { clip, nonEmpty, postWithRetries, type ModelHttpBody } from './post-model-request.js';
import { readServerSentEvents } from './read-server-sent-events.js';
import { maxAttemptsFromEnv, modelTimeouts, type ModelTimeoutOptions } from './model-timeouts.js';
import type { RetryOptions } from './with-retries.js';

/** Options of `createAnthropicModel`; `env` defaults to `process.env`. */
export type AnthropicModelOptions = ModelTimeoutOptions & {
  /** The model name sent as `model`, e.g. `claude-sonnet-4-5`. */
  model: string;
  /** Defaults to `ANTHROPIC_BASE_URL`, else `https://api.anthropic.com` (the adapter adds `/v1/messages`). */
  baseUrl?: string;
  /** Defaults to `ANTHROPIC_API_KEY`, sent as `x-api-key`. */
  apiKey?: string;
  env?: Readonly<Record<string, string | undefined>>;
  fetch?: typeof globalThis.fetch;
  /** `max_tokens` of every request (default 8192). */
  maxTokens?: number;
  /** Extended thinking: the `budget_tokens` to allow (off when absent; must be below `maxTokens`). */
  thinkingBudget?: number;
  /** Retries of transient failures (see `RetryOptions`). */
  retry?: RetryOptions;
  /** Extra fields merged into every request body (e.g. `{ temperature: 0 }`). */
  extraBody?: Record<string, unknown>;
};

const DEFAULT_BASE_URL = 'https://api.anthropic.com';
const API_VERSION = '2023-06-01';

/**
 * A model speaking the Anthropic Messages API over HTTP (`POST {baseUrl}/v1/messages`), streamed:
 * text, `tool_use` calls, signed `thinking` and `redacted_thinking` (kept as reasoning with what the
 * API needs back in `providerData`), usage with cache tokens. Same failures and retries as
 * `createOpenAIModel`; an `error` event inside the stream is `MODEL_STREAM_ERROR`.
 */
export function createAnthropicModel(options: AnthropicModelOptions): Model {
  const env = options.env ?? process.env;
  const configuredBase = options.baseUrl ?? nonEmpty(env.ANTHROPIC_BASE_URL);
  const apiKey = options.apiKey ?? nonEmpty(env.ANTHROPIC_API_KEY);
  if (options.model === '') throw new AgentError('MODEL_CONFIG', 'anthropic: expected a model name, received ""');
  if (configuredBase === undefined && apiKey === undefined) {
    throw new AgentError(
      'MODEL_CONFIG',
      'anthropic: ANTHROPIC_API_KEY is not set (set it, or set ANTHROPIC_BASE_URL for an endpoint that needs no key)',
    );
  }
  const maxTokens = options.maxTokens ?? 8192;
  if (
    options.thinkingBudget !== undefined &&
    !(Number.isInteger(options.thinkingBudget) && options.thinkingBudget >= 1024 && options.thinkingBudget < maxTokens)
  ) {
    throw new AgentError(
      'MODEL_CONFIG',
      `anthropic: expected thinkingBudget to be an integer ≥ 1024 and below maxTokens (${maxTokens}), received ${String(options.thinkingBudget)}`,
    );
  }
  const url = `${(configuredBase ?? DEFAULT_BASE_URL).replace(/\/+$/, '').replace(/\/v1$/, '')}/v1/messages`;
  const doFetch = options.fetch ?? globalThis.fetch;
  const timeouts = modelTimeouts(options, env, 'anthropic', true);
  const retry = { ...maxAttemptsFromEnv(env, 'anthropic'), ...options.retry };
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'text/event-stream',
    'anthropic-version': API_VERSION,
  };
  if (apiKey !== undefined) headers['x-api-key'] = apiKey;

  return {
    name: `anthropic:${options.model}`,
    complete(request: ModelRequest): Promise<ModelResponse> {
      const body = {
        ...options.extraBody,
        model: options.model,
        max_tokens: maxTokens,
        ...(request.system === undefined || request.system === '' ? {} : { system: request.system }),
        messages: toAnthropicMessages(request.messages),
        ...toAnthropicTools(request.tools),
        ...(options.thinkingBudget === undefined ? {} : { thinking: { type: 'enabled', budget_tokens: options.thinkingBudget } }),
        stream: true,
      };
      return postWithRetries({ label: 'anthropic', url, headers, body, fetch: doFetch, timeouts }, request, retry, (http, onDelta) =>
        readResponse(http, url, onDelta),
      );
    },
  };
}

async function readResponse(http: ModelHttpBody, url: string, onDelta: (delta: ModelDelta) => void): Promise<ModelResponse> {
  const type = http.response.headers.get('content-type') ?? '';
  if (!type.includes('text/event-stream')) {
    const text = await http.response.text();
    throw new AgentError(
      'MODEL_BAD_RESPONSE',
      `anthropic: expected an event stream from ${url}, received ${type || 'no content type'}: ${clip(text)}`,
    );
  }
  const assembler = new AnthropicStreamAssembler(onDelta);
  await readServerSentEvents(http, (event) => assembler.accept(event.data));
  return assembler.finish(url);
}
