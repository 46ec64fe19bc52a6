/**
 * @module print-result
 * Print mode's result object: dsh's fields plus the ones `claude -p --output-format json` prints.
 */
import { randomUUID } from 'node:crypto';
import type { SessionEvent } from 'dsh-codec';
import type { QueryResult } from 'dsh-host/core';
import { costUsd, type TokenCounts } from './model-prices.js';
import { allRefusedMessage, refusedCalls, type PermissionDenial } from './refused-calls.js';

/** Token counts summed over the turn's model responses; 0 where the model reports none (keyless). */
export type ResultUsage = TokenCounts;

/** The keys every result object carries, successful or not, as `claude -p --output-format json` prints them. */
type ClaudeResultFields = {
  type: 'result';
  subtype: 'success' | 'error_max_turns' | 'error_during_execution';
  is_error: boolean;
  num_turns: number;
  duration_ms: number;
  /** Time spent waiting for model responses (each step's request until its `assistant/message`). */
  duration_api_ms: number;
  /** From the price table in `model-prices.ts` (docs/cli.md); 0 for keyless, scripted and unknown models. */
  total_cost_usd: number;
  usage: ResultUsage;
  /**
   * The turn's calls dsh refused before they ran (`NO_WORKSPACE`, `PATH_REFUSED`, a tool the session
   * lacks, …), in Claude Code's shape; dsh has no permission prompts, so nothing else lands here.
   */
  permission_denials: PermissionDenial[];
  /** A fresh id for this result line. */
  uuid: string;
};

/**
 * Print mode's result object: dsh's fields (`sessionId`, `result`, `isError`, `stopReason`, `turn`, …)
 * plus Claude Code's (`type`, `subtype`, `session_id`, `is_error`, `num_turns`, `duration_ms`,
 * `duration_api_ms`, `total_cost_usd`, `usage`, `permission_denials`, `uuid`), so a script written
 * for `claude -p --output-format json` reads it unchanged.
 */
/** `model`: the spec that answered the turn (`keyless` when no key or --model picked another). */
export type PrintResult = QueryResult & ClaudeResultFields & { session_id: string; model: string };

/** The result object of a run whose turn never started (a refusal): no turn, no tokens, the code and message. */
export type ErrorResult = Omit<ClaudeResultFields, 'permission_denials'> & {
  permission_denials: [];
  subtype: 'error_during_execution';
  is_error: true;
  isError: true;
  errorCode: string;
  errorMessage: string;
  session_id?: string;
  sessionId?: string;
};

function tokens(usage: unknown, ...keys: string[]): number {
  if (typeof usage !== 'object' || usage === null) return 0;
  const record = usage as Record<string, unknown>;
  const value = keys.map((key) => record[key]).find((candidate) => typeof candidate === 'number');
  return typeof value === 'number' ? value : 0;
}

function emptyUsage(): ResultUsage {
  return { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
}

/**
 * Builds the result object from the query's result and the events its session appended meanwhile:
 * `num_turns` counts the turn's model responses (as Claude Code counts them), `usage` sums theirs,
 * `duration_api_ms` sums each step's wait from `step/start` to its `assistant/message`, and
 * `total_cost_usd` prices the usage for `model`. A completed turn whose every tool call was refused
 * is an error (`error_during_execution`, the first refusal's code): nothing it was asked to do ran.
 */
export function printResult(queried: QueryResult, appended: readonly SessionEvent[], durationMs: number, model: string): PrintResult {
  const { calls, refused } = refusedCalls(appended, queried.turn);
  const allRefused = queried.stopReason === 'completed' && !queried.isError && calls > 0 && refused.length === calls;
  const result: QueryResult = allRefused
    ? { ...queried, isError: true, errorCode: refused[0]?.code ?? 'NO_WORKSPACE', errorMessage: allRefusedMessage(refused) }
    : queried;
  const ofTurn = appended.filter((event) => (event.data as { turn?: unknown } | null)?.turn === result.turn);
  const responses = ofTurn.filter((event) => event.type === 'assistant/message');
  const usage = emptyUsage();
  for (const response of responses) {
    const recorded = (response.data as { usage?: unknown }).usage;
    usage.input_tokens += tokens(recorded, 'inputTokens', 'input_tokens', 'prompt_tokens');
    usage.output_tokens += tokens(recorded, 'outputTokens', 'output_tokens', 'completion_tokens');
    usage.cache_read_input_tokens += tokens(recorded, 'cacheReadTokens');
    usage.cache_creation_input_tokens += tokens(recorded, 'cacheWriteTokens');
  }
  let apiMs = 0;
  const stepStarts = new Map<number, number>();
  for (const event of ofTurn) {
    const step = (event.data as { step?: unknown }).step;
    if (typeof step !== 'number') continue;
    if (event.type === 'step/start') stepStarts.set(step, event.time);
    if (event.type === 'assistant/message') apiMs += Math.max(0, event.time - (stepStarts.get(step) ?? event.time));
  }
  const subtype =
    result.stopReason === 'completed' && !result.isError
      ? 'success'
      : result.stopReason === 'max-steps'
        ? 'error_max_turns'
        : 'error_during_execution';
  return {
    type: 'result',
    subtype,
    ...result,
    session_id: result.sessionId,
    is_error: result.isError,
    num_turns: responses.length,
    duration_ms: Math.round(durationMs),
    duration_api_ms: apiMs,
    model,
    total_cost_usd: costUsd(model, usage),
    usage,
    permission_denials: refused,
    uuid: randomUUID(),
  };
}

/** The result object of a refusal (the turn never ran): `error_during_execution` with the code and message. */
export function errorResult(code: string, message: string, durationMs: number, sessionId?: string): ErrorResult {
  return {
    type: 'result',
    subtype: 'error_during_execution',
    is_error: true,
    isError: true,
    errorCode: code,
    errorMessage: message,
    ...(sessionId === undefined ? {} : { session_id: sessionId, sessionId }),
    num_turns: 0,
    duration_ms: Math.round(durationMs),
    duration_api_ms: 0,
    total_cost_usd: 0,
    usage: emptyUsage(),
    permission_denials: [],
    uuid: randomUUID(),
  };
}
