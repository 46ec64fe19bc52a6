/**
 * The entry tree of a Claude Code file as the import reads it: which lines are entries, how a line
 * whose parent the file does not hold is linked, and which siblings (parallel results, the later
 * lines of a split response) belong to a line. Shared by the reader and the native fork, so a
 * fork's chain is exactly the line `dsh import` reads.
 */
import type { SourceLine } from '../read-lines.js';
import { asRecord, asString } from '../read-transcript.js';
import type { WarningTally } from '../source-item.js';
import type { Absorbs, TreeNode } from '../transcript-tree.js';
import { inChainOrder } from '../in-chain-order.js';
import { CLAUDE_CODE_TITLE_TYPES } from './claude-code-line-types.js';

/** One entry: its 1-based source line and object. */
export type ClaudeCodeEntry = { line: number; value: Record<string, unknown> };

/** The tree: entries by uuid (file order), nodes for `linesOfTree` (chain order: each after its parent), and the sibling rule. */
export type ClaudeCodeTree = { entries: Map<string, ClaudeCodeEntry>; nodes: TreeNode[]; absorbs: Absorbs; allSidechain: boolean };

/** Whether `content` holds blocks (objects), all of them `tool_result`s whose call `owned` accepts. */
function everyResultOwnedBy(content: unknown, owned: (callId: string) => boolean): boolean {
  if (!Array.isArray(content)) return false;
  let blocks = 0;
  for (const item of content as unknown[]) {
    const block = asRecord(item);
    if (block === undefined) continue;
    blocks++;
    if (block.type !== 'tool_result' || !owned(String(block.tool_use_id))) return false;
  }
  return blocks > 0;
}

/**
 * Builds the tree of `lines`; `tally` counts each line left out that is not in `quiet` (no uuid, a
 * subagent's sidechain line in a main file, an entry of a type dsh does not know).
 */
export function claudeCodeTree(lines: readonly SourceLine[], quiet: ReadonlySet<string>, tally?: WarningTally): ClaudeCodeTree {
  // A subagent's own file is all sidechain: import it; a main file's sidechain lines belong to subagents.
  let treed = 0;
  let sidechain = 0;
  for (const { value } of lines) {
    if (typeof value.uuid !== 'string') continue;
    treed++;
    if (value.isSidechain === true) sidechain++;
  }
  const allSidechain = treed > 0 && sidechain === treed;
  const entries = new Map<string, ClaudeCodeEntry>();
  const nodes: TreeNode[] = [];
  for (const entry of lines) {
    const { line, value } = entry;
    const type = asString(value.type) ?? '';
    if (CLAUDE_CODE_TITLE_TYPES.has(type)) continue;
    const uuid = asString(value.uuid);
    if (uuid === undefined) {
      if (!quiet.has(type)) tally?.add(`lines of unknown type "${type}" skipped`, line);
      continue;
    }
    if (value.isSidechain === true && !allSidechain) {
      tally?.add('sidechain (subagent) lines skipped: import the subagent file itself to keep them', line);
      continue;
    }
    if (type !== 'user' && type !== 'assistant' && !quiet.has(type)) tally?.add(`lines of unknown type "${type}" skipped`, line);
    entries.set(uuid, entry);
    const parent = asString(value.parentUuid) ?? asString(value.logicalParentUuid);
    nodes.push({ key: uuid, parent, order: nodes.length, message: type === 'user' || type === 'assistant' });
  }
  // A parent the file does not hold (a compact boundary's logical parent, a subagent's first line)
  // links to the line written just before, as an append-only file orders them.
  for (const node of nodes) {
    if (node.parent !== undefined && !entries.has(node.parent))
      node.parent = node.order > 0 ? (nodes[node.order - 1] as TreeNode).key : undefined;
  }
  // Parallel results and the later lines of a split response hang off earlier lines of the same step.
  const callOwner = new Map<string, string>();
  // The lines of each response (message.id): a sibling joins a line that holds one of them.
  const linesOfMessage = new Map<string, string[]>();
  // `forEach`, not `for…of` with destructuring: no [key, value] array per entry.
  entries.forEach(({ value }, uuid) => {
    const message = asRecord(value.message);
    if (value.type !== 'assistant' || message === undefined) return;
    const id = asString(message.id);
    if (id !== undefined) {
      const same = linesOfMessage.get(id);
      if (same === undefined) linesOfMessage.set(id, [uuid]);
      else same.push(uuid);
    }
    const content = message.content;
    if (!Array.isArray(content)) return;
    for (const block of content as unknown[]) {
      const record = asRecord(block);
      if (record !== undefined && record.type === 'tool_use') callOwner.set(String(record.id), uuid);
    }
  });
  const absorbs: Absorbs = (node, line) => {
    const entry = entries.get(node.key);
    const message = asRecord(entry?.value.message);
    if (entry === undefined || message === undefined) return false;
    if (entry.value.type === 'assistant') {
      // The entry's message id, as the loop above filed it under (no map of them).
      const id = asString(message.id);
      if (id === undefined) return false;
      return (linesOfMessage.get(id) ?? []).some((key) => key !== node.key && line.has(key));
    }
    return everyResultOwnedBy(message.content, (callId) => line.has(callOwner.get(callId) ?? ''));
  };
  // A line written before the line it follows (SPEC §26) is read where its parent puts it.
  return { entries, nodes: inChainOrder(nodes), absorbs, allSidechain };
}
