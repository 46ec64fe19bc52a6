/**
 * @module models/with-retries
 * Retries of one model request: transient failures (HTTP 408/409/429/5xx, connection failures,
 * timeouts) are tried again after a capped exponential backoff with jitter, honouring `Retry-After`.
 */
import { AgentError } from '../agent-error.js';

/** How a model adapter retries; every field has a default (4 attempts, 0.5 s doubling up to 8 s). */
export type RetryOptions = {
  /** Attempts in all, the first included (default 4; 1 turns retries off). */
  maxAttempts?: number;
  /** Delay before the first retry, before jitter (default 500 ms); doubles on each retry. */
  initialDelayMs?: number;
  /** Cap of the backoff delay (default 8 000 ms). */
  maxDelayMs?: number;
  /** A `Retry-After` longer than this is not waited for: the request fails at once (default 60 000 ms). */
  maxRetryAfterMs?: number;
  /** Source of jitter in [0, 1) (default `Math.random`). */
  random?: () => number;
  /** Waits `ms` or rejects when `signal` fires (default a timer); tests pass one that records the delays. */
  sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
};

const DEFAULTS = { maxAttempts: 4, initialDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 };
const RETRIED_STATUSES = new Set([408, 409, 429]);
const RETRIED_CODES = new Set(['MODEL_UNREACHABLE', 'MODEL_TIMEOUT']);

/** Whether a failed attempt may be tried again: a transient status, a broken connection, a timeout. */
export function isTransient(error: unknown): boolean {
  if (!AgentError.is(error)) return false;
  if (RETRIED_CODES.has(error.code)) return true;
  if (error.code !== 'MODEL_HTTP_ERROR' && error.code !== 'MODEL_STREAM_ERROR') return false;
  const status = error.status;
  return status !== undefined && (RETRIED_STATUSES.has(status) || status >= 500);
}

/** What `withRetries` watches besides the error: the request's abort signal and a veto on retrying. */
export type RetryControl = {
  signal?: AbortSignal | undefined;
  /** Why retrying would be wrong after this failure (e.g. its output was already shown), as a note for the message; undefined allows it. */
  vetoRetry?: (error: AgentError) => string | undefined;
  /** When the request's total time runs out (epoch ms): no retry is started, or waited for, past it. */
  deadline?: number;
  /** The total time `deadline` stands for, for the message. */
  totalMs?: number;
};

/**
 * Runs `attempt` (given its 1-based number) until it resolves, fails with a non-transient error,
 * or `maxAttempts` is used up; the last error is rethrown with the attempt count added to its
 * message. An abort of `signal` ends the wait at once and rethrows the abort. A retry whose backoff
 * would end past `deadline` is not made: the last error is rethrown, saying so.
 */
export async function withRetries<T>(
  attempt: (number: number) => Promise<T>,
  options: RetryOptions = {},
  control: RetryControl = {},
): Promise<T> {
  const { signal, vetoRetry, deadline } = control;
  const maxAttempts = Math.max(1, Math.floor(options.maxAttempts ?? DEFAULTS.maxAttempts));
  const sleep = options.sleep ?? sleepFor;
  for (let number = 1; ; number += 1) {
    try {
      return await attempt(number);
    } catch (error) {
      if (signal?.aborted === true || !isTransient(error)) throw error;
      const failure = error as AgentError;
      const retryAfter = failure.retryAfterMs;
      const maxRetryAfter = options.maxRetryAfterMs ?? DEFAULTS.maxRetryAfterMs;
      if (number >= maxAttempts || (retryAfter !== undefined && retryAfter > maxRetryAfter)) {
        throw withAttempts(failure, number, retryAfter !== undefined && retryAfter > maxRetryAfter ? retryAfter : undefined);
      }
      // Asked only when a retry would otherwise be made: the last attempt's message stays `(after N attempts)`.
      const veto = vetoRetry?.(failure);
      if (veto !== undefined) throw withNote(failure, ` (${veto})`);
      const delay = backoffDelay(number, options, retryAfter);
      if (deadline !== undefined && Date.now() + delay >= deadline) {
        const total = control.totalMs === undefined ? '' : ` of ${String(control.totalMs / 1000)} s`;
        throw withNote(
          failure,
          ` (after ${String(number)} attempt${number === 1 ? '' : 's'}; the request's total time${total} leaves no room for another)`,
        );
      }
      await sleep(delay, signal);
    }
  }
}

/**
 * The wait before retry `number` (1 = the first retry): `initial · 2^(number-1)` capped at
 * `maxDelayMs`, of which the upper half is random ("equal jitter"), and never less than `retryAfterMs`.
 */
export function backoffDelay(number: number, options: RetryOptions = {}, retryAfterMs?: number): number {
  const initial = options.initialDelayMs ?? DEFAULTS.initialDelayMs;
  const cap = options.maxDelayMs ?? DEFAULTS.maxDelayMs;
  const exponential = Math.min(cap, initial * 2 ** (number - 1));
  const random = options.random ?? Math.random;
  const jittered = exponential / 2 + (exponential / 2) * random();
  return Math.max(Math.round(jittered), retryAfterMs ?? 0);
}

/**
 * A `Retry-After` (seconds or an HTTP date) or OpenAI's `retry-after-ms` header in milliseconds;
 * undefined when absent or unreadable.
 */
export function parseRetryAfter(headers: Headers, now = Date.now()): number | undefined {
  const milliseconds = headers.get('retry-after-ms');
  if (milliseconds !== null && /^\d+(\.\d+)?$/.test(milliseconds.trim())) return Math.ceil(Number(milliseconds));
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.ceil(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function withAttempts(error: AgentError, attempts: number, refusedWait: number | undefined): AgentError {
  const note =
    refusedWait !== undefined
      ? ` (the provider asked to wait ${Math.ceil(refusedWait / 1000)} s before retrying, longer than allowed)`
      : attempts > 1
        ? ` (after ${attempts} attempts)`
        : '';
  return note === '' ? error : withNote(error, note);
}

function withNote(error: AgentError, note: string): AgentError {
  return new AgentError(error.code, `${error.message}${note}`, {
    cause: error,
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
  });
}

function sleepFor(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
