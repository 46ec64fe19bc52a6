import type { SessionEvent } from 'dsh-codec';
import type { QueryResult } from 'dsh-host';

/** Token counts summed over the turn's model responses; 0 where the model reports none (keyless). */
export type ResultUsage = { input_tokens: number; output_tokens: number };

/**
 * Print mode's result object: dsh's fields (`sessionId`, `result`, `isError`, `stopReason`, `turn`, …)
 * plus Claude Code's (`type`, `subtype`, `session_id`, `is_error`, `num_turns`, `duration_ms`,
 * `usage`), so a script written for `claude -p --output-format json` reads it unchanged.
 */
export type PrintResult = QueryResult & {
  type: 'result';
  subtype: 'success' | 'error_max_turns' | 'error_during_execution';
  session_id: string;
  is_error: boolean;
  num_turns: number;
  duration_ms: number;
  usage: ResultUsage;
};

function tokens(usage: unknown, ...keys: string[]): number {
  if (typeof usage !== 'object' || usage === null) return 0;
  const record = usage as Record<string, unknown>;
  const value = keys.map((key) => record[key]).find((candidate) => typeof candidate === 'number');
  return typeof value === 'number' ? value : 0;
}

/**
 * Builds the result object from the query's result and the events its session appended meanwhile:
 * `num_turns` counts the turn's model responses (as Claude Code counts them), `usage` sums theirs.
 */
export function printResult(result: QueryResult, appended: readonly SessionEvent[], durationMs: number): PrintResult {
  const responses = appended.filter((event) => event.type === 'assistant/message' && (event.data as { turn?: unknown }).turn === result.turn);
  const usage: ResultUsage = { input_tokens: 0, output_tokens: 0 };
  for (const response of responses) {
    const recorded = (response.data as { usage?: unknown }).usage;
    usage.input_tokens += tokens(recorded, 'inputTokens', 'input_tokens', 'prompt_tokens');
    usage.output_tokens += tokens(recorded, 'outputTokens', 'output_tokens', 'completion_tokens');
  }
  const subtype = result.stopReason === 'completed' && !result.isError ? 'success' : result.stopReason === 'max-steps' ? 'error_max_turns' : 'error_during_execution';
  return {
    type: 'result',
    subtype,
    ...result,
    session_id: result.sessionId,
    is_error: result.isError,
    num_turns: responses.length,
    duration_ms: Math.round(durationMs),
    usage,
  };
}
