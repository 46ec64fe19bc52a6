/**
 * @module hook-checkpoint-at-cut
 * SPEC §23's "workspace at REF" for a tool's session file: the latest checkpoint dsh's hooks recorded
 * at or before the cut on the child's chain. Walking the chain in order, a call stands for its
 * `PreToolUse` checkpoint (the files before the call) and its result for its `PostToolUse` one (after
 * it) — except a result dsh's fork wrote for a call open at the cut: that call never finished here.
 * Claude Code: `tool_use` / `tool_result` blocks; Codex: `function_call`-like / `*_output` rollout items;
 * pi: `toolCall` blocks / `toolResult` messages (its extension's `tool_call` / `tool_result`, recorded as
 * PreToolUse / PostToolUse).
 */
import type { HookCheckpointRecord } from './hook-checkpoint-index.js';
import type { HookTool } from './hook-tools.js';

type Line = Record<string, unknown>;
/** One call mark of a line: the hook event whose checkpoint it stands for, and the call id. */
type Mark = { event: 'PreToolUse' | 'PostToolUse'; callId: string };

type Block = { type?: unknown; id?: unknown; tool_use_id?: unknown };

function claudeMarks(entry: Line): Mark[] {
  const message = entry.message as { content?: unknown } | undefined;
  if (!Array.isArray(message?.content)) return [];
  const marks: Mark[] = [];
  for (const block of message.content as unknown[]) {
    if (typeof block !== 'object' || block === null) continue;
    const { type, id, tool_use_id: resultOf } = block as Block;
    if (entry.type === 'assistant' && type === 'tool_use' && typeof id === 'string') marks.push({ event: 'PreToolUse', callId: id });
    else if (entry.type === 'user' && type === 'tool_result' && typeof resultOf === 'string')
      marks.push({ event: 'PostToolUse', callId: resultOf });
  }
  return marks;
}

const CODEX_CALLS = new Set(['function_call', 'custom_tool_call', 'local_shell_call']);
const CODEX_OUTPUTS = new Set(['function_call_output', 'custom_tool_call_output']);

function codexMarks(line: Line): Mark[] {
  if (line.type !== 'response_item' || typeof line.payload !== 'object' || line.payload === null) return [];
  const { type, call_id: callId } = line.payload as { type?: unknown; call_id?: unknown };
  if (typeof callId !== 'string' || typeof type !== 'string') return [];
  if (CODEX_CALLS.has(type)) return [{ event: 'PreToolUse', callId }];
  return CODEX_OUTPUTS.has(type) ? [{ event: 'PostToolUse', callId }] : [];
}

/** pi: an assistant message's `toolCall` blocks, a `toolResult` message's `toolCallId`. */
function piMarks(entry: Line): Mark[] {
  if (entry.type !== 'message' || typeof entry.message !== 'object' || entry.message === null) return [];
  const { role, content, toolCallId } = entry.message as { role?: unknown; content?: unknown; toolCallId?: unknown };
  if (role === 'toolResult') return typeof toolCallId === 'string' ? [{ event: 'PostToolUse', callId: toolCallId }] : [];
  if (role !== 'assistant' || !Array.isArray(content)) return [];
  const marks: Mark[] = [];
  for (const block of content as unknown[]) {
    const { type, id } = (typeof block === 'object' && block !== null ? block : {}) as Block;
    if (type === 'toolCall' && typeof id === 'string') marks.push({ event: 'PreToolUse', callId: id });
  }
  return marks;
}

const MARKS: Readonly<Record<HookTool, (line: Line) => Mark[]>> = { 'claude-code': claudeMarks, codex: codexMarks, pi: piMarks };

/**
 * The checkpoint of `records` the chain `lines` (the child's, in order) of a `tool` session reaches
 * last, or undefined when none of its calls was checkpointed. `closedCallIds`: the calls the fork closed.
 */
export function hookCheckpointAtCut(
  tool: HookTool,
  lines: readonly Line[],
  records: readonly HookCheckpointRecord[],
  closedCallIds: ReadonlySet<string>,
): HookCheckpointRecord | undefined {
  const byKey = new Map<string, HookCheckpointRecord>();
  for (const record of records) byKey.set(`${record.hook_event_name}\0${record.tool_use_id}`, record);
  const marksOf = MARKS[tool];
  let found: HookCheckpointRecord | undefined;
  for (const line of lines)
    for (const mark of marksOf(line)) {
      if (mark.event === 'PostToolUse' && closedCallIds.has(mark.callId)) continue;
      found = byKey.get(`${mark.event}\0${mark.callId}`) ?? found;
    }
  return found;
}
