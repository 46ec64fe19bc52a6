/**
 * @module refused-calls
 * The tool calls of a turn that dsh refused before their body ran, as Claude Code's
 * `permission_denials` entries, and whether the turn ran any call at all (SPEC §25).
 */
import type { SessionEvent } from 'dsh-codec';

/**
 * The `tool/result` error codes with which dsh refuses a call before its body runs: no working
 * directory, a path it never touches, a tool the session does not have. A tool that ran and failed
 * (`TOOL_FAILED`, `FILE_NOT_FOUND`, …) or got arguments it cannot read is not a refusal.
 */
export const REFUSAL_CODES: readonly string[] = [
  'NO_WORKSPACE',
  'PATH_OUTSIDE_CWD',
  'PATH_TOO_LONG',
  'PATH_REFUSED',
  'HARD_LINKED_FILE',
  'TOOL_NOT_FOUND',
];

/** One refused call: Claude Code's `permission_denials` entry (`tool_name`, `tool_use_id`, `tool_input`) plus dsh's code and reason. */
export type PermissionDenial = {
  tool_name: string;
  tool_use_id: string;
  tool_input: unknown;
  /** The refusal's code (`NO_WORKSPACE`, `PATH_REFUSED`, …). */
  code: string;
  /** The refusal as the model read it. */
  reason: string;
};

/** The calls of one turn: how many there were, and those refused. */
export type TurnCalls = { calls: number; refused: PermissionDenial[] };

type CallData = { turn?: unknown; callId: string; name: string; arguments: string };
type ResultData = { turn?: unknown; message: { callId: string; content: { type: string; text?: string }[] }; error?: { code: string } };

function inputOf(text: string): unknown {
  try {
    return text.trim() === '' ? {} : (JSON.parse(text) as unknown);
  } catch {
    return text;
  }
}

/** The calls turn `turn` made among `events`, and those whose result carries a refusal code. */
export function refusedCalls(events: readonly SessionEvent[], turn: number): TurnCalls {
  const calls = new Map<string, CallData>();
  const refused: PermissionDenial[] = [];
  for (const event of events) {
    if ((event.data as { turn?: unknown } | null)?.turn !== turn) continue;
    if (event.type === 'tool/call') {
      const call = event.data as CallData;
      calls.set(call.callId, call);
    } else if (event.type === 'tool/result') {
      const result = event.data as ResultData;
      const code = result.error?.code;
      if (code === undefined || !REFUSAL_CODES.includes(code)) continue;
      const call = calls.get(result.message.callId);
      refused.push({
        tool_name: call?.name ?? '(unknown)',
        tool_use_id: result.message.callId,
        tool_input: call === undefined ? {} : inputOf(call.arguments),
        code,
        reason: result.message.content.map((block) => (block.type === 'text' ? (block.text ?? '') : '')).join(''),
      });
    }
  }
  return { calls: calls.size, refused };
}

/** The message of a turn whose every call was refused: each call with its code, then the first reason in full. */
export function allRefusedMessage(refused: readonly PermissionDenial[]): string {
  const listed = refused.map((denial) => `${denial.tool_name} (${denial.code})`).join(', ');
  return `Every tool call of the turn was refused, so none of them ran: ${listed}. ${refused[0]?.reason ?? ''}`.trimEnd();
}
