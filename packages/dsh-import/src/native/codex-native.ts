/**
 * Codex's rollout format for native forks: one line after another (no tree), numbered by `ordinal`
 * (or by position in rollouts written before ordinals); `session_meta` carries the session id; the
 * child lives at `<folder>/rollout-<time>-<session id>.jsonl`.
 */
import type { NativeFormat } from './native-format.js';
import { NATIVE_RESUME } from './native-resume-command.js';
import { isoTime } from './native-format.js';
import { field, replaceIdFields, type NativeLine } from './native-line.js';

const ID_FIELDS = ['id', 'session_id', 'thread_id', 'conversation_id'];
const CALL_TYPES = new Set(['function_call', 'custom_tool_call', 'local_shell_call', 'tool_search_call']);

function payloadOf(line: NativeLine | undefined): Record<string, unknown> | undefined {
  const payload = line?.value.payload;
  return typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : undefined;
}

function ordinalOf(line: NativeLine): number {
  return typeof line.value.ordinal === 'number' ? line.value.ordinal : line.index;
}

/** Codex (`~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl`). */
export const CODEX_NATIVE: NativeFormat = {
  format: 'codex',
  sessionIdOf: (lines) => {
    const first = lines[0];
    if (first?.value.type === 'session_meta') return field(payloadOf(first), 'id');
    return field(first?.value, 'id');
  },
  findRef: (lines, ref) => {
    if (!/^\d+$/.test(ref)) return undefined;
    const wanted = Number(ref);
    const position = lines.findIndex((line) => ordinalOf(line) === wanted);
    return position < 0 ? undefined : position;
  },
  refOf: (line) => String(ordinalOf(line)),
  refHint: (lines) => {
    const first = lines[0];
    const last = lines[lines.length - 1];
    return first === undefined || last === undefined
      ? 'the file holds no lines'
      : `expected an ordinal from ${String(ordinalOf(first))} to ${String(ordinalOf(last))} (a line's "ordinal", or its 0-based line number in rollouts without them), or seq:N`;
  },
  chainTo: (lines, at) => lines.slice(0, at + 1),
  mainLeaf: (lines) => lines.length - 1,
  rewrite: (line, { from, to }) => replaceIdFields(line.raw, ID_FIELDS, from, to),
  closer: (input, { previous, now }) => {
    const ordinal = typeof previous.value.ordinal === 'number' ? { ordinal: previous.value.ordinal + 1 } : {};
    const kind = input.kind === 'custom_tool_call' ? 'custom_tool_call_output' : 'function_call_output';
    const value = {
      timestamp: isoTime(now),
      ...ordinal,
      type: 'response_item',
      payload: { type: kind, call_id: input.callId, output: input.text },
    };
    return { index: previous.index + 1, raw: JSON.stringify(value), value };
  },
  fileName: (sessionId, now) => `rollout-${isoTime(now).slice(0, 19).replace(/:/g, '-')}-${sessionId}.jsonl`,
  resume: NATIVE_RESUME.codex,
};

/** The rollout item type that declared `callId` (`function_call`, `custom_tool_call`, …), if any. */
export function codexCallKind(lines: readonly NativeLine[], callId: string): string | undefined {
  for (const line of lines) {
    const payload = payloadOf(line);
    if (payload !== undefined && CALL_TYPES.has(String(payload.type)) && payload.call_id === callId) return String(payload.type);
  }
  return undefined;
}
