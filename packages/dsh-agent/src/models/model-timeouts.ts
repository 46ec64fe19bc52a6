/**
 * @module How long a model request may take, as four bounds: silence between chunks (idle), the wait
 * for the response headers, one whole attempt, and all attempts with the waits between them. Each
 * comes from the adapter's options, else a `DSH_MODEL_*_TIMEOUT_MS` environment variable, else a
 * default sized for real providers.
 */
import { AgentError } from '../agent-error.js';

/** The four bounds of a model request, in milliseconds. */
export type ModelTimeouts = {
  /** Longest silence between two chunks of the body. */
  idleMs: number;
  /** Longest wait from sending the request to the response headers. */
  headersMs: number;
  /** Longest one attempt may take, headers and whole body included. */
  attemptMs: number;
  /** Longest the request may take over every attempt and the backoff waits between them. */
  totalMs: number;
};

/** The timeout options both HTTP adapters take (each overrides its environment variable and default). */
export type ModelTimeoutOptions = {
  /** Longest silence between chunks (and before the headers) before an attempt fails with `MODEL_TIMEOUT`; default 300 000 (`DSH_MODEL_IDLE_TIMEOUT_MS`). */
  timeoutMs?: number;
  /** Longest wait for the response headers; default 60 000 when streaming, else the attempt's bound (`DSH_MODEL_HEADERS_TIMEOUT_MS`). */
  headersTimeoutMs?: number;
  /** Longest one attempt may take in all; default 600 000 (`DSH_MODEL_ATTEMPT_TIMEOUT_MS`). */
  attemptTimeoutMs?: number;
  /** Longest the request may take across retries; default 900 000 (`DSH_MODEL_TOTAL_TIMEOUT_MS`). */
  totalTimeoutMs?: number;
};

/** The defaults: a streamed answer's headers come within seconds from real providers; a long answer may stream for minutes. */
export const DEFAULT_MODEL_TIMEOUTS = { idleMs: 300_000, headersMs: 60_000, attemptMs: 600_000, totalMs: 900_000 } as const;

function fromEnv(
  env: Readonly<Record<string, string | undefined>>,
  name: string,
  label: string,
  unit = 'milliseconds',
): number | undefined {
  const value = env[name];
  if (value === undefined || value.trim() === '') return undefined;
  if (!/^\d+$/.test(value.trim()) || Number(value) === 0) {
    throw new AgentError(
      'MODEL_CONFIG',
      `${label}: expected ${name} to be a positive whole number of ${unit}, received ${JSON.stringify(value)}`,
    );
  }
  return Number(value);
}

/**
 * The bounds an adapter uses: options first, then `DSH_MODEL_IDLE_TIMEOUT_MS`, `…_HEADERS_…`,
 * `…_ATTEMPT_…`, `…_TOTAL_…`, then the defaults. Without streaming the headers come with the whole
 * answer, so their default is the attempt's bound. Throws `MODEL_CONFIG` for an unreadable variable.
 */
export function modelTimeouts(
  options: ModelTimeoutOptions,
  env: Readonly<Record<string, string | undefined>>,
  label: string,
  stream: boolean,
): ModelTimeouts {
  const idleMs = options.timeoutMs ?? fromEnv(env, 'DSH_MODEL_IDLE_TIMEOUT_MS', label) ?? DEFAULT_MODEL_TIMEOUTS.idleMs;
  const attemptMs = options.attemptTimeoutMs ?? fromEnv(env, 'DSH_MODEL_ATTEMPT_TIMEOUT_MS', label) ?? DEFAULT_MODEL_TIMEOUTS.attemptMs;
  const headersMs =
    options.headersTimeoutMs ??
    fromEnv(env, 'DSH_MODEL_HEADERS_TIMEOUT_MS', label) ??
    (stream ? DEFAULT_MODEL_TIMEOUTS.headersMs : attemptMs);
  const totalMs = options.totalTimeoutMs ?? fromEnv(env, 'DSH_MODEL_TOTAL_TIMEOUT_MS', label) ?? DEFAULT_MODEL_TIMEOUTS.totalMs;
  return { idleMs, headersMs, attemptMs, totalMs };
}

/** `DSH_MODEL_MAX_ATTEMPTS` as a retry option, when set (the adapter's `retry.maxAttempts` wins). */
export function maxAttemptsFromEnv(env: Readonly<Record<string, string | undefined>>, label: string): { maxAttempts: number } | undefined {
  const value = fromEnv(env, 'DSH_MODEL_MAX_ATTEMPTS', label, 'attempts');
  return value === undefined ? undefined : { maxAttempts: value };
}

/** A duration for a message: `60 s`, `0.05 s`. */
export function seconds(ms: number): string {
  return `${String(Math.round(ms) / 1000)} s`;
}
