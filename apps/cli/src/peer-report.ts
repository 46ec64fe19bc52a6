/**
 * @module peer-report
 * What `dsh peers` prints for each peer (SPEC §20): the JSON object (`name`, `session_id`, `cwd`,
 * `result`, `is_error`, `subtype`, `num_turns`, `usage`, `files_changed`, …) and its text block.
 */
import type { SessionEvent } from 'dsh-codec';
import type { QueryResult } from 'dsh-host/core';
import { printResult, type ResultUsage } from './print-result.js';

/** One peer as `dsh peers --output-format json` prints it, in prompt order. */
export type PeerReport = {
  name: string;
  session_id: string;
  /** null when the peer has no workspace (its tools are refused `NO_WORKSPACE`). */
  cwd: string | null;
  result: string;
  is_error: boolean;
  subtype: 'success' | 'error_max_turns' | 'error_during_execution';
  num_turns: number;
  usage: ResultUsage;
  files_changed: string[];
  /** Every tool call of the peer's turn, by name, in order. */
  tool_calls: string[];
  stop_reason: string;
  error_code?: string;
  error_message?: string;
};

/** The tools that change files, and the argument naming the path they change. */
const WRITING_TOOLS = new Set(['write_file', 'make_dir']);

/** Paths the turn's successful writing tool calls named (for a peer without a worktree to ask git). */
export function writtenPaths(events: readonly SessionEvent[], turn: number): string[] {
  const calls = new Map<string, string>();
  const paths = new Set<string>();
  for (const event of events) {
    const data = event.data as {
      turn?: unknown;
      callId?: string;
      name?: string;
      arguments?: string;
      message?: { callId?: string; isError?: boolean };
    };
    if (data.turn !== turn) continue;
    if (event.type === 'tool/call' && WRITING_TOOLS.has(data.name ?? '')) {
      try {
        const path = (JSON.parse(data.arguments ?? '{}') as { path?: unknown }).path;
        if (typeof path === 'string' && data.callId !== undefined) calls.set(data.callId, path);
      } catch {
        // Malformed arguments changed nothing.
      }
    }
    if (event.type === 'tool/result' && data.message?.isError === false) {
      const path = calls.get(data.message.callId ?? '');
      if (path !== undefined) paths.add(path);
    }
  }
  return [...paths].sort();
}

/** The report of one peer from its turn's result and the events its session appended meanwhile. */
export function peerReport(
  name: string,
  cwd: string | undefined,
  result: QueryResult,
  events: readonly SessionEvent[],
  filesChanged: string[],
  model: string,
): PeerReport {
  const printed = printResult(result, events, 0, model);
  const toolCalls = events
    .filter((event) => event.type === 'tool/call' && (event.data as { turn?: unknown }).turn === result.turn)
    .map((event) => (event.data as { name: string }).name);
  const report: PeerReport = {
    name,
    session_id: result.sessionId,
    cwd: cwd ?? null,
    result: result.result,
    is_error: result.isError,
    subtype: printed.subtype,
    num_turns: printed.num_turns,
    usage: printed.usage,
    files_changed: filesChanged,
    tool_calls: toolCalls,
    stop_reason: result.stopReason,
  };
  if (result.errorCode !== undefined) report.error_code = result.errorCode;
  if (result.errorMessage !== undefined) report.error_message = result.errorMessage;
  return report;
}

function counted(names: readonly string[]): string {
  if (names.length === 0) return '0';
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return `${String(names.length)} (${[...counts].map(([name, count]) => (count === 1 ? name : `${name} ×${String(count)}`)).join(', ')})`;
}

/** One peer's text block: name and id, cwd, turns, tool calls, files changed, error, then the final answer indented. */
export function peerBlock(report: PeerReport): string {
  const error = report.is_error
    ? `${report.stop_reason}${report.error_code === undefined ? '' : ` (${report.error_code})`}${report.error_message === undefined ? '' : `: ${report.error_message}`}`
    : 'none';
  const answer = report.result.trimEnd() === '' ? '(no answer)' : report.result.trimEnd();
  return [
    `── ${report.name}  ${report.session_id}`,
    `   cwd:           ${report.cwd ?? '(none: its tools are refused NO_WORKSPACE)'}`,
    `   turns:         ${String(report.num_turns)}`,
    `   tool calls:    ${counted(report.tool_calls)}`,
    `   files changed: ${report.files_changed.length === 0 ? 'none' : report.files_changed.join(', ')}`,
    `   error:         ${error}`,
    '   answer:',
    ...answer.split('\n').map((line) => `     ${line}`),
    '',
  ].join('\n');
}
