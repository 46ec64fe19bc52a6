/**
 * @module models/post-model-request
 * One HTTP attempt of a model adapter: POST a JSON body, map every failure to an `AgentError`
 * (`MODEL_HTTP_ERROR` with the provider's message, `MODEL_UNREACHABLE`, `MODEL_TIMEOUT`), and let
 * the caller read the body while timers bound the silence between chunks, the wait for the headers,
 * the whole attempt and what is left of the request's total time.
 */
import { AgentError } from '../agent-error.js';
import type { ModelDelta, ModelRequest, ModelResponse } from '../model.js';
import { seconds, type ModelTimeouts } from './model-timeouts.js';
import { parseRetryAfter, withRetries, type RetryOptions } from './with-retries.js';

/** Everything one attempt needs; `label` (`openai`, `anthropic`) starts every error message. */
export type ModelHttpRequest = {
  label: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  fetch: typeof globalThis.fetch;
  /** The bounds of the request (see `ModelTimeouts`). */
  timeouts: ModelTimeouts;
  /** When the request's total time runs out (epoch ms); the attempt ends there at the latest. */
  deadline?: number;
  signal?: AbortSignal | undefined;
};

/** Handed to the body reader: `touch()` after each chunk restarts the idle timer. */
export type ModelHttpBody = { response: Response; signal: AbortSignal; touch: () => void };

type Expiry = 'idle' | 'headers' | 'attempt' | 'total';

function expiryMessage(request: ModelHttpRequest, expiry: Expiry): string {
  const { label, url, timeouts } = request;
  switch (expiry) {
    case 'idle':
      return `${label}: ${url} sent nothing for ${seconds(timeouts.idleMs)}`;
    case 'headers':
      return `${label}: ${url} sent no response within ${seconds(timeouts.headersMs)} (no response headers)`;
    case 'attempt':
      return `${label}: ${url} did not finish its response within ${seconds(timeouts.attemptMs)}`;
    case 'total':
      return `${label}: ${url} did not answer within the request's total time of ${seconds(timeouts.totalMs)}`;
  }
}

/**
 * Sends the request and resolves with what `read` makes of the (2xx) response. A user abort is
 * rethrown as is (the loop records `cancelled`); an `AgentError` thrown by `read` passes through.
 */
export async function postModelRequest<T>(request: ModelHttpRequest, read: (body: ModelHttpBody) => Promise<T>): Promise<T> {
  const { label, url, timeouts } = request;
  const expired = new AbortController();
  let expiry: Expiry | undefined;
  const expire = (why: Expiry) => () => {
    expiry ??= why;
    expired.abort(new Error(expiryMessage(request, why)));
  };
  const left = request.deadline === undefined ? Infinity : request.deadline - Date.now();
  // The attempt's bound, or the total's when less is left of it.
  const attemptTimer = setTimeout(
    left < timeouts.attemptMs ? expire('total') : expire('attempt'),
    Math.max(0, Math.min(left, timeouts.attemptMs)),
  );
  let headersTimer: NodeJS.Timeout | undefined = setTimeout(expire('headers'), timeouts.headersMs);
  let idleTimer: NodeJS.Timeout | undefined;
  const touch = () => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(expire('idle'), timeouts.idleMs);
  };
  const signal = request.signal === undefined ? expired.signal : AbortSignal.any([request.signal, expired.signal]);
  const failed = (cause: unknown, what: string): Error => {
    if (request.signal?.aborted === true) return cause instanceof Error ? cause : new Error(String(cause));
    if (expiry !== undefined) return new AgentError('MODEL_TIMEOUT', expiryMessage(request, expiry), { cause });
    if (AgentError.is(cause)) return cause;
    return new AgentError('MODEL_UNREACHABLE', `${label}: ${what} ${url}: ${messageOf(cause)}`, { cause });
  };
  if (left <= 0) expire('total')();
  touch();
  try {
    let response: Response;
    try {
      response = await request.fetch(url, { method: 'POST', headers: request.headers, body: JSON.stringify(request.body), signal });
    } catch (cause) {
      throw failed(cause, 'cannot reach');
    }
    clearTimeout(headersTimer);
    headersTimer = undefined;
    touch();
    if (!response.ok) {
      let text = '';
      try {
        text = await response.text();
      } catch (cause) {
        throw failed(cause, 'the error response broke off from');
      }
      const retryAfterMs = parseRetryAfter(response.headers);
      throw new AgentError('MODEL_HTTP_ERROR', `${label}: ${url} answered ${response.status}: ${providerMessage(text)}`, {
        status: response.status,
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      });
    }
    try {
      return await read({ response, signal, touch });
    } catch (cause) {
      throw failed(cause, 'the response broke off from');
    }
  } finally {
    clearTimeout(attemptTimer);
    clearTimeout(headersTimer);
    clearTimeout(idleTimer);
  }
}

/**
 * How many attempts may end without response headers (a timeout before the server answered at all)
 * before the request fails: a server that accepts connections and never answers is not a blip worth
 * `maxAttempts` waits, so it costs at most 2 × the headers bound plus one backoff.
 */
export const MAX_HEADERLESS_ATTEMPTS = 2;

/**
 * A model request with retries of transient failures: each attempt is one `postModelRequest` whose
 * body `read` turns into the response, passing deltas on to `request.onDelta`. Once part of the
 * answer has reached that listener, a failure is not retried (the listener would see it twice);
 * after `MAX_HEADERLESS_ATTEMPTS` attempts timed out without response headers, neither.
 * All attempts and the waits between them end within `http.timeouts.totalMs`.
 */
export function postWithRetries(
  http: Omit<ModelHttpRequest, 'signal' | 'deadline'>,
  request: Pick<ModelRequest, 'signal' | 'onDelta'>,
  retry: RetryOptions | undefined,
  read: (body: ModelHttpBody, onDelta: (delta: ModelDelta) => void) => Promise<ModelResponse>,
): Promise<ModelResponse> {
  let streamed = false;
  const onDelta = (delta: ModelDelta) => {
    streamed = true;
    request.onDelta?.(delta);
  };
  // Whether the current attempt's response headers came, and how many attempts timed out without them.
  let answered = false;
  let headerless = 0;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const response = await http.fetch(input, init);
    answered = true;
    return response;
  };
  const vetoRetry = (error: AgentError): string | undefined => {
    if (streamed) return 'not retried: part of the answer had already streamed';
    if (error.code === 'MODEL_TIMEOUT' && !answered) headerless += 1;
    if (headerless >= MAX_HEADERLESS_ATTEMPTS) return `after ${String(headerless)} attempts without response headers; no more are made`;
    return undefined;
  };
  const deadline = Date.now() + http.timeouts.totalMs;
  const attempt = () => {
    answered = false;
    return postModelRequest({ ...http, fetch, deadline, signal: request.signal }, (body) => read(body, onDelta));
  };
  return withRetries(attempt, retry, { signal: request.signal, vetoRetry, deadline, totalMs: http.timeouts.totalMs });
}

/** An environment setting, `undefined` when unset or empty. */
export function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** The provider's `error.message` when the body carries one (OpenAI and Anthropic shapes), else the body, clipped. */
export function providerMessage(text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown; type?: unknown } | string };
    const error = parsed.error;
    if (typeof error === 'string') return error;
    if (typeof error?.message === 'string') return typeof error.type === 'string' ? `${error.message} (${error.type})` : error.message;
  } catch {
    // not JSON: fall through to the raw text
  }
  return clip(text);
}

/** Text cut to 200 characters for an error message; `an empty body` for nothing. */
export function clip(text: string): string {
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
