/**
 * @module claude-checkpoint-at-cut
 * SPEC §23's "workspace at REF" for a Claude Code file: the latest checkpoint dsh's hooks recorded at
 * or before the cut on the child's chain. Walking the chain in order, a `tool_use` block stands for its
 * `PreToolUse` checkpoint (the files before the call) and a `tool_result` for its `PostToolUse` one
 * (after it) — except a result dsh's fork wrote for a call open at the cut: that call never finished here.
 */
import type { ClaudeCheckpointRecord } from './claude-checkpoint-index.js';

type Block = { type?: unknown; id?: unknown; tool_use_id?: unknown };

function blocksOf(entry: Record<string, unknown>): Block[] {
  const message = entry.message as { content?: unknown } | undefined;
  if (!Array.isArray(message?.content)) return [];
  return (message.content as unknown[]).filter((block): block is Block => typeof block === 'object' && block !== null);
}

/**
 * The checkpoint of `records` the chain `entries` (the child's lines, in order) reaches last, or
 * undefined when none of its calls was checkpointed. `closedCallIds`: the calls the fork closed.
 */
export function claudeCheckpointAtCut(
  entries: readonly Record<string, unknown>[],
  records: readonly ClaudeCheckpointRecord[],
  closedCallIds: ReadonlySet<string>,
): ClaudeCheckpointRecord | undefined {
  const byKey = new Map<string, ClaudeCheckpointRecord>();
  for (const record of records) byKey.set(`${record.hook_event_name}\0${record.tool_use_id}`, record);
  let found: ClaudeCheckpointRecord | undefined;
  for (const entry of entries) {
    for (const block of blocksOf(entry)) {
      let key: string | undefined;
      if (entry.type === 'assistant' && block.type === 'tool_use' && typeof block.id === 'string') key = `PreToolUse\0${block.id}`;
      else if (
        entry.type === 'user' &&
        block.type === 'tool_result' &&
        typeof block.tool_use_id === 'string' &&
        !closedCallIds.has(block.tool_use_id)
      )
        key = `PostToolUse\0${block.tool_use_id}`;
      found = (key === undefined ? undefined : byKey.get(key)) ?? found;
    }
  }
  return found;
}
