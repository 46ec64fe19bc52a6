import { AgentError } from '../agent-error.js';
import type { Model, ModelRequest, ModelResponse } from '../model.js';
import { fromWireResponse, toWireMessages, toWireTools } from './openai-wire.js';

/** Options of `createOpenAIModel`; `env` defaults to `process.env`. */
export type OpenAIModelOptions = {
  /** The model name sent as `model`, e.g. `gpt-4o-mini`. */
  model: string;
  /** Defaults to `OPENAI_BASE_URL`, else `https://api.openai.com/v1`. */
  baseUrl?: string;
  /** Defaults to `OPENAI_API_KEY`; no `Authorization` header is sent without one. */
  apiKey?: string;
  env?: Readonly<Record<string, string | undefined>>;
  fetch?: typeof globalThis.fetch;
  /** Gives up on one request after this many milliseconds (`MODEL_TIMEOUT`); default 300 000. */
  timeoutMs?: number;
};

const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
const DEFAULT_TIMEOUT_MS = 300_000;

/**
 * A model speaking OpenAI-compatible Chat Completions over HTTP (`POST {baseUrl}/chat/completions`).
 * Failures reject with `MODEL_HTTP_ERROR` (status and the endpoint's message), `MODEL_UNREACHABLE`
 * or `MODEL_BAD_RESPONSE`; `request.signal` aborts the HTTP request.
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
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  return {
    name: `openai:${options.model}`,
    async complete(request: ModelRequest): Promise<ModelResponse> {
      const body = {
        model: options.model,
        messages: toWireMessages(request.system, request.messages),
        ...toWireTools(request.tools),
      };
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (apiKey !== undefined) headers.authorization = `Bearer ${apiKey}`;
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = request.signal === undefined ? timeout : AbortSignal.any([request.signal, timeout]);
      // A cancellation is rethrown as is (the loop records `cancelled`); a timeout is a model failure.
      const failed = (cause: unknown, what: string): Error => {
        if (request.signal?.aborted === true) return cause instanceof Error ? cause : new Error(String(cause));
        if (timeout.aborted) {
          return new AgentError('MODEL_TIMEOUT', `openai: ${url} did not answer within ${timeoutMs} ms`, { cause });
        }
        return new AgentError('MODEL_UNREACHABLE', `openai: ${what} ${url}: ${messageOf(cause)}`, { cause });
      };
      let response: Response;
      let text: string;
      try {
        response = await doFetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal });
      } catch (cause) {
        throw failed(cause, 'cannot reach');
      }
      try {
        text = await response.text();
      } catch (cause) {
        throw failed(cause, 'the response broke off from');
      }
      if (!response.ok) {
        throw new AgentError(
          'MODEL_HTTP_ERROR',
          `openai: ${url} answered ${response.status}: ${providerMessage(text)}`,
          { status: response.status },
        );
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (cause) {
        throw new AgentError('MODEL_BAD_RESPONSE', `openai: expected a JSON body from ${url}, received ${clip(text)}`, {
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
      if (result.response.text !== '') request.onDelta?.({ text: result.response.text });
      return result.response;
    },
  };
}

/** The endpoint's `error.message` when the body carries one, else the body itself (clipped). */
function providerMessage(text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } | string };
    const error = parsed.error;
    if (typeof error === 'string') return error;
    if (typeof error?.message === 'string') return error.message;
  } catch {
    // not JSON: fall through to the raw text
  }
  return clip(text);
}

function clip(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') return 'an empty body';
  return trimmed.length > 200 ? `${trimmed.slice(0, 200)}…` : trimmed;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
