/**
 * @module log-rows
 * The named rows of the log-builder family: one maker for each core event type (SPEC §3.3) with turn
 * and step numbers, ids and texts stated by the test, so a log is exactly what the test says — a valid
 * one, or one a validator must refuse (a turn out of order, a result without its call). Rows become
 * events through `logEvents` (numbered) or through a session's `append`. `LogBuilder` stays the form
 * that numbers itself. Tool calls are named `echo` with arguments `{}`; an assistant message's id is
 * `a-<turn>-<step>`, a result's `r-<callId>`.
 */
import type { LogJson } from './log-builder.js';
import type { LogEventExtra } from './log-events.js';

/** A row whose data is JSON: what the named makers return (a `LogRow` for `logEvents`). */
export type LogJsonRow = readonly [type: string, data: LogJson, extra?: LogEventExtra];

/** A user message as the events carry it: one text block. */
export function logUserMessage(id: string, text: string): { id: string; role: 'user'; content: { type: 'text'; text: string }[] } {
  return { id, role: 'user', content: [{ type: 'text', text }] };
}

/** The rows of every core event type; tool calls get name `echo` and arguments `{}`. */
export const logRow = {
  title: (title: string): LogJsonRow => ['session/title', { title }],
  config: (config: { tools?: string[]; cwd?: string; model?: string }): LogJsonRow => ['session/config', config],
  queued: (inputId: string, text: string): LogJsonRow => ['input/queued', { inputId, message: logUserMessage(`m-${inputId}`, text) }],
  turnStart: (turn: number): LogJsonRow => ['turn/start', { turn }],
  user: (id: string, text: string, inputId?: string): LogJsonRow => [
    'user/message',
    inputId === undefined ? { message: logUserMessage(id, text) } : { message: logUserMessage(id, text), inputId },
  ],
  /** A user message between turns replacing the surface nodes `start..end` (a compaction's summary). */
  replaceUser: (id: string, text: string, start: number, end: number): LogJsonRow => [
    'user/message',
    { message: logUserMessage(id, text) },
    { surfaceOp: { op: 'replace', start, end } },
  ],
  stepStart: (turn: number, step: number): LogJsonRow => ['step/start', { turn, step }],
  /** The step's assistant message: the text (none when empty), then a tool-call block for each of `callIds`. */
  assistant: (turn: number, step: number, text: string, callIds: readonly string[] = []): LogJsonRow => [
    'assistant/message',
    {
      turn,
      step,
      message: {
        id: `a-${String(turn)}-${String(step)}`,
        role: 'assistant',
        content: [
          ...(text === '' ? [] : [{ type: 'text', text }]),
          ...callIds.map((id) => ({ type: 'tool-call', id, name: 'echo', arguments: '{}' })),
        ],
      },
    },
  ],
  call: (turn: number, step: number, callId: string, effect = 'read-only'): LogJsonRow => [
    'tool/call',
    { turn, step, callId, name: 'echo', arguments: '{}', effect },
  ],
  /** A real result; `isError` adds `{ name: "ToolError", code: "TOOL_FAILED" }`. */
  result: (turn: number, step: number, callId: string, text = 'ok', isError = false): LogJsonRow => [
    'tool/result',
    {
      turn,
      step,
      message: { id: `r-${callId}`, role: 'tool', callId, content: [{ type: 'text', text }], isError },
      ...(isError ? { error: { name: 'ToolError', code: 'TOOL_FAILED' } } : {}),
    },
  ],
  stepEnd: (turn: number, step: number): LogJsonRow => ['step/end', { turn, step }],
  turnEnd: (turn: number, reason: LogJson = { kind: 'completed' }): LogJsonRow => ['turn/end', { turn, reason }],
  /** An ignorable plugin event. */
  plugin: (type: string, data: LogJson = {}): LogJsonRow => [type, data, { ignorable: true }],
};

/** A complete turn: the user's message, one step calling `callIds` with their results, a text step, `turn/end`. */
export function completedTurnRows(turn: number, callIds: readonly string[] = []): LogJsonRow[] {
  const rows = [logRow.turnStart(turn), logRow.user(`u-${String(turn)}`, `question ${String(turn)}`), logRow.stepStart(turn, 1)];
  rows.push(logRow.assistant(turn, 1, callIds.length === 0 ? 'answer' : 'calling', callIds));
  if (callIds.length === 0) return [...rows, logRow.stepEnd(turn, 1), logRow.turnEnd(turn)];
  for (const id of callIds) rows.push(logRow.call(turn, 1, id), logRow.result(turn, 1, id));
  rows.push(logRow.stepEnd(turn, 1), logRow.stepStart(turn, 2), logRow.assistant(turn, 2, 'done'), logRow.stepEnd(turn, 2));
  return [...rows, logRow.turnEnd(turn)];
}
